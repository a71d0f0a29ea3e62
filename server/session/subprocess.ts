/**
 * The one way Loom runs an action's process (CONVENTIONS rule 8; spec digest §7.1, §12.2–§12.7;
 * reference behaviour §3.3, §3.6). No shell; its own session and process group; stdin from
 * /dev/null; stdout and stderr merged into lines; timeout and cancel through the action's
 * cancelation method, signalling the whole group (unlike the reference runtime, which sends
 * SIGTERM to one pid). The action is over when its main process exits: output still held open by
 * a process it left behind is drained briefly, then abandoned. A launcher may run the program
 * inside something else (the worker's task shield, server/worker/task-shield.ts); the process
 * spawned, whose group is signalled, is then the launcher's.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { closeSync } from "node:fs";
import { formatUtcSeconds, writeCancelInfo } from "./cancel-info";
import { openOutputWiring } from "./merged-output";
import { OutputReader } from "./output-reader";
import { signalProcessGroup } from "./process-group";
import { describeSpawnError, resolveCommand } from "./resolve-command";

export type CancelationMode = "TERMINATE" | "NOTIFY_THEN_TERMINATE";

export interface ProcessSpec {
  /** Executed directly, no shell; looked up on `env.PATH` when it has no slash. */
  command: string;
  /** Passed literally: no expansion, quoting or splitting. */
  args: readonly string[];
  /** The Session working directory. */
  cwd: string;
  /** The complete environment of the action; nothing is inherited implicitly. */
  env: Readonly<Record<string, string>>;
  timeoutSeconds: number | null;
  /** Used for timeouts and cancels. */
  cancelation: { mode: CancelationMode; notifyPeriodSeconds: number };
  /** Where cancel_info.json is written before the first SIGTERM (the Session working directory). */
  workingDirectory: string;
  /**
   * Called once per output line (stdout and stderr merged in arrival order, without the trailing
   * `\r\n` / `\n`, UTF-8 with invalid bytes as U+FFFD, lines over 64,000 characters split).
   * Returning "fail" (or throwing) cancels the action with its TERMINATE method and marks it failed.
   */
  onLine: (line: string) => void | "fail";
  /** Informational lines of the runtime itself ("Command started as pid: 123", cancel notices…). */
  onNote?: (note: string) => void;
  /** Aborting it is the same as calling `cancel()` (CONVENTIONS rule 8). */
  abortSignal?: AbortSignal;
  /** Spawns something else that runs the program (the worker's task shield); default: the program itself. */
  launcher?: ProcessLauncher;
}

/** A program to spawn: an absolute path, its arguments, its whole environment. */
export interface Launch {
  path: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  /** Open files the process gets as fd 3, 4, …; closed here once it is spawned (or is not). */
  fds?: readonly number[];
}

/**
 * Wraps the resolved program in another one that runs it (spawned in its place, in the same
 * process group, with the same output channel and working directory). Throwing refuses to start it.
 */
export type ProcessLauncher = (program: Launch, context: { cwd: string }) => Launch | Promise<Launch>;

export type ProcessOutcome = "succeeded" | "failed" | "canceled" | "timeout";

export interface ProcessResult {
  outcome: ProcessOutcome;
  /** null when the process never started or was killed by a signal. */
  exitCode: number | null;
  signal: string | null;
  /** Why the process could not be started ("command not found: nosuch"); outcome is then "failed". */
  startError: string | null;
  /** onLine returned "fail". */
  failedByOutput: boolean;
  durationMs: number;
  pid: number | null;
}

