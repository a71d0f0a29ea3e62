/**
 * `npm run bench:load [-- --seconds S --workers W --subscribers N --interval-ms I --global-fetch]`:
 * the farm server under a steady, realistic load for S seconds (default 60). W simulated workers
 * (default 200) behave like the worker agent at a compressed interval (default 250 ms): each cycle
 * they upload their new log lines (`POST /api/worker/logs`), then sync (`POST /api/worker/sync`),
 * report what ended and receive work; they sync at once when an action ends. Tasks "run" for 1–3 s
 * without a process; tasks of odd frames print a line every 100 ms, the others nothing. N live log
 * views (default 50) follow over tRPC SSE (`GET /api/trpc/logs.follow`): half a job each, half one
 * Session each (found through `jobs.sessions`).
 *
 * Everything goes through startNodeServer(apiHandler(farm)) on a temp-file SQLite database; the
 * clients run in a worker thread, so the server's event loop carries only the server. At the end
 * the workers upload what they still hold and stop, and every view must receive exactly the lines
 * stored for what it follows. Reported: errors (expected 0: any non-2xx answer, failed request,
 * SSE error or early end, unexpected cancel, a line missing or delivered twice), p50/p99 latency
 * per endpoint, lines stored vs produced and delivered vs expected, and the print-to-view lag.
 * Exit 1 on any error. The last line is one JSON object.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import type { ActionUpdate, AssignedAction, LogsRequest, SyncResponse } from "../lib/farm/protocol";
import type { LogLineView } from "../server/queries/sessions";
import {
  benchRegistration,
  httpTransport,
  Latencies,
  numberFlag,
  openBenchFarm,
  round,
  runInThread,
  sleep,
  submitJobs,
  taskStatusCounts,
  tempFolder,
  type Transport,
} from "./farm-bench-support";

interface LoadSettings {
  url: string;
  token: string;
  file: string;
  jobIds: string[];
  seconds: number;
  workers: number;
  subscribers: number;
  intervalMs: number;
  globalFetch: boolean;
}

const LINE_EVERY_MS = 100;
/** How long views may take to receive the last lines once the workers stopped. */
const CATCH_UP_MS = 15_000;
const MAX_LOG_BATCH = 2_000;

