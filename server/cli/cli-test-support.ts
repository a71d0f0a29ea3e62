/** Helpers for the CLI tests: real temp directories and `main()` with collected output. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { main } from "./main";

export interface CliRun {
  code: number;
  out: string;
  err: string;
  /** stdout lines, without the trailing empty one. */
  lines: string[];
}

export async function runCli(argv: readonly string[], cwd: string): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(t), err: (t) => err.push(t), cwd });
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
