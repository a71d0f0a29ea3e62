/** Helpers for the CLI tests: real temp directories, `main()` with collected output, and the real `loom` in child processes. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { main } from "./main";

export interface CliRun {
  code: number;
  out: string;
  err: string;
  /** stdout lines, without the trailing empty one. */
  lines: string[];
}

/** `main(argv)` in this process; `stdin` is what the command reads (as from a pipe). */
export async function runCli(argv: readonly string[], cwd: string, stdin?: string): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t), cwd, ...(stdin === undefined ? {} : { stdin: Readable.from([stdin]) }) });
  const text = out.join("\n");
  return { code, out: text, err: err.join("\n"), lines: text === "" ? [] : text.split("\n") };
}

/** A fresh directory under the OS temp dir holding `files` (relative path → content). */
export function tempTree(files: Readonly<Record<string, string>> = {}): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "loom-cli-test-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An action running `script` with /bin/sh, its `args:` line indented `indent` spaces (under `command:`). */
export function sh(script: string, indent = 8): string {
  return `command: /bin/sh\n${" ".repeat(indent)}args: ["-c", ${JSON.stringify(script)}]`;
}

/** A small valid job template: two steps (Encode depends on Render), a chunked frame range. */
export const RENDER_JOB = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_CHUNKING]
name: "Render {{Param.Shot}}"
parameterDefinitions:
- name: Shot
  type: STRING
  default: sh010
- name: Frames
  type: STRING
  default: "1-12"
- name: Size
  type: INT
  default: 5
steps:
- name: Encode
  dependencies:
  - dependsOn: Render
  script:
    actions:
      onRun:
        command: echo
- name: Render
  hostRequirements:
    amounts:
    - name: amount.worker.vcpu
      min: 4
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: CHUNK[INT]
      range: "{{Param.Frames}}"
      chunks:
        defaultTaskCount: "{{Param.Size}}"
        rangeConstraint: CONTIGUOUS
    - name: Eye
      type: STRING
      range: [left, right]
  script:
    actions:
      onRun:
        command: echo
`;

/** An invalid job template with two errors on known lines. */
export const BROKEN_JOB = `specificationVersion: jobtemplate-2023-09
name: J
steps:
- name: S
  bogus: 1
  script:
    actions:
      onRun:
        command: "{{Param.Nope}}"
`;

export const ENVIRONMENT = `specificationVersion: environment-2023-09
environment:
  name: E
  variables:
    A: "1"
`;

/** The real `loom` executable, for tests that run it as a child process. */
export const LOOM_BIN = fileURLToPath(new URL("../../bin/loom.mjs", import.meta.url));

/**
 * The environment for a `loom` child: this process's, less every Loom setting and the user's
 * config folder (a developer's LOOM_TOKEN or `loom login` must not leak into a test), plus `env`.
 */
export function loomEnv(env: Readonly<Record<string, string>> = {}): Record<string, string | undefined> {
  const clean: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("LOOM_") && key !== "XDG_CONFIG_HOME") clean[key] = value;
  return { ...clean, NEXT_TELEMETRY_DISABLED: "1", ...env };
}

export interface LoomChild {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** `node bin/loom.mjs ARGS…` in its own process group (so a test can end all of it). */
export function spawnLoom(args: readonly string[], options: { cwd: string; env?: Readonly<Record<string, string>>; stdin?: string; wrap?: readonly string[] }): LoomChild {
  const command = [...(options.wrap ?? []), process.execPath, LOOM_BIN, ...args];
  const child = spawn(command[0] as string, command.slice(1), { cwd: options.cwd, env: loomEnv(options.env) as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  child.stdin?.end(options.stdin ?? "");
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Runs `loom ARGS…` to its end (killed after `timeoutMs`): exit code and output. */
export async function runLoom(
  args: readonly string[],
  options: { cwd: string; env?: Readonly<Record<string, string>>; stdin?: string; wrap?: readonly string[]; timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnLoom(args, options);
  const timer = setTimeout(() => killTree(run.child), options.timeoutMs ?? 60_000);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

export function killTree(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

export interface ServingLoom extends LoomChild {
  url: string;
  /** SIGTERM, as Ctrl-C would: resolves with serve's exit code. */
  stop(): Promise<number | null>;
}

/**
 * `loom serve --headless --workers 0 --port 0 --data DIR` (plus `args`), resolved once it prints
 * the address it serves at; rejects with its output if it exits first. What it prints after that
 * line may still be on its way: read its whole output after stop().
 */
export async function startServe(dataDir: string, options: { cwd: string; env?: Readonly<Record<string, string>>; args?: readonly string[] }): Promise<ServingLoom> {
  const run = spawnLoom(["serve", "--headless", "--workers", "0", "--port", "0", "--data", dataDir, ...(options.args ?? [])], options);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => (killTree(run.child), reject(new Error(`loom serve did not start within 90 s:\n${run.stdout()}${run.stderr()}`))), 90_000);
    const look = () => {
      const found = /Loom is serving at (http:\/\/\S+) /.exec(run.stdout());
      if (found) {
        clearTimeout(timer);
        resolve(found[1] as string);
      }
    };
    run.child.stdout?.on("data", look);
    void run.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`loom serve exited before serving:\n${run.stdout()}${run.stderr()}`));
    });
  });
  return {
    ...run,
    url,
    stop: async () => {
      killTree(run.child, "SIGTERM");
      const timer = setTimeout(() => killTree(run.child), 30_000);
      const code = await run.exited;
      clearTimeout(timer);
      return code;
    },
  };
}