export interface RunningProcess {
  /** null until the process has been spawned (the output channel is set up first). */
  readonly pid: number | null;
  readonly result: Promise<ProcessResult>;
  /**
   * TERMINATE: SIGKILL the process group. NOTIFY_THEN_TERMINATE: write cancel_info.json, SIGTERM
   * the group, SIGKILL it when the grace period (min of the notify period and `graceSeconds`)
   * ends. A later call may shorten the grace period; otherwise idempotent.
   */
  cancel(options?: { graceSeconds?: number }): void;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

type CancelReason = "cancel" | "timeout" | "output";
type TimerName = "timeout" | "kill";

/**
 * "started" and "ended" (the process group id, which is the main process's pid) of every action
 * process of this process: an action's group outlives this process if it dies without cleaning
 * up (SIGKILL), so a worker hands them to a reaper that kills them then (server/worker/reaper.ts).
 */
export const actionProcessGroups = new EventEmitter();

export function startProcess(spec: ProcessSpec): RunningProcess {
  return new ActionProcess(spec);
}

class ActionProcess implements RunningProcess {
  readonly result: Promise<ProcessResult>;
  private resolveResult!: (result: ProcessResult) => void;
  private readonly startedAt = performance.now();
  private child: ChildProcess | null = null;
  private pidValue: number | null = null;
  private output: OutputReader | null = null;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private finished = false;
  private cancelReason: CancelReason | null = null;
  private failedByOutput = false;
  private killed = false;
  private killDeadline: number | null = null;
  private timers: Partial<Record<TimerName, NodeJS.Timeout>> = {};
  private readonly onAbort = () => this.cancel();

  constructor(private readonly spec: ProcessSpec) {
    this.result = new Promise((resolve) => (this.resolveResult = resolve));
    if (spec.abortSignal?.aborted) this.cancel();
    else spec.abortSignal?.addEventListener("abort", this.onAbort, { once: true });
    void this.start().catch((error: Error) => this.finish(`failed to start ${spec.command}: ${error.message}`));
  }

  get pid(): number | null {
    return this.pidValue;
  }

  cancel(options: { graceSeconds?: number } = {}): void {
    this.requestCancel("cancel", options.graceSeconds);
  }

  private async start(): Promise<void> {
    const { spec } = this;
    const resolved = resolveCommand(spec.command, spec.env, spec.cwd);
    if (!resolved.ok) return this.finish(resolved.error);
    const program: Launch = { path: resolved.path, args: spec.args, env: spec.env };
    let launch = program;
    try {
      if (spec.launcher) launch = await spec.launcher(program, { cwd: spec.cwd });
    } catch (error) {
      return this.finish(`cannot start ${spec.command}: ${(error as Error).message}`);
    }
    try {
      await this.spawnLaunch(launch, launch === program ? spec.command : launch.path);
    } finally {
      for (const fd of launch.fds ?? []) closeSync(fd); // the child has its own copies
    }
  }

  private async spawnLaunch(launch: Launch, argv0: string): Promise<void> {
    const { spec } = this;
    const wiring = await openOutputWiring();
    if (this.cancelReason !== null) {
      wiring.dispose();
      return this.finish(null); // canceled before it started
    }
    let child: ChildProcess;
    try {
      child = spawn(launch.path, [...launch.args], {
        argv0,
        cwd: spec.cwd,
        env: { ...launch.env } as NodeJS.ProcessEnv, // exactly what was given; Next.js types demand NODE_ENV
        stdio: Array.isArray(wiring.stdio) ? [...wiring.stdio, ...(launch.fds ?? [])] : wiring.stdio,
        detached: process.platform !== "win32",
        windowsHide: true,
      });
    } catch (error) {
      wiring.dispose();
      return this.finish(`failed to start ${spec.command}: ${(error as Error).message}`);
    }
    this.child = child;
    this.output = new OutputReader(wiring.attach(child), (line) => this.deliver(line));
    if (child.pid === undefined) {
      // exec failed after the lookup (a race, or a format the kernel refuses): 'error' follows.
      child.once("error", (error: NodeJS.ErrnoException) => this.finish(describeSpawnError(spec.command, error)));
      return;
    }
    this.pidValue = child.pid;
    actionProcessGroups.emit("started", child.pid);
    child.on("error", () => undefined); // later errors (signalling an exited child) are not fatal
    child.once("exit", (code, signal) => this.onExit(code, signal));
    this.note(`Command started as pid: ${child.pid}`);
    if (wiring.fallbackReason) this.note(`stdout and stderr are read separately (${wiring.fallbackReason})`);
    if (spec.timeoutSeconds !== null) this.armTimeout(Date.now() + spec.timeoutSeconds * 1000);
  }

