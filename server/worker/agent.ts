/**
 * The worker agent (DESIGN "Processes": workers pull). It enrolls with the pool's token and gets
 * a credential of its own, which it keeps in memory only (never on disk, never in an environment
 * a task could inherit) and sends on every later call. Then it loops: ship log lines, sync
 * (report updates and the Sessions it holds, receive assignments, cancels and stop), sleep until
 * the next sync is due, an action ends, or within START_REPORT_MS of an action starting (so a
 * page shows a task Running within a second of its start, not at the next interval). A fenced lease (409) interrupts everything and
 * registers again; so does a refused credential (401: the worker was removed, or its pool's token
 * rotated past the grace period), after rereading the token file where the admin may have put
 * the new token. An unreachable server is retried with capped exponential backoff while the
 * actions keep running. Nothing the server has not acknowledged is dropped, except what a fenced
 * lease makes meaningless and log lines past the server's caps (log-shipper.ts).
 *
 * Given several servers (replicas of one farm), the client moves to the next when the current one
 * stops answering (worker-client.ts), and the agent tries it at once when the cycle's last request
 * is the one that moved. The backoff applies between rounds of the list, and after a cycle whose
 * sync went through but whose log upload failed (a proxy timing out log ingests on every replica
 * would otherwise be retried in a tight loop). A refused registration is tried on the next server;
 * the agent stops only when every server refused it in one round. The lease, the credential, the
 * Sessions, the unsent updates and the unacknowledged lines are the farm's, not a replica's: they
 * go to the new server as they would have gone to the old one after it came back.
 */
import { Backoff } from "./backoff";
import { randomUUID } from "node:crypto";
import { MAX_WORKER_BODY_BYTES, type ActionUpdate } from "../../lib/farm/protocol";
import type { WorkerCapabilities } from "../../lib/openjd";
import { Alarm } from "./alarm";
import { countWithin } from "./body-budget";
import { LogPump } from "./log-pump";
import { LogShipper } from "./log-shipper";
import { SessionExecutor } from "./session-executor";
import type { ExecutorNotice, SessionRuntimeOptions } from "./session-host";
import { CredentialRefusedError, LeaseConflictError, RequestRefusedError, ServerMisdirectedError, ServerUnavailableError, WorkerClient } from "./worker-client";

export type AgentStopReason = "drained" | "stopped" | "refused";

export type AgentNotice =
  | ExecutorNotice
  /** `server`: where it enrolled (with several servers, not always the first). */
  | { type: "registered"; workerId: string; leaseEpoch: number; server?: string }
  /** The first failure of a streak (the agent keeps retrying); `refused`: the server answered 4xx. */
  | { type: "server_unavailable"; message: string; retryInMs: number; refused: boolean }
  | { type: "server_available" }
  /** The server in use stopped answering, or refused a registration another may take; the next requests go to `to` (several servers given). */
  | { type: "server_moved"; from: string; to: string; reason: string }
  | { type: "lease_conflict"; message: string }
  /** 401 on sync or logs: everything running was stopped; enrolling again (with the token file reread when there is one). */
  | { type: "credential_refused"; message: string }
  | { type: "draining"; by: "worker" | "server" }
  | { type: "stopped"; reason: AgentStopReason; message?: string };

export interface WorkerAgentOptions extends SessionRuntimeOptions {
  /** The farm's server, or several replicas of it in order of preference. */
  serverUrl: string | readonly string[];
  /** The pool's enrollment token. */
  token: string;
  /** Reads the enrollment token again (from its file) before enrolling after a refused credential. */
  readToken?: () => Promise<string>;
  name: string;
  capabilities: WorkerCapabilities;
  onNotice?: (notice: AgentNotice) => void;
  fetch?: typeof fetch;
  retry?: { initialMs?: number; maxMs?: number };
  requestTimeoutMs?: number;
  /** Lines per POST /api/worker/logs (at most 2,000). */
  logBatchLines?: number;
  /** Unacknowledged lines past which the agent ships before anything else. */
  logHighWaterMark?: number;
  random?: () => number;
  /** Idle syncs wait on the server for work (default true). */
  longPoll?: boolean;
  /** Identifies this agent process to the server (default: a random one); `loom serve` chooses its local workers' own. */
  instanceId?: string;
}

type Lease = { workerId: string; leaseEpoch: number };

