/**
 * An OpenJD Session (spec digest §12): a working directory, a stack of entered environments and
 * one action at a time. Any failure, cancelation or timeout makes the Session "ending": no more
 * tasks or environments, only exits. WRAP_ACTIONS hooks of an entered environment run in place
 * of inner environments' onEnter/onExit and of tasks' onRun.
 */
import { randomUUID } from "node:crypto";
import { applyPathMapping, isWrappingEnvironment, type Job, type JobStep, type PathMappingRule, type StackEntry, type TaskParameterSet } from "../../lib/openjd";
import { processEnvironment } from "../env";
import { prepareEnvironmentAction, prepareTaskAction, resolveEnvironment, type PreparedAction } from "./action-preparation";
import { EnvironmentStack, type VariableChange } from "./environment-variables";
import type { ActionEndStatus, ActionKind, EventSink, SessionEndStatus } from "./events";
import { handleLine, type LineState } from "./output-handler";
import { Redactor } from "./redaction";
import { startProcess, type ProcessLauncher, type ProcessOutcome, type RunningProcess } from "./subprocess";
import { createWorkingDirectory, removeWorkingDirectory, type WorkingDirectory } from "./working-directory";

export type { StackEntry };

export interface SessionOptions {
  job: Job;
  sessionId?: string;
  pathMappingRules?: readonly PathMappingRule[];
  /** Keep the working directory after the Session ends. */
  preserve?: boolean;
  rootDirectory?: string;
  /** The process environment actions start from (default: this process's). */
  baseEnvironment?: Readonly<Record<string, string>>;
  /** What every action process runs inside (the worker's task shield); default: nothing. */
  launcher?: ProcessLauncher;
  onEvent: EventSink;
}

export type SessionState = "ready" | "running" | "ending" | "ended";

const ACTION_STATUS: Record<ProcessOutcome, ActionEndStatus> = { succeeded: "SUCCEEDED", failed: "FAILED", canceled: "CANCELED", timeout: "TIMEOUT" };

export class Session {
  private stateValue: SessionState = "ready";
  private readonly stack: EnvironmentStack;
  private readonly entries: StackEntry[] = [];
  private readonly redactor = new Redactor();
  private running: RunningProcess | null = null;
  private cancelRequested = false;
  private actionCounter = 0;
  private worstOutcome: SessionEndStatus = "SUCCEEDED";

  private constructor(
    readonly id: string,
    readonly job: Job,
    readonly directory: WorkingDirectory,
    private readonly options: SessionOptions,
  ) {
    this.stack = new EnvironmentStack(options.baseEnvironment ?? processEnvironment());
  }

  static async start(options: SessionOptions): Promise<Session> {
    const id = options.sessionId ?? `session-${randomUUID().slice(0, 8)}`;
    const directory = await createWorkingDirectory(id, options.pathMappingRules ?? [], options.rootDirectory);
    const session = new Session(id, options.job, directory, options);
    options.onEvent({ type: "session_started", sessionId: id, workingDirectory: directory.path, time: Date.now() });
    return session;
  }

  get state(): SessionState {
    return this.stateValue;
  }

  get entered(): readonly StackEntry[] {
    return this.entries;
  }

  /** Maps a PATH value with the Session's rules (longest source first), for the worker's POSIX paths. */
  readonly mapPath = (value: string): string => applyPathMapping(value, this.options.pathMappingRules ?? [], "POSIX");

  /** Enters an environment: its variables, then its onEnter (or the wrapper's onWrapEnvEnter). */
  async enter(entry: StackEntry): Promise<ActionEndStatus> {
    this.require(["ready"], "enter an environment");
    const wrapper = this.wrapper();
    // Entered from now on, even if entering fails: its onExit must still run (spec digest §12.2).
    this.entries.push(entry);
    const resolved = await resolveEnvironment(this, entry);
    this.stack.enter(entry.id, resolved.ok ? resolved.variables : []);
    // After stack.enter: a wrap hook's WrappedAction.Environment includes the new variables.
    const prepared: PreparedAction = resolved.ok ? await prepareEnvironmentAction(this, entry, "onEnter", wrapper, resolved.context) : { kind: "failed", message: resolved.message };
    return this.perform("ENV_ENTER", entry.environment.name, prepared, entry);
  }

  /** Exits the innermost environment: its onExit (or the wrapper's onWrapEnvExit), then drops its variables. */
  async exit(id: string): Promise<ActionEndStatus> {
    this.require(["ready", "ending"], "exit an environment");
    const entry = this.entries.at(-1);
    if (!entry || entry.id !== id) throw new Error(`cannot exit environment ${id}: ${entry ? `exit ${entry.id} first` : "nothing is entered"}`);
    const wrapper = this.wrapper(entry);
    const prepared = await prepareEnvironmentAction(this, entry, "onExit", wrapper);
    const status = await this.perform("ENV_EXIT", entry.environment.name, prepared, entry);
    this.stack.exit(entry.id);
    this.entries.pop();
    // Unlike the reference runtime, a successful exit keeps the Session usable: the next step may
    // need other step environments (exit and enter only what differs).
    return status;
  }

  async runTask(step: JobStep, task: TaskParameterSet): Promise<ActionEndStatus> {
    this.require(["ready"], "run a task");
    const prepared = await prepareTaskAction(this, step, task, this.wrapper());
    return this.perform("TASK_RUN", step.name, prepared, null, step, task);
  }

