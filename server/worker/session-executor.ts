/**
 * The worker's Sessions (DESIGN "Processes": the server decides, the worker executes). Each
 * assignment recreates its job (cached per job id), starts the Session on first sight and queues
 * the actions; action updates wait in a queue for the next sync and log lines in the LogShipper.
 */
import type { ActionUpdate, AssignedAction, SessionAssignment } from "../../lib/farm/protocol";
import { processEnvironment } from "../env";
import type { SessionEndStatus } from "../session/events";
import type { LogShipper } from "./log-shipper";
import { RecentIds } from "./recent-ids";
import { JobCache } from "./recreate-job";
import type { ExecutorNotice, SessionHost, SessionRuntimeOptions } from "./session-host";
import { taskEnvironment } from "./task-environment";
import { UpdateQueue } from "./update-queue";
import { WorkerSession } from "./worker-session";

export interface SessionExecutorOptions extends SessionRuntimeOptions {
  logs: LogShipper;
  /** An action or Session ended: the agent syncs at once. */
  onUrgent?: () => void;
  /** An action started: the next sync should go within a moment (its RUNNING is news). */
  onSoon?: () => void;
  onNotice?: (notice: ExecutorNotice) => void;
  now?: () => number;
}

export class SessionExecutor {
  private readonly sessions = new Map<string, WorkerSession>();
  /** Ended Sessions, so a late assignment cannot restart one (its log seqs would repeat). */
  private readonly endedIds = new RecentIds(1000);
  private readonly jobs = new JobCache();
  private readonly updates = new UpdateQueue();
  private readonly host: SessionHost;
  private drainingValue = false;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: SessionExecutorOptions) {
    const now = options.now ?? Date.now;
    this.host = {
      updates: this.updates,
      logs: options.logs,
      sessionOptions: {
        rootDirectory: options.rootDirectory,
        // Tasks never see a credential of the worker (issue 10): whatever base they get, scrubbed.
        baseEnvironment: taskEnvironment(options.baseEnvironment ?? processEnvironment()),
        ...(options.launcher ? { launcher: options.launcher } : {}),
      },
      now,
      draining: () => this.drainingValue,
      urgent: () => options.onUrgent?.(),
      soon: () => options.onSoon?.(),
      notice: (notice) => options.onNotice?.(notice),
      sessionEnded: (sessionId, status) => this.sessionEnded(sessionId, status),
    };
  }

  /**
   * Queues the assignment's actions behind anything already queued for its Session. An action
   * held or ended already (an assignment the server sent again after a lost answer) is skipped.
   */
  assign(assignment: SessionAssignment): void {
    const held = new Set(this.actionIds);
    const actions = assignment.actions.filter((a) => !held.has(a.actionId) && !this.updates.hasEnded(a.actionId));
    let session = this.sessions.get(assignment.sessionId);
    if (!session) {
      if (this.endedIds.has(assignment.sessionId)) return this.refuse(assignment.sessionId, actions);
      session = new WorkerSession(assignment.sessionId, this.jobs.get(assignment.job), this.host);
      this.sessions.set(assignment.sessionId, session);
    }
    session.enqueue(actions, assignment.end);
  }

  /** Running actions get their cancelation method; queued ones are reported CANCELED; unknown ids are ignored. */
  cancel(actionIds: readonly string[]): void {
    for (const actionId of actionIds) {
      for (const session of this.sessions.values()) {
        if (session.holds(actionId)) {
          session.cancel(actionId);
          break;
        }
      }
    }
  }

  /** From now on enters and tasks not yet started are NEVER_ATTEMPTED; exits and Session ends still run. */
  drain(): void {
    this.drainingValue = true;
  }

  get draining(): boolean {
    return this.drainingValue;
  }

  /**
   * Kills everything running and forgets every Session without reporting anything more (the
   * server fenced this worker off). Resolves when the processes are gone and the working
   * directories removed.
   */
  async interruptAll(): Promise<void> {
    const stopping = [...this.sessions.values()].map((s) => s.interrupt());
    this.sessions.clear();
    this.updates.clear();
    this.notifyIdle();
    await Promise.all(stopping);
  }

  /** Action updates since the last call, oldest first. */
  takeUpdates(): ActionUpdate[] {
    return this.updates.take();
  }

  get pendingUpdates(): number {
    return this.updates.size;
  }

  /** Actions queued or running (their final update not yet made). */
  get actionIds(): string[] {
    return [...this.sessions.values()].flatMap((s) => s.heldActionIds());
  }

  /** The Sessions the worker holds (not yet ended). */
  get sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** Resolves when no Session is held. */
  whenIdle(): Promise<void> {
    if (this.sessions.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private sessionEnded(sessionId: string, status: SessionEndStatus): void {
    this.sessions.delete(sessionId);
    this.endedIds.add(sessionId);
    this.host.notice({ type: "session_ended", sessionId, status });
    this.host.urgent();
    if (this.sessions.size === 0) this.notifyIdle();
  }

  /** Actions assigned to a Session that already ended: none of them runs. */
  private refuse(sessionId: string, actions: readonly AssignedAction[]): void {
    const now = this.host.now();
    for (const action of actions) {
      this.updates.ended({ actionId: action.actionId, status: "NEVER_ATTEMPTED", exitCode: null, failMessage: `Session ${sessionId} has already ended`, endedAt: now });
    }
    this.host.urgent();
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