const MAX_LOG_BATCH = 2_000;
/** Room in a request body for everything but the lines or updates. */
const ENVELOPE_BYTES = 4_096;
/** Unless the shipper is backed up, a cycle ships at most this many batches before it syncs. */
const BATCHES_PER_CYCLE = 10;
/** Protocol limit on updates per sync; the rest wait for the next one. */
const MAX_UPDATES_PER_SYNC = 10_000;
/** The longest an idle sync may be held by the server (the client's request timeout counts from its end). */
const MAX_WAIT_SECONDS = 20;
/** An idle long poll that came back empty sooner than this is followed by a pause this long. */
const MIN_WAIT_MS = 1_000;
/**
 * How soon after an action starts the agent syncs to say so. Short enough that live views show
 * it within a second; long enough that a task ending within it is reported once (its RUNNING
 * folded into its end) and that starts of several Sessions share a sync.
 */
export const START_REPORT_MS = 250;

export class WorkerAgent {
  readonly logs: LogShipper;
  readonly executor: SessionExecutor;
  private readonly client: WorkerClient;
  private readonly alarm = new Alarm();
  private readonly stopping = new AbortController();
  private lease: Lease | null = null;
  /** The worker's own credential (RegisterResponse.credential): in this object only. */
  private credential: string | null = null;
  /** A sync went through since the last enrollment (a 401 right after one is not a reason to enroll again at once). */
  private syncedSinceEnrollment = false;
  /** Until when the server refused log lines (its Retry-After), and what it said. */
  private logRefusal: { until: number; message: string } | null = null;
  /** The long-poll sync in flight, cut short by a drain or stop. */
  private waitAbort: AbortController | null = null;
  /** How long to pause before the next sync when it is not the interval (0 after a long poll). */
  private nextPauseMs: number | null = null;
  /** Identifies this agent process to the server (a fenced agent may take its own name back). */
  private readonly instanceId: string;
  private intervalMs = 10_000;
  /** Updates taken from the executor that no sync has delivered yet. */
  private unsent: ActionUpdate[] = [];
  /** What the last successful sync told the server. */
  private reported = { sessions: 0, draining: false };
  private readonly backoff: Backoff;
  private drainRequests = 0;
  /** Servers that refused the registration since it last got another answer: when all of them did, the agent stops. */
  private readonly refusedBy = new Set<string>();
  private stopReason: AgentStopReason | null = null;
  private stopMessage: string | undefined;
  private loop: Promise<AgentStopReason> | null = null;
  private readonly interruptions: Promise<void>[] = [];
  private readonly logPump: LogPump;

  constructor(private readonly options: WorkerAgentOptions) {
    this.instanceId = options.instanceId ?? randomUUID();
    this.backoff = new Backoff(options.retry, options.random);
    this.client = new WorkerClient({
      serverUrl: options.serverUrl,
      token: options.token,
      fetch: options.fetch,
      timeoutMs: options.requestTimeoutMs,
      onServerMoved: (move) => this.notice({ type: "server_moved", ...move }),
    });
    this.logs = new LogShipper(options.logHighWaterMark);
    this.executor = new SessionExecutor({
      logs: this.logs,
      rootDirectory: options.rootDirectory,
      baseEnvironment: options.baseEnvironment,
      launcher: options.launcher,
      onUrgent: () => this.alarm.wake(),
      onSoon: () => this.alarm.wakeWithin(START_REPORT_MS),
      onNotice: (notice) => this.notice(notice),
    });
    // Between syncs, new lines go up on their own (log-pump.ts); after a failure the backoff decides.
    this.logPump = new LogPump(
      () => (this.lease && !this.backoff.failing && !this.logsRefused() && !this.stopping.signal.aborted ? this.shipLogs(this.lease, this.stopping.signal) : null),
      () => this.logs.pending > 0,
    );
    this.logs.onLine = () => this.logPump.lineAdded();
  }

  /** Runs until drained or stopped; resolves with why it stopped. */
  start(): Promise<AgentStopReason> {
    this.loop ??= this.run();
    return this.loop;
  }

  /** First call: take no new work, finish the running action, let the server send the exits, then stop. Second call: stop now. */
  drain(): void {
    this.drainRequests++;
    if (this.drainRequests > 1) void this.stop();
    else this.beginDrain("worker");
  }

