/**
 * A tiny farm server for the agent tests (node:http): it speaks lib/farm/protocol.ts just enough
 * — register takes the pool token and hands out lease epochs and a fresh credential, sync and
 * logs take only the latest credential (401 otherwise), sync hands out queued assignments and
 * fences stale epochs with 409, logs stores lines by seq and acknowledges the contiguous prefix —
 * and it checks every request body against the protocol's zod schemas. Scripted answers (503s,
 * refusals) go first, a replica's own (a proxy in front of it) before the farm's. `replica()`
 * opens another listener on the same state, as another replica of one farm on one database would
 * be; a replica can be closed (a dead server), frozen (a hung one: it takes requests and never
 * answers), late (a loaded one holding long polls past their wait), or given a fault for one
 * request: applied, then its connection dropped before the answer, or applied only after the
 * worker gave up on it. With `longPoll`, an idle sync is held as the real server holds it.
 *
 * What is applied twice changes nothing twice, as on the real server: an action keeps its first
 * ending and nothing after it (server/scheduler/apply-updates.ts), a Session keeps the first line
 * of each seq (server/store/log-lines.ts, INSERT OR IGNORE). `updates` and `received` keep
 * everything that arrived; `actions` and `lines` are what the farm stored.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  logsRequest,
  PROTOCOL_PATHS,
  registerRequest,
  syncRequest,
  type ActionUpdate,
  type LogLimits,
  type LogsRequest,
  type RegisterRequest,
  type SessionAssignment,
  type SyncRequest,
} from "../../lib/farm/protocol";

type Line = LogsRequest["lines"][number];
type Answer = { status: number; body: unknown; headers?: Record<string, string> };

/**
 * What a replica does to the next request `on` picks, after which it behaves again: "drop" applies
 * it and cuts the connection before answering (the host died right after its commit); "slow"
 * holds it `ms` (longer than the worker's timeout) and only then applies it, after the worker
 * sent it elsewhere.
 */
export type Fault = { on: (path: string, body: unknown) => boolean } & ({ mode: "drop" } | { mode: "slow"; ms: number });
export interface Recorded {
  /** Which listener took it (0: the first). */
  replica: number;
  path: string;
  authorization: string | undefined;
  body: unknown;
  status: number;
  /** performance.now() when it was answered. */
  at: number;
}

/** One listener of the farm. */
export class FakeReplica {
  /** Takes requests and never answers them (a hung host; the connection stays open). */
  frozen = false;
  /** Holds a long poll this much past its wait before answering (a healthy but loaded replica). */
  lateMs = 0;
  fault: Fault | null = null;
  /** Requests a fault was applied to. */
  faulted = 0;
  private readonly scripted = new Map<string, Answer[]>();
  private readonly closing: Promise<void>;
  private closed!: () => void;

  /** Where it listens (or listened, once closed). */
  readonly url: string;

  constructor(
    readonly index: number,
    private readonly server: Server,
  ) {
    this.closing = new Promise((resolve) => (this.closed = resolve));
    const address = server.address() as AddressInfo | null;
    if (!address) throw new Error(`replica ${index} of the fake farm is not listening`);
    this.url = `http://127.0.0.1:${address.port}`;
  }

  get listening(): boolean {
    return this.server.listening;
  }

  /** This replica's next answers to `path`, whatever the request (a proxy in front of it), before the farm's. */
  script(path: string, ...answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>): void {
    this.scripted.set(path, [...(this.scripted.get(path) ?? []), ...answers.map(withBody)]);
  }

  /** Forgets the scripted answers left (the proxy recovered). */
  unscript(): void {
    this.scripted.clear();
  }

  /** The next scripted answer to `path`, if any. */
  scriptedAnswer(path: string): Answer | undefined {
    return this.scripted.get(path)?.shift();
  }

  /** Resolves when the replica closes (a frozen one never answers before). */
  get gone(): Promise<void> {
    return this.closing;
  }