/** Errors of the whole run: counted, the first few kept for the report. */
class Errors {
  count = 0;
  readonly first: string[] = [];
  add(message: string): void {
    this.count++;
    if (this.first.length < 20) this.first.push(message);
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Sync latency per 10 s of the run, to show whether the server keeps up or degrades as data grows. */
class Windows {
  private readonly windows: Latencies[] = [];
  constructor(private readonly startedAt: number) {}
  add(at: number, ms: number): void {
    const index = Math.max(0, Math.floor((at - this.startedAt) / 10_000));
    (this.windows[index] ??= new Latencies()).add(ms);
  }
  summary(): Array<{ fromS: number; syncs: number; p50Ms: number; p99Ms: number }> {
    return this.windows.map((w, i) => ({ fromS: i * 10, syncs: w.count, p50Ms: w.summary().p50Ms, p99Ms: w.summary().p99Ms }));
  }
}

interface RunningAction {
  sessionId: string;
  action: AssignedAction;
  endsAt: number;
  chatty: boolean;
  nextLineAt: number;
  printed: number;
}

/** One simulated worker agent: the agent's cycle (ship logs, sync, sleep) with pretend tasks. */
class LoadWorker {
  private lease: { workerId: string; leaseEpoch: number } | null = null;
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
    private readonly errors: Errors,
    private readonly windows: Windows,
  ) {}

  async run(startDelayMs: number, stopAt: number): Promise<void> {
    this.lease = await this.transport.register(benchRegistration(this.name));
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
        const { acknowledgedThrough } = await this.transport.logs({ ...lease, sessionId, lines: batch });
        const kept = lines.filter((l) => l.seq > acknowledgedThrough);
        if (kept.length > 0) this.logs.set(sessionId, kept);
        else this.logs.delete(sessionId);
      } catch (error) {
        this.errors.add(`${this.name} logs: ${describe(error)}`);
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
      response = await this.transport.sync({ ...lease, sessions: [...this.sessions.keys()], actions: held, updates });
      this.windows.add(started, Date.now() - started);
    } catch (error) {
      this.errors.add(`${this.name} sync: ${describe(error)}`);
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

/** What a live view follows: a job or one Session. */
type Follow = { jobId: string } | { sessionId: string };

/** A live log view: `logs.follow` over SSE (tRPC v11 wire format), parsed from a streaming fetch. */
class LogView {
  readonly ids = new Set<number>();
  duplicates = 0;
  outOfOrder = 0;
  private lastId = 0;
  private readonly controller = new AbortController();
  private closed = false;
  done: Promise<void> = Promise.resolve();

  constructor(
    readonly follow: Follow,
    private readonly url: string,
    private readonly errors: Errors,
    private readonly connectLatency: Latencies,
    private readonly lag: Latencies,
  ) {}

  open(): void {
    const input = encodeURIComponent(JSON.stringify(this.follow));
    const started = performance.now();
    this.done = this.read(`${this.url}/api/trpc/logs.follow?input=${input}`, started).catch((error) => {
      if (!this.closed) this.errors.add(`view ${JSON.stringify(this.follow)}: ${describe(error)}`);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.controller.abort();
    await this.done;
  }

  private async read(url: string, started: number): Promise<void> {
    const response = await fetch(url, { headers: { accept: "text/event-stream" }, signal: this.controller.signal });
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        this.event(buffer.slice(0, end), started);
        buffer = buffer.slice(end + 2);
      }
    }
    if (!this.closed) throw new Error("the stream ended while the view was open");
  }

  /** One SSE event: `event:` (connected, ping, serialized-error, return) or a tracked line as `data:` + `id:`. */
  private event(text: string, started: number): void {
    let event = "message";
    let data = "";
    for (const line of text.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data += line.slice(6);
    }
    switch (event) {
      case "connected":
        this.connectLatency.add(performance.now() - started);
        return;
      case "ping":
        return;
      case "message": {
        const line = JSON.parse(data) as LogLineView;
        this.lag.add(Date.now() - line.time);
        if (this.ids.has(line.id)) this.duplicates++;
        if (line.id <= this.lastId) this.outOfOrder++;
        this.lastId = Math.max(this.lastId, line.id);
        this.ids.add(line.id);
        return;
      }
      default:
        this.errors.add(`view ${JSON.stringify(this.follow)}: SSE event '${event}' ${data.slice(0, 300)}`);
    }
  }
}

interface LoadResult {
  errors: number;
  firstErrors: string[];
  latency: Record<string, ReturnType<Latencies["summary"]>>;
  tasksDone: number;
  linesProduced: number;
  linesStored: number;
  linesExpected: number;
  linesDelivered: number;
  duplicatesDelivered: number;
  lag: ReturnType<Latencies["summary"]>;
  views: { jobs: number; sessions: number };
  syncWindows: ReturnType<Windows["summary"]>;
}

/** The client side (in the worker thread): workers and views against the server, then the checks. */
async function runClients(settings: LoadSettings): Promise<LoadResult> {
  const errors = new Errors();
  const transport = httpTransport(settings.url, settings.token, settings.globalFetch);
  const connect = new Latencies();
  const lag = new Latencies();
  const sessionsQuery = new Latencies();
  const stopAt = Date.now() + settings.seconds * 1000;
  const windows = new Windows(Date.now());

  const workers = Array.from({ length: settings.workers }, (_, i) => new LoadWorker(`load-${i + 1}`, transport, settings.intervalMs, errors, windows));
  const running = workers.map((w, i) => w.run((i * settings.intervalMs) / settings.workers, stopAt).catch((error) => errors.add(`worker ${i + 1}: ${describe(error)}`)));

  // Half the views follow a job from the start, half follow one Session once work is running.
  const views: LogView[] = [];
  const jobViews = Math.ceil(settings.subscribers / 2);
  for (let i = 0; i < jobViews; i++) views.push(new LogView({ jobId: settings.jobIds[i % settings.jobIds.length]! }, settings.url, errors, connect, lag));
  for (const view of views) view.open();
  const sessionViews = settings.subscribers - jobViews;
  if (sessionViews > 0) await sleep(Math.min(1500, (settings.seconds * 1000) / 4));
  const sessions: string[] = [];
  for (const jobId of settings.jobIds) {
    if (sessions.length >= sessionViews) break;
    const started = performance.now();
    const response = await fetch(`${settings.url}/api/trpc/jobs.sessions?input=${encodeURIComponent(JSON.stringify({ jobId }))}`);
    sessionsQuery.add(performance.now() - started);
    if (!response.ok) errors.add(`jobs.sessions: HTTP ${response.status}`);
    const body = (await response.json()) as { result?: { data?: Array<{ id: string; state: string }> } };
    sessions.push(...(body.result?.data ?? []).filter((s) => s.state === "ACTIVE").map((s) => s.id));
  }
  if (sessionViews > 0 && sessions.length === 0) errors.add("no running Session to follow after the start");
  for (let i = jobViews; i < settings.subscribers && sessions.length > 0; i++) {
    const view = new LogView({ sessionId: sessions[(i - jobViews) % sessions.length]! }, settings.url, errors, connect, lag);
    views.push(view);
    view.open();
  }

  await Promise.all(running);

  // Every line is stored now: each view must receive exactly what is stored for what it follows.
  const db = new Database(settings.file, { readonly: true });
  const stored = (db.prepare("SELECT COUNT(*) AS n FROM log_lines").get() as { n: number }).n;
  const byJob = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM log_lines l JOIN sessions s ON s.id = l.session_id WHERE s.job_id = ?");
  const bySession = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM log_lines WHERE session_id = ?");
  const expected = views.map((v) => ("jobId" in v.follow ? byJob.get(v.follow.jobId)!.n : bySession.get(v.follow.sessionId)!.n));
  db.close();
  const deadline = Date.now() + CATCH_UP_MS;
  while (Date.now() < deadline && views.some((v, i) => v.ids.size < expected[i]!)) await sleep(50);
  views.forEach((v, i) => {
    if (v.ids.size !== expected[i]) errors.add(`view ${JSON.stringify(v.follow)} received ${v.ids.size} of ${expected[i]} stored lines`);
    if (v.duplicates > 0) errors.add(`view ${JSON.stringify(v.follow)} received ${v.duplicates} lines twice`);
    if (v.outOfOrder > 0) errors.add(`view ${JSON.stringify(v.follow)} received ${v.outOfOrder} lines out of order`);
  });
  await Promise.all(views.map((v) => v.close()));

  const produced = workers.reduce((n, w) => n + w.produced, 0);
  if (stored !== produced) errors.add(`${produced} lines printed, ${stored} stored`);
  return {
    errors: errors.count,
    firstErrors: errors.first,
    latency: {
      "POST /api/worker/register": transport.latency.register.summary(),
      "POST /api/worker/sync": transport.latency.sync.summary(),
      "POST /api/worker/logs": transport.latency.logs.summary(),
      "GET /api/trpc/jobs.sessions": sessionsQuery.summary(),
      "GET /api/trpc/logs.follow (to connected)": connect.summary(),
    },
    tasksDone: workers.reduce((n, w) => n + w.tasksDone, 0),
    linesProduced: produced,
    linesStored: stored,
    linesExpected: expected.reduce((a, b) => a + b, 0),
    linesDelivered: views.reduce((n, v) => n + v.ids.size, 0),
    duplicatesDelivered: views.reduce((n, v) => n + v.duplicates, 0),
    lag: lag.summary(),
    views: { jobs: jobViews, sessions: views.length - jobViews },
    syncWindows: windows.summary(),
  };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const seconds = numberFlag(args, "--seconds", 60);
  const workers = numberFlag(args, "--workers", 200);
  const subscribers = numberFlag(args, "--subscribers", 50);
  const intervalMs = numberFlag(args, "--interval-ms", 250);
  const folder = tempFolder("loom-bench-load-");
  try {
    const file = join(folder.path, "load.db");
    const bench = openBenchFarm(file, { syncIntervalSeconds: intervalMs / 1000 });
    try {
      // Enough work for the whole run: ~W/2 tasks finish per second.
      const jobIds = submitJobs(bench.farm, 10, Math.min(1000, Math.max(100, Math.ceil((workers * seconds) / 10))));
      const url = await bench.serve();
      console.log(`${workers} workers syncing every ${intervalMs} ms and ${subscribers} live log views for ${seconds} s`);
      const started = performance.now();
      const settings: LoadSettings = { url, token: bench.token, file, jobIds, seconds, workers, subscribers, intervalMs, globalFetch: args.includes("--global-fetch") };
      const result = await runInThread<LoadResult>(import.meta.url, settings);
      const wall = (performance.now() - started) / 1000;
      const counts = taskStatusCounts(bench.farm);
      for (const [endpoint, l] of Object.entries(result.latency)) console.log(`${endpoint}: ${l.count} requests, p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, max ${l.maxMs} ms`);
      console.log(`tasks: ${result.tasksDone} completed (${JSON.stringify(counts)}); log lines: ${result.linesProduced} printed, ${result.linesStored} stored, ${result.linesDelivered} of ${result.linesExpected} delivered to ${result.views.jobs} job and ${result.views.sessions} Session views (lag p50 ${result.lag.p50Ms} ms, p99 ${result.lag.p99Ms} ms)`);
      console.log(`sync latency by 10 s window: ${result.syncWindows.map((w) => `${w.fromS}s ${w.syncs} syncs p50 ${w.p50Ms} ms p99 ${w.p99Ms} ms`).join("; ")}`);
      for (const error of result.firstErrors) console.log(`error: ${error}`);
      const requests = Object.values(result.latency).reduce((n, l) => n + l.count, 0);
      console.log(
        JSON.stringify({
          workers,
          subscribers,
          seconds,
          intervalMs,
          errors: result.errors,
          requestsPerSecond: round(requests / wall, 0),
          latency: Object.fromEntries(Object.entries(result.latency).map(([k, l]) => [k, { count: l.count, p50Ms: l.p50Ms, p99Ms: l.p99Ms }])),
          tasksCompleted: result.tasksDone,
          linesPrinted: result.linesProduced,
          linesStored: result.linesStored,
          linesExpectedByViews: result.linesExpected,
          linesDelivered: result.linesDelivered,
          duplicatesDelivered: result.duplicatesDelivered,
          printToViewLagP50Ms: result.lag.p50Ms,
          printToViewLagP99Ms: result.lag.p99Ms,
          goal: { errors: 0 },
          met: result.errors === 0,
        }),
      );
      return result.errors === 0 ? 0 : 1;
    } finally {
      await bench.close();
    }
  } finally {
    folder.remove();
  }
}

if (isMainThread) process.exitCode = await main();
else parentPort!.postMessage(await runClients(workerData as LoadSettings));
