/**
 * A tiny farm server for the agent tests (node:http): it speaks lib/farm/protocol.ts just enough
 * — register takes the pool token and hands out lease epochs and a fresh credential, sync and
 * logs take only the latest credential (401 otherwise), sync hands out queued assignments and
 * fences stale epochs with 409, logs stores lines by seq and acknowledges the contiguous prefix —
 * and it checks every request body against the protocol's zod schemas. Scripted answers (503s,
 * refusals) go first.
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
export interface Recorded {
  path: string;
  authorization: string | undefined;
  body: unknown;
  status: number;
  /** performance.now() when it was answered. */
  at: number;
}

export class FakeFarm {
  /** The pool's enrollment token (a test may rotate it). */
  token = "pool-token-0123456789";
  /** Every credential handed out, oldest first; only the last one is taken. */
  readonly credentials: string[] = [];
  logLimits: LogLimits = { actionChars: 64 * 1024 * 1024, sessionChars: 256 * 1024 * 1024 };
  private revoked = false;
  readonly requests: Recorded[] = [];
  readonly updates: ActionUpdate[] = [];
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
  private readonly scripted = new Map<string, Array<{ status: number; body: unknown; headers?: Record<string, string> }>>();
  private server: Server | null = null;

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error("the fake farm is not listening");
    return `http://127.0.0.1:${address.port}`;
  }

  /** The next answers to `path` (oldest first), before the normal behaviour resumes. */
  script(path: string, ...answers: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>): void {
    this.scripted.set(path, [...(this.scripted.get(path) ?? []), ...answers.map((a) => ({ ...a, body: a.body ?? { error: "UNAVAILABLE", message: "try later" } }))]);
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

  finalStatus(actionId: string): string | undefined {
    return this.updates.find((u) => u.actionId === actionId && u.status !== "RUNNING")?.status;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body: unknown = text ? JSON.parse(text) : null;
    const path = req.url ?? "";
    const answer = this.answer(path, req.headers.authorization, body);
    this.requests.push({ path, authorization: req.headers.authorization, body, status: answer.status, at: performance.now() });
    res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
    res.end(JSON.stringify(answer.body));
  }

  private answer(path: string, authorization: string | undefined, body: unknown): { status: number; body: unknown; headers?: Record<string, string> } {
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
