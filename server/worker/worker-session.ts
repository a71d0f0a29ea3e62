/**
 * One Session the worker holds: its queue of assigned actions, run strictly one at a time in
 * order (spec digest §12). After a failed, canceled or timed-out enter or task the Session is
 * ending: queued enters and tasks are NEVER_ATTEMPTED, exits still run. Every event of the
 * Session becomes an action update or a numbered log line, attributed to the assigned action.
 */
import type { ActionUpdate, AssignedAction } from "../../lib/farm/protocol";
import type { Job } from "../../lib/openjd";
import type { ActionEndStatus, SessionEvent } from "../session/events";
import { Session } from "../session/session";
import { environmentEntry, findStep, taskParameters } from "./action-targets";
import type { RecreatedJob } from "./recreate-job";
import type { SessionHost } from "./session-host";

type Outcome = Pick<ActionUpdate, "status" | "exitCode" | "failMessage">;
type QueueItem = { kind: "action"; action: AssignedAction } | { kind: "end" };

interface Current {
  action: AssignedAction;
  cancelRequested: boolean;
  exitCode: number | null;
  failMessage: string | null;
}

export class WorkerSession {
  private readonly queue: QueueItem[] = [];
  private session: Session | null = null;
  private current: Current | null = null;
  /** An enter or task failed, or could not be started: only exits run from now on. */
  private failed = false;
  private interrupted = false;
  private ended = false;
  private startFailed = false;
  private seq = 0;
  private pumping: Promise<void> | null = null;

  constructor(
    readonly id: string,
    private readonly job: RecreatedJob,
    private readonly host: SessionHost,
  ) {}

  enqueue(actions: readonly AssignedAction[], end: boolean): void {
    if (this.interrupted) return;
    for (const action of actions) this.queue.push({ kind: "action", action });
    if (end) this.queue.push({ kind: "end" });
    this.pumping ??= this.pump();
  }

  holds(actionId: string): boolean {
    return this.current?.action.actionId === actionId || this.queue.some((i) => i.kind === "action" && i.action.actionId === actionId);
  }

  /** The actions queued or running, in order. */
  heldActionIds(): string[] {
    const queued = this.queue.flatMap((i) => (i.kind === "action" ? [i.action.actionId] : []));
    return this.current ? [this.current.action.actionId, ...queued] : queued;
  }

  /** The running action: its cancelation method. A queued one: removed and reported CANCELED. */
  cancel(actionId: string): void {
    if (this.current?.action.actionId === actionId) {
      this.current.cancelRequested = true;
      this.session?.cancel();
      return;
    }
    const index = this.queue.findIndex((i) => i.kind === "action" && i.action.actionId === actionId);
    const item = this.queue[index];
    if (item?.kind !== "action") return;
    this.queue.splice(index, 1);
    this.report(item.action, this.canceledBeforeStart(item.action));
  }

  /** Kills what runs, reports nothing more and removes the working directory. */
  interrupt(): Promise<void> {
    this.interrupted = true;
    this.queue.length = 0;
    this.session?.cancel({ graceSeconds: 0 });
    return this.pumping ?? this.discard();
  }

  private async pump(): Promise<void> {
    try {
      for (let item = this.queue.shift(); item && !this.interrupted; item = this.queue.shift()) {
        if (item.kind === "end") await this.end();
        else await this.run(item.action);
      }
      if (this.interrupted) await this.discard();
    } finally {
      // Set in the same turn as the last check of the queue, so enqueue never finds a pump that is leaving.
      this.pumping = null;
    }
  }

  private async run(action: AssignedAction): Promise<void> {
    const current: Current = { action, cancelRequested: false, exitCode: null, failMessage: null };
    this.current = current;
    let outcome: Outcome;
    try {
      outcome = await this.perform(action, current);
    } catch (error) {
      outcome = this.fail(action, error instanceof Error ? error.message : String(error));
    }
    this.current = null;
    this.report(action, outcome);
  }

  private async perform(action: AssignedAction, current: Current): Promise<Outcome> {
    const exiting = action.kind === "ENV_EXIT";
    const job = this.job;
    if (this.ended) return never("the Session has ended");
    if (!job.ok) return this.failFirst(action, job.message);
    if (!exiting && this.host.draining()) return never("the worker is shutting down");
    if (!exiting && this.failed) return never(null);
    const session = await this.start();
    if (this.interrupted) return never(null);
    if (!session) return this.failFirst(action, "the Session could not be started");
    // Canceled while the Session was starting: like a queued action, it never ran.
    if (current.cancelRequested) return this.canceledBeforeStart(action);
    // The Session itself turns "ending" after a failed, canceled or timed-out action.
    if (!exiting && session.state !== "ready") return never(null);
    const result = await this.dispatch(session, job.job, action);
    return typeof result === "string" ? { status: result, exitCode: current.exitCode, failMessage: current.failMessage } : result;
  }