  /** Stops at once: kills every action and forgets the Sessions (the server will requeue their work). */
  async stop(): Promise<void> {
    this.stopReason ??= "stopped";
    this.logPump.stop();
    this.waitAbort?.abort();
    this.interruptions.push(this.executor.interruptAll());
    this.stopping.abort();
    await this.loop;
    await Promise.all(this.interruptions);
  }

  get workerId(): string | null {
    return this.lease?.workerId ?? null;
  }

  private async run(): Promise<AgentStopReason> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      if (this.executor.draining && !this.lease && this.executor.sessionIds.length === 0) {
        this.stopReason ??= "drained"; // nothing held and nothing to tell anyone
        break;
      }
      const step = await this.cycle(signal);
      if (signal.aborted) break;
      if (step === "again") continue;
      if (step === "failed") {
        await this.alarm.sleep(this.backoff.delayMs(), signal, { wakeable: false });
        continue;
      }
      if (this.drainedOut()) {
        this.stopReason ??= "drained";
        break;
      }
      const pause = this.nextPauseMs ?? this.intervalMs;
      this.nextPauseMs = null;
      if (pause > 0) await this.alarm.sleep(pause, signal);
    }
    await Promise.all(this.interruptions);
    const reason = this.stopReason ?? "stopped";
    this.notice({ type: "stopped", reason, ...(this.stopMessage ? { message: this.stopMessage } : {}) });
    return reason;
  }

  /** One upload of a Session's lines at a time: a log-only one in flight finishes first. */
  private cycle(signal: AbortSignal): Promise<"ok" | "failed" | "again"> {
    return this.logPump.hold(() => this.cycleOnce(signal));
  }

  private async cycleOnce(signal: AbortSignal): Promise<"ok" | "failed" | "again"> {
    const server = this.client.serverUrl;
    let unshipped: ServerUnavailableError | null = null;
    try {
      const lease = this.lease ?? (await this.register(signal));
      // Lines the server cannot take now (503: its disk is full) stay held; the sync still goes,
      // so the server keeps hearing from this worker and gets its reports as soon as it can.
      unshipped = await this.shipLogs(lease, signal).then(
        () => null,
        (error: unknown) => {
          if (error instanceof ServerUnavailableError && !signal.aborted) return error;
          throw error;
        },
      );
      await this.sync(lease, signal);
      if (unshipped) throw unshipped;
      if (this.backoff.succeeded()) this.notice({ type: "server_available" });
      return "ok";
    } catch (error) {
      if (signal.aborted) return "failed";
      const message = error instanceof Error ? error.message : String(error);
      const enrolled = this.lease !== null;
      if (!enrolled) {
        const next = this.registrationFailed(error, server, message);
        if (next !== null) return next;
      } else if (error instanceof ServerUnavailableError && error.nextServer !== null && error !== unshipped) {
        // Another replica that has not failed since the last answer: straight to it, no backoff —
        // unless a sync went through after the upload that moved (the upload's failure is then
        // one like any other: without a backoff it would be retried in a tight loop).
        return "again";
      }
      if (error instanceof LeaseConflictError) {
        await this.fenced(error.message);
        return "again";
      }
      if (error instanceof CredentialRefusedError && enrolled) {
        // A 401 before any sync went through since enrolling is not cured by enrolling at once: back off first.
        const promptly = this.syncedSinceEnrollment;
        await this.credentialRefused(message);
        if (promptly) return "again";
      }
      const first = this.backoff.failed(error instanceof ServerUnavailableError ? error.retryAfterMs : null);
      const refused = error instanceof RequestRefusedError || error instanceof ServerMisdirectedError;
      if (first) this.notice({ type: "server_unavailable", message, retryInMs: this.backoff.delayMs(), refused });
      return "failed";
    }
  }

  /**
   * What follows a failed registration, or null for the usual backoff. A refused one (bad token,
   * bad capabilities; with several servers also a proxy's 403/404) will not succeed by retrying on
   * the same server, but another may take it (a replica mid-upgrade): the agent tries the next, and
   * stops once every server refused in one round. A 409 is no refusal: another agent holds this
   * name, and it may stop or time out.
   */
  private registrationFailed(error: unknown, server: string, message: string): "again" | "failed" | null {
    const refused = error instanceof ServerMisdirectedError || (error instanceof RequestRefusedError && error.status !== 409);
    if (!refused) {
      this.refusedBy.clear();
      return error instanceof ServerUnavailableError && error.nextServer !== null ? "again" : null;
    }
    this.refusedBy.add(server);
    if (this.refusedBy.size >= this.client.serverCount) {
      this.refusedBy.clear();
      this.stopReason = "refused";
      this.stopMessage = message;
      this.stopping.abort();
      return "failed";
    }
    // The client moved on from a misdirected answer itself; from a refusal the agent makes it.
    const next = error instanceof ServerMisdirectedError ? error.nextServer : this.client.leave((error as RequestRefusedError).reason);
    return next !== null ? "again" : null;
  }

  private async register(signal: AbortSignal): Promise<Lease> {
    const response = await this.client.register({ name: this.options.name, capabilities: toRecord(this.options.capabilities), instanceId: this.instanceId }, signal);
    this.lease = { workerId: response.workerId, leaseEpoch: response.leaseEpoch };
    this.credential = response.credential;
    this.syncedSinceEnrollment = false;
    this.refusedBy.clear();
    if (response.logLimits) this.logs.setLimits(response.logLimits);
    this.intervalMs = intervalMs(response.syncIntervalSeconds, this.intervalMs);
    this.reported = { sessions: 0, draining: false };
    this.notice({ type: "registered", workerId: response.workerId, leaseEpoch: response.leaseEpoch, server: this.client.serverUrl });
    return this.lease;
  }

  /**
   * The server refused lines and said when to come back (Retry-After: its store is full): no
   * upload before then, from the cycle or between cycles, whichever was refused. The cycle that
   * finds lines held this way reports the refusal, and its backoff waits out the rest.
   */
  private logsRefused(): ServerUnavailableError | null {
    const refusal = this.logRefusal;
    if (refusal === null) return null;
    const remainingMs = refusal.until - Date.now();
    if (remainingMs <= 0) {
      this.logRefusal = null;
      return null;
    }
    return new ServerUnavailableError(refusal.message, remainingMs);
  }

  private async shipLogs(lease: Lease, signal: AbortSignal): Promise<void> {
    const refused = this.logsRefused();
    if (refused) throw refused;
    try {
      await this.shipLogBatches(lease, signal);
    } catch (error) {
      if (error instanceof ServerUnavailableError && error.retryAfterMs !== null) this.logRefusal = { until: Date.now() + error.retryAfterMs, message: error.message };
      throw error;
    }
  }

  private async shipLogBatches(lease: Lease, signal: AbortSignal): Promise<void> {
    const max = Math.min(MAX_LOG_BATCH, Math.max(1, this.options.logBatchLines ?? MAX_LOG_BATCH));
    let batches = 0;
    for (;;) {
      const before = this.logs.pending;
      for (const sessionId of this.logs.sessionIds()) {
        const lines = this.logs.takeBatch(sessionId, max, MAX_WORKER_BODY_BYTES - ENVELOPE_BYTES);
        if (lines.length === 0) continue;
        const response = await this.client.logs(this.credentialOf(), { ...lease, sessionId, lines }, signal);
        this.logs.acknowledge(sessionId, response.acknowledgedThrough);
        batches++;
      }
      // Lines the server did not acknowledge stay and go again next cycle.
      if (this.logs.pending === 0 || this.logs.pending >= before) return;
      if (!this.logs.isBackedUp() && batches >= BATCHES_PER_CYCLE) return;
    }
  }

  private async sync(lease: Lease, signal: AbortSignal): Promise<void> {
    const taken = this.executor.takeUpdates();
    for (const update of taken) if (update.status !== "RUNNING") this.logs.actionEnded(update.actionId);
    this.unsent.push(...taken);
    // Taken in the same turn as the updates: every assigned action is either held or reported.
    const sessions = this.executor.sessionIds;
    const actions = this.executor.actionIds;
    // Also in that turn: a Session not held any more has had its every update taken, markers included.
    this.logs.retain(sessions);
    const room = MAX_WORKER_BODY_BYTES - ENVELOPE_BYTES - Buffer.byteLength(JSON.stringify({ sessions, actions }));
    const updates = this.unsent.slice(0, countWithin(this.unsent, MAX_UPDATES_PER_SYNC, room));
    const draining = this.executor.draining;
    // Idle: let the server hold the sync until work appears (long poll), instead of sleeping a
    // whole interval after each empty answer.
    const idle = sessions.length === 0 && actions.length === 0 && updates.length === 0 && !draining && this.logs.pending === 0;
    const waitSeconds = idle && this.options.longPoll !== false ? Math.min(MAX_WAIT_SECONDS, this.intervalMs / 1000) : 0;
    const waitAbort = new AbortController();
    this.waitAbort = waitSeconds > 0 ? waitAbort : null;
    const started = performance.now();
    let response;
    try {
      response = await this.client.sync(
        this.credentialOf(),
        { ...lease, sessions, actions, updates, draining, ...(waitSeconds > 0 ? { waitSeconds } : {}) },
        waitSeconds > 0 ? AbortSignal.any([signal, waitAbort.signal]) : signal,
      );
    } catch (error) {
      // A drain or stop cut the wait short: nothing was reported, the next cycle says it.
      if (waitAbort.signal.aborted && !signal.aborted) {
        this.nextPauseMs = 0;
        return;
      }
      throw error;
    } finally {
      this.waitAbort = null;
    }
    // Straight back to the server after a real wait; after an early empty answer, pause a little.
    const empty = (response.assignments ?? []).length === 0 && (response.cancel ?? []).length === 0;
    if (waitSeconds > 0) this.nextPauseMs = !empty || performance.now() - started >= MIN_WAIT_MS ? 0 : MIN_WAIT_MS;
    this.unsent.splice(0, updates.length);
    this.syncedSinceEnrollment = true;
    this.reported = { sessions: sessions.length, draining };
    if (Number.isInteger(response.leaseEpoch) && response.leaseEpoch > 0) lease.leaseEpoch = response.leaseEpoch;
    this.intervalMs = intervalMs(response.syncIntervalSeconds, this.intervalMs);
    // Assignments first: a cancel may name an action assigned in the same answer.
    for (const assignment of response.assignments ?? []) this.executor.assign(assignment);
    if (response.cancel?.length) this.executor.cancel(response.cancel);
    if (response.stop) this.beginDrain("server");
  }

  /** The server declared this worker lost: whatever it runs now belongs to nobody. */
  private async fenced(message: string): Promise<void> {
    this.notice({ type: "lease_conflict", message });
    await this.forgetLease();
  }

  /**
   * The server no longer takes the credential: nothing more can be reported under it, and
   * enrolling again starts a new lease (the server requeues what the old one held).
   */
  private async credentialRefused(message: string): Promise<void> {
    this.notice({ type: "credential_refused", message });
    await this.forgetLease();
    if (!this.options.readToken) return;
    try {
      const token = (await this.options.readToken()).trim();
      if (token) this.client.setEnrollmentToken(token);
    } catch {
      // The file cannot be read now: enroll with the token we have; a refusal then stops the agent.
    }
  }

  private async forgetLease(): Promise<void> {
    this.lease = null;
    this.credential = null;
    this.unsent = [];
    const interrupted = this.executor.interruptAll();
    this.logs.clear();
    await interrupted;
  }

  private credentialOf(): string {
    if (!this.credential) throw new Error("not enrolled");
    return this.credential;
  }

  private beginDrain(by: "worker" | "server"): void {
    if (this.executor.draining) return;
    this.waitAbort?.abort();
    this.executor.drain();
    this.notice({ type: "draining", by });
    this.alarm.wake();
  }

  /** Draining is over when the server has heard that the worker drains, holds no Session, and has every update and line. */
  private drainedOut(): boolean {
    return (
      this.executor.draining &&
      this.reported.draining &&
      this.reported.sessions === 0 &&
      this.executor.sessionIds.length === 0 &&
      this.executor.pendingUpdates === 0 &&
      this.unsent.length === 0 &&
      this.logs.pending === 0
    );
  }

  private notice(notice: AgentNotice): void {
    this.options.onNotice?.(notice);
  }
}

function intervalMs(seconds: number, fallback: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 3600) * 1000 : fallback;
}

function toRecord(capabilities: WorkerCapabilities): { amounts: Record<string, number>; attributes: Record<string, string[]> } {
  return {
    amounts: { ...capabilities.amounts },
    attributes: Object.fromEntries(Object.entries(capabilities.attributes).map(([k, v]) => [k, [...v]])),
  };
}
