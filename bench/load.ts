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
import { httpTransport, Latencies, LatencyWindows, openBenchFarm, round, runInThread, RunErrors, sleep, submitJobs, taskStatusCounts, tempFolder } from "./farm-bench-support";
import { LoadWorker } from "./load-worker";
import { LogView } from "./log-view";
import { numberFlag } from "./number-flag";

interface LoadSettings {
  url: string;
  /** The pool's enrollment token. */
  token: string;
  /** An admin's personal access token: the live views and tRPC queries send it. */
  adminToken: string;
  file: string;
  jobIds: string[];
  seconds: number;
  workers: number;
  subscribers: number;
  intervalMs: number;
  globalFetch: boolean;
}

/** How long views may take to receive the last lines once the workers stopped. */
const CATCH_UP_MS = 15_000;

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
  syncWindows: ReturnType<LatencyWindows["summary"]>;
}

/** The client side (in the worker thread): workers and views against the server, then the checks. */
async function runClients(settings: LoadSettings): Promise<LoadResult> {
  const errors = new RunErrors();
  const transport = httpTransport(settings.url, settings.token, settings.globalFetch);
  const connect = new Latencies();
  const lag = new Latencies();
  const sessionsQuery = new Latencies();
  const stopAt = Date.now() + settings.seconds * 1000;
  const windows = new LatencyWindows(Date.now());

  const workers = Array.from({ length: settings.workers }, (_, i) => new LoadWorker(`load-${i + 1}`, transport, settings.intervalMs, errors, windows));
  const running = workers.map((w, i) => w.run((i * settings.intervalMs) / settings.workers, stopAt).catch((error) => errors.add(`worker ${i + 1}`, error)));

  // Half the views follow a job from the start, half follow one Session once work is running.
  const views: LogView[] = [];
  const jobViews = Math.ceil(settings.subscribers / 2);
  for (let i = 0; i < jobViews; i++) views.push(new LogView({ jobId: settings.jobIds[i % settings.jobIds.length]! }, settings.url, settings.adminToken, errors, connect, lag));
  for (const view of views) view.open();
  const sessionViews = settings.subscribers - jobViews;
  if (sessionViews > 0) await sleep(Math.min(1500, (settings.seconds * 1000) / 4));
  const sessions: string[] = [];
  for (const jobId of settings.jobIds) {
    if (sessions.length >= sessionViews) break;
    const started = performance.now();
    const response = await fetch(`${settings.url}/api/trpc/jobs.sessions?input=${encodeURIComponent(JSON.stringify({ jobId }))}`, {
      headers: { authorization: `Bearer ${settings.adminToken}` },
    });
    sessionsQuery.add(performance.now() - started);
    if (!response.ok) errors.add(`jobs.sessions: HTTP ${response.status}`);
    const body = (await response.json()) as { result?: { data?: Array<{ id: string; state: string }> } };
    sessions.push(...(body.result?.data ?? []).filter((s) => s.state === "ACTIVE").map((s) => s.id));
  }
  if (sessionViews > 0 && sessions.length === 0) errors.add("no running Session to follow after the start");
  for (let i = jobViews; i < settings.subscribers && sessions.length > 0; i++) {
    const view = new LogView({ sessionId: sessions[(i - jobViews) % sessions.length]! }, settings.url, settings.adminToken, errors, connect, lag);
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
    // Every view is the one admin's: the per-user stream limit must not refuse the views the run asks for.
    const bench = await openBenchFarm(file, { syncIntervalSeconds: intervalMs / 1000, maxStreamsPerUser: Math.max(32, subscribers) });
    try {
      // Enough work for the whole run: ~W/2 tasks finish per second.
      const jobIds = await submitJobs(bench.farm, 10, Math.min(1000, Math.max(100, Math.ceil((workers * seconds) / 10))));
      const url = await bench.serve();
      console.log(`${workers} workers syncing every ${intervalMs} ms and ${subscribers} live log views for ${seconds} s`);
      const started = performance.now();
      const settings: LoadSettings = { url, token: bench.token, adminToken: bench.adminToken, file, jobIds, seconds, workers, subscribers, intervalMs, globalFetch: args.includes("--global-fetch") };
      const result = await runInThread<LoadResult>(import.meta.url, settings);
      const wall = (performance.now() - started) / 1000;
      const counts = await taskStatusCounts(bench.farm);
      for (const [endpoint, l] of Object.entries(result.latency)) console.log(`${endpoint}: ${l.count} requests, p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, max ${l.maxMs} ms`);
      console.log(
        `tasks: ${result.tasksDone} completed (${JSON.stringify(counts)}); log lines: ${result.linesProduced} printed, ${result.linesStored} stored, ${result.linesDelivered} of ${result.linesExpected} delivered to ${result.views.jobs} job and ${result.views.sessions} Session views (lag p50 ${result.lag.p50Ms} ms, p99 ${result.lag.p99Ms} ms)`,
      );
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