  private async dispatch(session: Session, job: Job, action: AssignedAction): Promise<ActionEndStatus | Outcome> {
    switch (action.kind) {
      case "ENV_ENTER": {
        const entry = environmentEntry(job, action);
        return entry.ok ? session.enter(entry.value) : this.fail(action, entry.message);
      }
      case "ENV_EXIT": {
        const id = action.environmentId ?? "";
        if (!session.entered.some((e) => e.id === id)) return never(`environment '${id}' is not entered`);
        return session.exit(id);
      }
      case "TASK_RUN": {
        const step = findStep(job, action.stepName);
        if (!step.ok) return this.fail(action, step.message);
        const parameters = taskParameters(step.value, action);
        return parameters.ok ? session.runTask(step.value, parameters.value) : this.fail(action, parameters.message);
      }
    }
  }

  private canceledBeforeStart(action: AssignedAction): Outcome {
    // Tasks behind a canceled enter would run without its environment.
    if (action.kind === "ENV_ENTER") this.failed = true;
    return { status: "CANCELED", exitCode: null, failMessage: null };
  }

  private async start(): Promise<Session | null> {
    if (this.session || this.startFailed || !this.job.ok) return this.session;
    try {
      this.session = await Session.start({ ...this.host.sessionOptions, job: this.job.job, sessionId: this.id, onEvent: this.onEvent });
    } catch (error) {
      this.startFailed = true;
      this.note(null, `the Session could not be started: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
    this.host.notice({ type: "session_started", sessionId: this.id, jobName: this.job.job.name, workingDirectory: this.session.directory.path });
    return this.session;
  }

  private async end(): Promise<void> {
    this.ended = true;
    const status = this.session ? await this.session.end().catch(() => "FAILED" as const) : "FAILED";
    this.host.sessionEnded(this.id, status);
  }

  private async discard(): Promise<void> {
    await this.session?.end().catch(() => undefined);
  }

  /** An action the worker could not run: FAILED with the reason, in the log too; only exits run after it. */
  private fail(action: AssignedAction, message: string): Outcome {
    if (action.kind !== "ENV_EXIT") this.failed = true;
    return { status: "FAILED", exitCode: null, failMessage: this.note(action, message) };
  }

  /** Without a job or a Session nothing runs: the first action says why, the others were not attempted. */
  private failFirst(action: AssignedAction, message: string): Outcome {
    if (this.failed) return never(null);
    const outcome = this.fail(action, message);
    this.failed = true;
    return outcome;
  }

  /** A line in the Session log from the worker itself. */
  private note(action: AssignedAction | null, message: string): string {
    this.log(action?.actionId ?? null, `ERROR: ${message}`, this.host.now());
    return message;
  }

  private log(actionId: string | null, line: string, time: number): void {
    this.host.logs.add(this.id, { seq: this.seq++, actionId, time, line });
  }

  /** The final update (startedAt is filled in when the Session started the action at all). */
  private report(action: AssignedAction, outcome: Outcome): void {
    if (this.interrupted) return;
    this.host.updates.ended({ actionId: action.actionId, ...outcome, endedAt: this.host.now() });
    this.host.notice({ type: "action_ended", sessionId: this.id, action, status: outcome.status, failMessage: outcome.failMessage ?? null });
    this.host.urgent();
  }

  private readonly onEvent = (event: SessionEvent): void => {
    const current = this.current;
    if (this.interrupted) return;
    switch (event.type) {
      case "log":
        return this.log(current?.action.actionId ?? null, event.line, event.time);
      case "action_started":
        if (!current) return;
        this.host.updates.started(current.action.actionId, event.time);
        this.host.soon();
        return;
      case "progress":
        if (current) this.host.updates.progress(current.action.actionId, { progress: event.value });
        return;
      case "status":
        if (current) this.host.updates.progress(current.action.actionId, { statusMessage: event.message });
        return;
      case "fail_message":
        if (current) current.failMessage = event.message;
        return;
      case "action_ended":
        if (current) Object.assign(current, { exitCode: event.exitCode, failMessage: event.failMessage ?? current.failMessage });
        return;
      case "env_change":
      case "session_started":
      case "session_ended":
        return;
    }
  };
}

function never(reason: string | null): Outcome {
  return { status: "NEVER_ATTEMPTED", exitCode: null, failMessage: reason };
}
