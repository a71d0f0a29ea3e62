/**
 * One simulated worker agent of bench:load: the agent's cycle (ship log lines, sync, sleep) with
 * pretend tasks that "run" for 1–3 s without a process. Tasks of odd frames print a line every
 * 100 ms, the others nothing; an action that ends makes the worker sync at once.
 */
import type { ActionUpdate, AssignedAction, LogsRequest, SyncResponse } from "../lib/farm/protocol";
import { benchRegistration, sleep, type LatencyWindows, type RunErrors, type Transport } from "./farm-bench-support";

const LINE_EVERY_MS = 100;
/** Lines per POST /api/worker/logs, as the agent sends them. */
const MAX_LOG_BATCH = 2_000;

interface RunningAction {
  sessionId: string;
  action: AssignedAction;
  endsAt: number;
  chatty: boolean;
  nextLineAt: number;
  printed: number;
}

export class LoadWorker {
  private lease: { workerId: string; leaseEpoch: number } | null = null;
  private credential = "";
  private readonly queue: Array<{ sessionId: string; action: AssignedAction }> = [];
  private running: RunningAction | null = null;
  private readonly sessions = new Map<string, { ending: boolean }>();
  private updates: ActionUpdate[] = [];
  private readonly logs = new Map<string, LogsRequest["lines"]>();
  private readonly seq = new Map<string, number>();
  produced = 0;
  tasksDone = 0;

  constructor(
    private readonly name: string,
    private readonly transport: Transport,
    private readonly intervalMs: number,
    private readonly errors: RunErrors,
    private readonly syncLatency: LatencyWindows,
  ) {}

  async run(startDelayMs: number, stopAt: number): Promise<void> {
    const registered = await this.transport.register(benchRegistration(this.name));
    this.lease = { workerId: registered.workerId, leaseEpoch: registered.leaseEpoch };
    this.credential = registered.credential;
    await sleep(startDelayMs);
    while (Date.now() < stopAt) {
      this.advance(Date.now());
      await this.shipLogs();
      await this.sync();
      this.advance(Date.now());
      const untilEnd = this.running ? this.running.endsAt - Date.now() : this.intervalMs;
      await sleep(Math.max(0, Math.min(this.intervalMs, untilEnd, stopAt - Date.now())));
    }
    // Stop as an agent would before shutting down: nothing printed is left behind.
    this.advance(Date.now());
    await this.shipLogs();
    if (this.pendingLines() > 0) this.errors.add(`${this.name}: ${this.pendingLines()} log lines never acknowledged`);
  }

  /** Prints the lines due, ends the action whose time is up and starts the next one. */
  private advance(now: number): void {
    for (;;) {
      const current = this.running;
      if (current) {
        while (current.chatty && current.nextLineAt <= Math.min(now, current.endsAt)) {
          this.print(current, current.nextLineAt);
          current.nextLineAt += LINE_EVERY_MS;
        }
        if (current.endsAt > now) return;
        this.updates.push({ actionId: current.action.actionId, status: "SUCCEEDED", exitCode: 0, endedAt: current.endsAt });
        if (current.action.kind === "TASK_RUN") this.tasksDone++;
        this.running = null;
        this.endSessionIfDone(current.sessionId);
      }
      const next = this.queue.shift();
      if (!next) return;
      const frame = Number(next.action.parameters?.Frame?.value ?? 0);
      const durationMs = next.action.kind === "TASK_RUN" ? 1000 + ((frame * 7919) % 2000) : 0;
      this.running = { ...next, endsAt: now + durationMs, chatty: next.action.kind === "TASK_RUN" && frame % 2 === 1, nextLineAt: now, printed: 0 };
      this.updates.push({ actionId: next.action.actionId, status: "RUNNING", startedAt: now });
    }
  }

  private print(running: RunningAction, time: number): void {
    const seq = this.seq.get(running.sessionId) ?? 0;
    this.seq.set(running.sessionId, seq + 1);
    const lines = this.logs.get(running.sessionId) ?? [];
    this.logs.set(running.sessionId, lines);
    const frame = running.action.parameters?.Frame?.value;
    lines.push({ seq, actionId: running.action.actionId, time, line: `frame ${frame}: sample ${++running.printed}, ${(running.printed * 3.7).toFixed(1)} Mrays/s, mem 2.4 GiB` });
    this.produced++;
  }

  private endSessionIfDone(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (session?.ending && !this.queue.some((q) => q.sessionId === sessionId)) this.sessions.delete(sessionId);
  }

  private pendingLines(): number {
    let n = 0;
    for (const lines of this.logs.values()) n += lines.length;
    return n;
  }

  private async shipLogs(): Promise<void> {
    const lease = this.lease!;
    for (const [sessionId, lines] of this.logs) {
      if (lines.length === 0) {
        this.logs.delete(sessionId);
        continue;
      }
      try {
        const batch = lines.slice(0, MAX_LOG_BATCH);
        const { acknowledgedThrough } = await this.transport.logs(this.credential, { ...lease, sessionId, lines: batch });
        const kept = lines.filter((l) => l.seq > acknowledgedThrough);
        if (kept.length > 0) this.logs.set(sessionId, kept);
        else this.logs.delete(sessionId);
      } catch (error) {
        this.errors.add(`${this.name} logs`, error);
      }
    }
  }

  private async sync(): Promise<void> {
    const lease = this.lease!;
    const held = [...(this.running ? [this.running.action.actionId] : []), ...this.queue.map((q) => q.action.actionId)];
    const updates = this.updates;
    let response: SyncResponse;
    const started = Date.now();
    try {
      response = await this.transport.sync(this.credential, { ...lease, sessions: [...this.sessions.keys()], actions: held, updates });
      this.syncLatency.add(started, Date.now() - started);
    } catch (error) {
      this.errors.add(`${this.name} sync`, error);
      return;
    }
    this.updates = this.updates.slice(updates.length);
    if (response.cancel.length > 0) this.errors.add(`${this.name} was told to cancel ${response.cancel.join(", ")}`);
    for (const assignment of response.assignments) {
      const session = this.sessions.get(assignment.sessionId) ?? { ending: false };
      this.sessions.set(assignment.sessionId, session);
      for (const action of assignment.actions) this.queue.push({ sessionId: assignment.sessionId, action });
      if (assignment.end) {
        session.ending = true;
        if (!this.running || this.running.sessionId !== assignment.sessionId) this.endSessionIfDone(assignment.sessionId);
      }
    }
  }
}