  private deliver(line: string): void {
    let verdict: void | "fail";
    try {
      verdict = this.spec.onLine(line);
    } catch (error) {
      this.note(`Output handler failed: ${(error as Error).message}`);
      verdict = "fail";
    }
    if (verdict === "fail" && !this.failedByOutput) {
      this.failedByOutput = true;
      this.requestCancel("output");
    }
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exit = { code, signal };
    this.clearTimer("timeout");
    this.clearTimer("kill");
    // A canceled action's main process is gone: whatever it left in its group goes too.
    if (this.cancelReason !== null && !this.killed && this.pidValue !== null) signalProcessGroup(this.pidValue, "SIGKILL");
    this.note(code !== null ? `Process exited with code ${code}` : `Process was terminated by signal ${signal}`);
    void this.output?.drain().then((how) => {
      if (how === "abandoned") this.note("Stopped reading output: a process started by the command still holds it open.");
      this.finish(null);
    });
  }

  private requestCancel(reason: CancelReason, graceSeconds?: number): void {
    if (this.exit || this.finished) return;
    this.cancelReason ??= reason;
    this.clearTimer("timeout");
    const pid = this.pidValue;
    if (pid === null) return; // not spawned yet: start() sees the request and does not spawn
    const mode = reason === "output" ? "TERMINATE" : this.spec.cancelation.mode;
    if (this.killed) return;
    if (mode === "TERMINATE") {
      this.note(`Canceling subprocess ${pid} via termination method at ${formatUtcSeconds(Date.now())}.`);
      return this.kill();
    }
    const now = Date.now();
    const grace = Math.max(0, Math.min(this.spec.cancelation.notifyPeriodSeconds, graceSeconds ?? Infinity));
    const deadline = now + grace * 1000;
    if (this.killDeadline !== null && deadline >= this.killDeadline) return; // not sooner: nothing to do
    if (this.killDeadline === null) this.note(`Canceling subprocess ${pid} via notify then terminate method at ${formatUtcSeconds(now)}.`);
    this.killDeadline = deadline;
    const writeError = writeCancelInfo(this.spec.workingDirectory, deadline);
    if (writeError) this.note(writeError);
    this.note(`Grace period ends at ${formatUtcSeconds(deadline)}`);
    this.signal("SIGTERM");
    this.clearTimer("kill");
    this.timers.kill = setTimeout(() => {
      this.note(`Notify period ended. Terminate at ${formatUtcSeconds(Date.now())}`);
      this.kill();
    }, deadline - now);
  }

  private kill(): void {
    this.killed = true;
    this.clearTimer("kill");
    this.signal("SIGKILL");
  }

  private signal(signal: NodeJS.Signals): void {
    if (this.pidValue === null) return;
    const sent = signalProcessGroup(this.pidValue, signal);
    // The leader may have moved itself to another group; it must still get the signal.
    if (sent !== "sent" && this.child && !this.exit) this.child.kill(signal);
  }

  private armTimeout(deadline: number): void {
    this.timers.timeout = setTimeout(
      () => {
        if (Date.now() < deadline) return this.armTimeout(deadline); // timers cap at ~24.8 days
        this.note(`TIMEOUT - Runtime limit reached at ${formatUtcSeconds(Date.now())}. Canceling action.`);
        this.requestCancel("timeout");
      },
      Math.min(Math.max(0, deadline - Date.now()), MAX_TIMER_MS),
    );
  }

  private clearTimer(name: TimerName): void {
    clearTimeout(this.timers[name]);
    delete this.timers[name];
  }

  private note(text: string): void {
    this.spec.onNote?.(text);
  }

  private finish(startError: string | null): void {
    if (this.finished) return;
    this.finished = true;
    if (this.pidValue !== null) actionProcessGroups.emit("ended", this.pidValue);
    for (const name of Object.keys(this.timers) as TimerName[]) this.clearTimer(name);
    this.spec.abortSignal?.removeEventListener("abort", this.onAbort);
    this.output?.close(); // delivers the last lines before the result
    const code = this.exit?.code ?? null;
    this.resolveResult({
      outcome: startError !== null ? "failed" : this.outcome(code),
      exitCode: code,
      signal: this.exit?.signal ?? null,
      startError,
      failedByOutput: this.failedByOutput,
      durationMs: Math.round(performance.now() - this.startedAt),
      pid: this.pidValue,
    });
  }

  private outcome(exitCode: number | null): ProcessOutcome {
    if (this.failedByOutput) return "failed";
    switch (this.cancelReason) {
      case "timeout":
        return "timeout";
      case "cancel":
        return "canceled";
      case "output":
      case null:
        return exitCode === 0 ? "succeeded" : "failed";
    }
  }
}