  /** Stops listening and cuts every connection, requests in flight included (the server died). */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    this.closed();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export class FakeFarm {
  /** The pool's enrollment token (a test may rotate it). */
  token = "pool-token-0123456789";
  /** Every credential handed out, oldest first; only the last one is taken. */
  readonly credentials: string[] = [];
  logLimits: LogLimits = { actionChars: 64 * 1024 * 1024, sessionChars: 256 * 1024 * 1024 };
  private revoked = false;
  readonly requests: Recorded[] = [];
  /** Every update received, repeats included. */
  readonly updates: ActionUpdate[] = [];
  /** Each action's latest stored update: an ended action keeps its first ending. */
  readonly actions = new Map<string, ActionUpdate>();
  /** When each of `updates` arrived (Date.now()), by index. */
  readonly updateArrivals: number[] = [];
  readonly syncs: SyncRequest[] = [];
  readonly registrations: RegisterRequest[] = [];
  /** Stored lines per Session, by seq. */
  readonly lines = new Map<string, Map<number, Line>>();
  /** Every seq received per Session, duplicates included. */
  readonly received = new Map<string, number[]>();
  epoch = 0;
  syncIntervalSeconds = 0.05;
  assignments: SessionAssignment[] = [];
  /** Called with each sync before it is answered (a test may queue work for this very answer, as the farm does when a task ends). */
  onSync: ((request: SyncRequest) => void) | null = null;
  cancels: string[] = [];
  stop = false;
  /** When set, logs are acknowledged at most through this seq. */
  ackLimit: number | null = null;
  /** Hold an idle sync that asks to wait (waitSeconds) until there is something to answer, as the farm does. */
  longPoll = false;
  /** Syncs being held now (longPoll). */
  waiting = 0;
  readonly replicas: FakeReplica[] = [];
  private readonly scripted = new Map<string, Answer[]>();

  /** The first replica's URL. */
  get url(): string {
    const first = this.replicas[0];
    if (!first) throw new Error("the fake farm is not listening");
    return first.url;
  }

  /** The next answers to `path` (oldest first), before the normal behaviour resumes. */
  script(path: string, ...answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>): void {
    this.scripted.set(path, [...(this.scripted.get(path) ?? []), ...answers.map(withBody)]);
  }

  /** The worker's credential stops working (removed, rotated out): its next sync or upload gets 401. */
  revoke(): void {
    this.revoked = true;
  }

  /** Declares the worker lost: its next call with the old epoch gets 409. */
  fence(): void {
    this.epoch++;
  }

  storedSeqs(sessionId: string): number[] {
    return [...(this.lines.get(sessionId)?.keys() ?? [])].sort((a, b) => a - b);
  }

  storedText(sessionId: string): string[] {
    return this.storedSeqs(sessionId).map((seq) => this.lines.get(sessionId)?.get(seq)?.line ?? "");
  }

  /** The action's stored ending, if it ended. */
  finalStatus(actionId: string): string | undefined {
    const stored = this.actions.get(actionId);
    return stored && stored.status !== "RUNNING" ? stored.status : undefined;
  }

  async start(): Promise<this> {
    await this.replica();
    return this;
  }

  /** Another listener on the same state (on `port`: a replica that comes back where it was). */
  async replica(port = 0): Promise<FakeReplica> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    const replica = new FakeReplica(this.replicas.length, server);
    server.on("request", (req: IncomingMessage, res: ServerResponse) => void this.handle(replica, req, res));
    this.replicas.push(replica);
    return replica;
  }

  async close(): Promise<void> {
    await Promise.all(this.replicas.map((r) => r.close()));
  }