  /** Cancels the running action (its cancelation method); the Session then only exits environments. */
  cancel(options: { graceSeconds?: number } = {}): void {
    this.cancelRequested = true;
    // Canceled even when nothing was running at that moment (between two tasks, before the first).
    if (this.worstOutcome === "SUCCEEDED") this.worstOutcome = "CANCELED";
    if (this.stateValue === "ready") this.stateValue = "ending";
    this.running?.cancel(options);
  }

  /** Ends the Session: removes the working directory unless preserved. Environments must be exited first. */
  async end(): Promise<SessionEndStatus> {
    if (this.stateValue === "ended") return this.worstOutcome;
    this.stateValue = "ended";
    const preserved = this.options.preserve ?? false;
    if (!preserved) await removeWorkingDirectory(this.directory);
    this.options.onEvent({ type: "session_ended", status: this.worstOutcome, workingDirectory: this.directory.path, preserved, time: Date.now() });
    return this.worstOutcome;
  }

  /** Session-defined variables ("KEY=value"): WrappedAction.Environment. */
  sessionDefinedVariables(): string[] {
    return this.stack.sessionDefined();
  }

  /** The entered environment that defines wrap hooks, if it is outside `inner` (never wraps itself). */
  private wrapper(inner?: StackEntry): StackEntry | null {
    const index = this.entries.findIndex((e) => isWrappingEnvironment(e.environment));
    if (index < 0) return null;
    const wrapping = this.entries[index] as StackEntry;
    if (inner && this.entries.indexOf(inner) <= index) return null;
    return wrapping;
  }

  private require(states: SessionState[], what: string): void {
    if (!states.includes(this.stateValue)) throw new Error(`cannot ${what}: the Session is ${this.stateValue}`);
  }

  private async perform(
    kind: ActionKind,
    name: string,
    prepared: PreparedAction,
    /** The environment an ENV_ENTER / ENV_EXIT belongs to; null for a task. */
    entry: StackEntry | null,
    step?: JobStep,
    task?: TaskParameterSet,
  ): Promise<ActionEndStatus> {
    const emit = this.options.onEvent;
    const actionId = `a${++this.actionCounter}`;
    const started = Date.now();
    emit({
      type: "action_started",
      actionId,
      kind,
      name,
      time: started,
      ...(step ? { step: step.name } : {}),
      ...(task ? { parameters: task } : {}),
      ...(prepared.kind === "run" && prepared.wrappedBy ? { wrappedBy: prepared.wrappedBy } : {}),
    });
    const ended = (status: ActionEndStatus, exitCode: number | null, failMessage?: string | null) => {
      emit({ type: "action_ended", actionId, status, exitCode, durationMs: Date.now() - started, time: Date.now(), ...(failMessage ? { failMessage } : {}) });
      this.record(status);
      return status;
    };
    if (prepared.kind === "nothing") return ended("SUCCEEDED", null);
    if (prepared.kind === "failed") {
      emit({ type: "log", actionId, line: this.redactor.redact(`openjd_fail: ${prepared.message}`), time: Date.now() });
      return ended("FAILED", null, this.redactor.redact(prepared.message));
    }
    // After a cancel nothing new starts, except environment exits: cleanup still runs (spec digest §12.2).
    const exiting = kind === "ENV_EXIT";
    if (this.cancelRequested && !exiting) return ended("CANCELED", null);
    const state: LineState = { failMessage: null };
    // An environment's changes (onEnter, and onExit for later wrap hooks) belong to its layer; a
    // task's never reach a process environment, only WrappedAction.Environment.
    const applyChange = (change: VariableChange) => (entry ? this.stack.change(entry.id, change) : this.stack.taskChange(change));
    const redactedSetsVariable = entry ? entry.redactedEnvVars : this.job.template.extensions.includes("REDACTED_ENV_VARS");
    const target = { actionId, inEnvironmentAction: entry !== null, applyChange, redactedSetsVariable };
    const { action } = prepared;
    for (const line of prepared.notes) emit({ type: "log", actionId, line: this.redactor.redact(line), time: Date.now() });
    this.stateValue = this.stateValue === "ready" ? "running" : this.stateValue;
    const process = startProcess({
      command: action.command,
      args: action.args,
      cwd: this.directory.path,
      env: this.stack.processEnv({ OPENJD_SESSION_WORKING_DIR: this.directory.path }),
      timeoutSeconds: action.timeout,
      cancelation: { mode: action.cancelation.mode, notifyPeriodSeconds: action.cancelation.notifyPeriodInSeconds ?? 0 },
      workingDirectory: this.directory.path,
      onLine: (line) => handleLine(line, target, state, this.redactor, emit),
      onNote: (note) => emit({ type: "log", actionId, line: this.redactor.redact(note), time: Date.now() }),
      ...(this.options.launcher ? { launcher: this.options.launcher } : {}),
    });
    this.running = process;
    if (this.cancelRequested && !exiting) process.cancel();
    const result = await process.result;
    this.running = null;
    if (this.stateValue === "running") this.stateValue = this.cancelRequested ? "ending" : "ready";
    if (result.startError) emit({ type: "log", actionId, line: this.redactor.redact(result.startError), time: Date.now() });
    return ended(ACTION_STATUS[result.outcome], result.exitCode, state.failMessage ?? result.startError);
  }

  /** Any failure, cancelation or timeout is terminal for the Session (spec digest §12.2). */
  private record(status: ActionEndStatus): void {
    if (status === "SUCCEEDED" || status === "NEVER_ATTEMPTED") return;
    if (this.stateValue !== "ended") this.stateValue = "ending";
    if (status === "CANCELED") {
      if (this.worstOutcome === "SUCCEEDED") this.worstOutcome = "CANCELED";
    } else this.worstOutcome = "FAILED";
  }
}
