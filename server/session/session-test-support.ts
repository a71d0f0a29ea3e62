/**
 * Helpers for the Session integration tests: a Job built from YAML text the way `loom run` builds
 * one (parse + validate + createJob), run through runJob with real subprocesses under a private
 * temporary root that is removed after the test, and views of the SessionEvent stream.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { checkTemplateText, createJob, type EnvironmentTemplate, type Job, type JobTemplate, type ParameterInput, type Template } from "../../lib/openjd";
import type { ActionEndStatus, ActionKind, SessionEvent } from "./events";
import { runJob, type RunJobOptions, type RunJobResult } from "./run-job";

/** The only variable actions inherit unless a test says otherwise: nothing leaks from the test runner. */
export const TEST_PATH = "/usr/local/bin:/usr/bin:/bin";

/** A Python helper that writes a line with one system call (print() is not reentrant: a handler that prints while the main code flushes stdout dies). */
export const SAY = "def say(text): os.write(1, (text + '\\n').encode())";

/** NOTIFY_THEN_TERMINATE with a 1 s grace period, as a template's `cancelation`. */
export const NOTIFY_1S = { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 1 };

/** Removes the common indentation so templates can be written indented inside the tests. */
export function dedent(text: string): string {
  const lines = text.replace(/^\n/, "").split("\n");
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const cut = Math.min(...indents);
  return lines.map((l) => l.slice(cut)).join("\n");
}

/**
 * An action as a YAML flow mapping (JSON is valid YAML). Scripts go through JSON quoting, so they
 * may hold quotes, newlines and `{{ }}` format strings without YAML escaping in the tests.
 */
export function action(command: string, args: readonly string[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ command, args, ...extra });
}

export function py(code: string, extra: Record<string, unknown> = {}, ...args: string[]): string {
  return action("python3", ["-c", code, ...args], extra);
}

export function sh(script: string, extra: Record<string, unknown> = {}): string {
  return action("/bin/sh", ["-c", script], extra);
}

/** Prints `NAME=value` (or `NAME=<unset>`) for each name, one line each. */
export function showEnv(...names: string[]): string {
  return py("import os, sys\nfor n in sys.argv[1:]: print(n + '=' + os.environ.get(n, '<unset>'))", {}, ...names);
}

export const UNSET = "<unset>";

function decode(text: string, kind: "job"): JobTemplate;
function decode(text: string, kind: "environment"): EnvironmentTemplate;
function decode(text: string, kind: Template["kind"]): JobTemplate | EnvironmentTemplate {
  const checked = checkTemplateText(dedent(text), "yaml", kind);
  if (!checked.template || checked.template.kind !== kind) {
    throw new Error(`invalid ${kind} template: ${checked.errors.map((e) => `${e.path} ${e.message}`).join("; ")}`);
  }
  return checked.template.template;
}

export function buildJob(jobYaml: string, options: { environments?: readonly string[]; parameters?: Record<string, ParameterInput> } = {}): Job {
  const created = createJob({
    template: decode(jobYaml, "job"),
    environmentTemplates: (options.environments ?? []).map((e) => decode(e, "environment")),
    parameterValues: options.parameters ?? {},
    pathFlavor: "posix",
  });
  if (!created.ok) throw new Error(`job creation failed: ${created.errors.map((e) => `${e.segments.join(".")} ${e.message}`).join("; ")}`);
  return created.job;
}

/** A job J with one step S running `onRun`, after the (column-0 YAML) `jobEnvironments:` block given. */
export function taskJob(onRun: string, jobEnvironments = ""): Job {
  return buildJob(["specificationVersion: jobtemplate-2023-09", "name: J", jobEnvironments, "steps:", "- name: S", "  script:", "    actions:", `      onRun: ${onRun}`].join("\n"));
}

/** Whether a process has ended; a zombie not yet reaped has ended too (Linux /proc). */
export function processGone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (command) state …": the command may itself contain ") ".
    return stat.slice(stat.lastIndexOf(") ") + 2).startsWith("Z");
  } catch {
    return true;
  }
}

/** Polls `check` every 20 ms until it holds (true) or `timeoutMs` has passed (false). */
export async function eventually(check: () => boolean, timeoutMs = 2_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

/** A fresh session root under the OS temp dir, removed when the current test finishes. */
export function tempRoot(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "loom-session-test-")));
  onTestFinished(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

export interface ActionView {
  id: string;
  kind: ActionKind;
  name: string;
  status: ActionEndStatus | null;
  exitCode: number | null;
  durationMs: number | null;
  failMessage: string | null;
  /** Every log line of the action, runtime notes included, in order. */
  logs: string[];
  parameters: Record<string, string>;
}

export class SessionRun {
  constructor(
    readonly result: RunJobResult,
    readonly events: readonly SessionEvent[],
    readonly root: string,
  ) {}

  get workingDirectory(): string {
    const started = this.events.find((e) => e.type === "session_started");
    if (!started) throw new Error("no session_started event");
    return started.workingDirectory;
  }

  get actions(): ActionView[] {
    const views = new Map<string, ActionView>();
    for (const event of this.events) {
      if (event.type === "action_started") {
        const parameters = Object.fromEntries(Object.entries(event.parameters ?? {}).map(([k, v]) => [k, v.value]));
        views.set(event.actionId, { id: event.actionId, kind: event.kind, name: event.name, status: null, exitCode: null, durationMs: null, failMessage: null, logs: [], parameters });
      } else if (event.type === "action_ended") {
        const view = views.get(event.actionId);
        if (view) Object.assign(view, { status: event.status, exitCode: event.exitCode, durationMs: event.durationMs, failMessage: event.failMessage ?? null });
      } else if (event.type === "log" && event.actionId !== null) {
        views.get(event.actionId)?.logs.push(event.line);
      }
    }
    return [...views.values()];
  }

  /** `"<kind> <name> <status>"` per action, in start order. */
  get summary(): string[] {
    return this.actions.map((a) => `${a.kind} ${a.name} ${a.status}`);
  }

  tasks(): ActionView[] {
    return this.actions.filter((a) => a.kind === "TASK_RUN");
  }

  /** The single action of this kind and name. */
  action(kind: ActionKind, name: string): ActionView {
    const found = this.actions.filter((a) => a.kind === kind && a.name === name);
    if (found.length !== 1) throw new Error(`expected one ${kind} ${name}, found ${found.length}`);
    return found[0] as ActionView;
  }

  /** The `NAME=value` lines an action printed, as a record (last one wins). */
  printed(view: ActionView): Record<string, string> {
    const out: Record<string, string> = {};
    for (const line of view.logs) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
      if (match) out[match[1] as string] = match[2] as string;
    }
    return out;
  }

  ofType<T extends SessionEvent["type"]>(type: T): Array<Extract<SessionEvent, { type: T }>> {
    return this.events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);
  }
}

export type RunOptions = Partial<Omit<RunJobOptions, "job" | "onEvent">> & {
  /** Sees every event as it happens (after it was recorded). */
  onEvent?: (event: SessionEvent) => void;
};

/** Runs the job in one Session under a fresh temp root, with PATH as the only inherited variable. */
export async function runSession(job: Job, options: RunOptions = {}): Promise<SessionRun> {
  const events: SessionEvent[] = [];
  const { onEvent, ...rest } = options;
  const root = rest.rootDirectory ?? tempRoot();
  const result = await runJob({
    baseEnvironment: { PATH: TEST_PATH },
    ...rest,
    rootDirectory: root,
    job,
    onEvent: (event) => {
      events.push(event);
      onEvent?.(event);
    },
  });
  return new SessionRun(result, events, root);
}