  private async handle(replica: FakeReplica, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = "";
    try {
      for await (const chunk of req) text += chunk;
    } catch {
      return; // the replica was closed while the body came in
    }
    if (replica.frozen) return void (await replica.gone);
    const body: unknown = text ? JSON.parse(text) : null;
    const path = req.url ?? "";
    const fault = replica.fault?.on(path, body) ? replica.fault : null;
    if (fault) replica.fault = null;
    if (fault?.mode === "slow") await new Promise((resolve) => setTimeout(resolve, fault.ms));
    else if (path === PROTOCOL_PATHS.sync && this.longPoll && (await this.idleWait(body, req)) && replica.lateMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, replica.lateMs));
    }
    // A client gone before the answer: an idle long poll ends there; a faulty request is applied all the same.
    if (req.socket.destroyed && !fault) return;
    const answer = replica.scriptedAnswer(path) ?? this.answer(path, req.headers.authorization, body);
    this.requests.push({ replica: replica.index, path, authorization: req.headers.authorization, body, status: answer.status, at: performance.now() });
    if (fault) replica.faulted++;
    if (fault?.mode === "drop") req.socket.destroy();
    if (req.socket.destroyed) return;
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }

  /** An idle sync that may wait: until there is work, a cancel or a stop, its time is up, or its connection is cut. Whether it waited. */
  private async idleWait(body: unknown, req: IncomingMessage): Promise<boolean> {
    const request = body as Partial<SyncRequest> | null;
    const waitMs = (request?.waitSeconds ?? 0) * 1000;
    if (waitMs <= 0 || (request?.updates?.length ?? 0) > 0) return false;
    const until = performance.now() + waitMs;
    this.waiting++;
    try {
      while (performance.now() < until && !req.socket.destroyed && this.assignments.length === 0 && this.cancels.length === 0 && !this.stop) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      this.waiting--;
    }
    return true;
  }

  private answer(path: string, authorization: string | undefined, body: unknown): Answer {
    const expected = path === PROTOCOL_PATHS.register ? this.token : this.revoked ? null : this.credentials.at(-1);
    if (expected === undefined || expected === null || authorization !== `Bearer ${expected}`) {
      return { status: 401, body: { error: "UNAUTHORIZED", message: path === PROTOCOL_PATHS.register ? "unknown worker token" : "unknown or revoked worker credential" } };
    }
    const scripted = this.scripted.get(path)?.shift();
    if (scripted) return scripted;
    const conflict = { status: 409, body: { error: "LEASE_CONFLICT", message: "this worker was declared lost" } };
    switch (path) {
      case PROTOCOL_PATHS.register: {
        this.registrations.push(registerRequest.parse(body));
        this.epoch++;
        this.credentials.push(`loom_wkr_fake-${this.credentials.length + 1}`);
        this.revoked = false;
        return {
          status: 200,
          body: { workerId: "worker-1", leaseEpoch: this.epoch, syncIntervalSeconds: this.syncIntervalSeconds, credential: this.credentials.at(-1), logLimits: this.logLimits },
        };
      }
      case PROTOCOL_PATHS.sync: {
        const request = syncRequest.parse(body);
        if (request.leaseEpoch !== this.epoch) return conflict;
        this.syncs.push(request);
        this.updates.push(...request.updates);
        this.updateArrivals.push(...request.updates.map(() => Date.now()));
        for (const update of request.updates) {
          const stored = this.actions.get(update.actionId);
          if (!stored || stored.status === "RUNNING") this.actions.set(update.actionId, update);
        }
        this.onSync?.(request);
        const response = { leaseEpoch: this.epoch, syncIntervalSeconds: this.syncIntervalSeconds, assignments: this.assignments, cancel: this.cancels, stop: this.stop };
        this.assignments = [];
        this.cancels = [];
        return { status: 200, body: response };
      }
      case PROTOCOL_PATHS.logs: {
        const request = logsRequest.parse(body);
        if (request.leaseEpoch !== this.epoch) return conflict;
        const stored = this.lines.get(request.sessionId) ?? new Map<number, Line>();
        this.lines.set(request.sessionId, stored);
        const received = this.received.get(request.sessionId) ?? [];
        this.received.set(request.sessionId, received);
        for (const line of request.lines) {
          received.push(line.seq);
          if (!stored.has(line.seq)) stored.set(line.seq, line);
        }
        let through = -1;
        while (stored.has(through + 1)) through++;
        if (this.ackLimit !== null) through = Math.min(through, this.ackLimit);
        return { status: 200, body: { acknowledgedThrough: through } };
      }
      default:
        return { status: 404, body: { error: "NOT_FOUND", message: path } };
    }
  }
}

function withBody(answer: { status: number; body?: unknown; headers?: Record<string, string> }): Answer {
  return { ...answer, body: answer.body ?? { error: "UNAVAILABLE", message: "try later" } };
}
