/**
 * `npm run bench:dispatch [-- --engine sqlite|postgres --replicas N --workers W --jobs J --frames F --tiles T --only http|direct --inline-clients --global-fetch]`:
 * how fast the farm hands out and completes tasks. W simulated workers (default 200) drain J
 * no-op jobs of F × T tasks (default 20 × 1,000): each syncs, receives an assignment, and reports
 * RUNNING and SUCCEEDED for its actions on its next sync, which also brings its next task, until
 * every task SUCCEEDED.
 *
 * The measured path is the real one: the worker agent's HTTP client (WorkerClient, over a
 * keep-alive node:http agent; `--global-fetch` for undici's fetch) against
 * startNodeServer(apiHandler(farm)) over a temp-file SQLite database. The simulated workers run
 * in a worker thread of this process, so the server's event loop carries only the server (as with
 * workers on other machines); `--inline-clients` puts them on the server's thread instead. The
 * same run also drives the services directly on a second database (no HTTP, JSON or zod), to show
 * what the transport costs.
 *
 * The baseline, measured on each database just before its farm starts, is the raw ceiling of
 * single-row claims: a BEGIN IMMEDIATE; SELECT the next READY task of a step (the dispatcher's
 * own query and index); UPDATE it; COMMIT loop with better-sqlite3 on its own connection, over
 * the same tasks (put back to READY afterwards). The goal is HTTP claims/s at least half that
 * ceiling. Every task must end SUCCEEDED by exactly one run, or the bench fails. The last line is
 * one JSON object, with the `engine` and `replicas` it ran on.
 *
 * `--engine postgres` (default sqlite, as above): each run (direct, HTTP) gets a fresh database
 * on the test server (LOOM_TEST_DATABASE_URL, else 127.0.0.1:5432), dropped when it ends, also on
 * failure or Ctrl-C; the farm opens it with openAsyncStore, as `loom serve` does. Its ceiling is
 * node-postgres on connections of its own: BEGIN; SELECT … FOR UPDATE SKIP LOCKED (one row);
 * UPDATE it to ASSIGNED; COMMIT, over every READY task in dispatch order (bench/postgres-bench-support.ts).
 * `--replicas N` (PostgreSQL only, default 1): N farm servers in this process, each on a store of
 * its own over the same database, with its own HTTP server, sweep loop and replication
 * (startReplication: shared events, one leader); the simulated workers split evenly between them
 * (each registers with the next one in turn and stays there). The direct run splits them the
 * same way between N direct transports. With N replicas the ceiling runs N claim loops on N
 * connections at once (the same tasks, SKIP LOCKED between them) and reports their combined
 * rate: the raw figure the N replicas together are compared with (`ceilingConnections`).
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { isMainThread, parentPort, workerData } from "node:worker_threads";
import type { SyncResponse } from "../lib/farm/protocol";
import {
  benchRegistration,
  directTransport,
  exactlyOnceProblems,
  httpTransport,
  openBenchFarm,
  round,
  runInThread,
  sleep,
  submitJobs,
  taskKey,
  tempFolder,
  type BenchFarm,
  type Transport,
} from "./farm-bench-support";
import { engineFlag, numberFlag } from "./number-flag";
import type { Engine } from "../server/store/engine/engine";
import { openPostgresBenchFarms, postgresClaimCeiling, splitTransport, withFreshDatabase } from "./postgres-bench-support";

const GOAL = 0.5;
/** An idle worker (nothing left for it while the last tasks finish) asks again after this long. */
const IDLE_MS = 100;
/** No task completed for this long: the farm lost work (a task stuck ASSIGNED or READY forever). */
const STALL_MS = 30_000;

interface FleetOptions {
  workers: number;
  tasks: number;
}

interface FleetResult {
  seconds: number;
  claims: number;
  claimSeconds: number;
  completions: number;
  distinctTasks: number;
  duplicates: string[];
  unexpected: string[];
  syncs: { count: number; p50Ms: number; p99Ms: number; maxMs: number };
}

/**
 * The simulated workers: all register (each gets its credential), then (timed from here) each runs every action it receives
 * at once and reports it on its next sync, until every task was reported SUCCEEDED.
 */
async function runFleet(transport: Transport, options: FleetOptions): Promise<FleetResult> {
  const leases = await Promise.all(Array.from({ length: options.workers }, (_, i) => transport.register(benchRegistration(`bench-${i + 1}`))));
  const claimed = new Set<string>();
  const duplicates: string[] = [];
  const unexpected: string[] = [];
  let claims = 0;
  let completions = 0;
  let lastClaimAt = 0;
  let doneAt = 0;
  const startedAt = performance.now();
  let progressAt = startedAt;

  async function worker({ workerId, leaseEpoch, credential }: { workerId: string; leaseEpoch: number; credential: string }): Promise<void> {
    const sessions = new Set<string>();
    let updates: Array<{ actionId: string; status: "RUNNING" | "SUCCEEDED"; exitCode?: number; startedAt?: number; endedAt?: number }> = [];
    let reportedTasks = 0;
    while (completions < options.tasks) {
      const response: SyncResponse = await transport.sync(credential, { workerId, leaseEpoch, sessions: [...sessions], actions: [], updates });
      completions += reportedTasks;
      if (reportedTasks > 0) progressAt = performance.now();
      else if (performance.now() - progressAt > STALL_MS) throw new Error(`stalled: ${completions} of ${options.tasks} tasks completed, none for ${STALL_MS / 1000} s`);
      if (completions >= options.tasks && doneAt === 0) doneAt = performance.now();
      if (response.cancel.length > 0) unexpected.push(`${workerId} was told to cancel ${response.cancel.join(", ")}`);
      updates = [];
      reportedTasks = 0;
      for (const assignment of response.assignments) {
        sessions.add(assignment.sessionId);
        for (const action of assignment.actions) {
          const now = Date.now();
          updates.push({ actionId: action.actionId, status: "RUNNING", startedAt: now }, { actionId: action.actionId, status: "SUCCEEDED", exitCode: 0, endedAt: now });
          if (action.kind !== "TASK_RUN") continue;
          reportedTasks++;
          claims++;
          lastClaimAt = performance.now();
          const key = taskKey(assignment.job.id, action.parameters);
          if (claimed.has(key)) duplicates.push(key);
          claimed.add(key);
        }
        if (assignment.end) sessions.delete(assignment.sessionId);
      }
      if (updates.length === 0) await sleep(IDLE_MS);
    }
  }

  await Promise.all(leases.map(worker));
  return {
    seconds: (doneAt - startedAt) / 1000,
    claims,
    claimSeconds: (lastClaimAt - startedAt) / 1000,
    completions,
    distinctTasks: claimed.size,
    duplicates,
    unexpected,
    syncs: transport.latency.sync.summary(),
  };
}

/** Raw single-row claims over every READY task of the file, in dispatch order; claims/s. */
function claimCeiling(file: string, tasks: number): number {
  const db = new Database(file);
  try {
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    const steps = db.prepare<[], { id: string }>("SELECT s.id FROM steps s JOIN jobs j ON j.id = s.job_id ORDER BY j.priority DESC, j.seq, s.step_index").all();
    const begin = db.prepare("BEGIN IMMEDIATE");
    const commit = db.prepare("COMMIT");
    const next = db.prepare<[string], { id: number }>("SELECT id FROM tasks WHERE step_id = ? AND status = 'READY' ORDER BY task_index LIMIT 1");
    const claim = db.prepare<[string, string, number]>("UPDATE tasks SET status = 'ASSIGNED', worker_id = ?, session_id = ? WHERE id = ?");
    let claims = 0;
    const started = performance.now();
    for (const step of steps) {
      for (;;) {
        begin.run();
        const task = next.get(step.id);
        if (task) claim.run("worker-ceiling", "session-ceiling", task.id);
        commit.run();
        if (!task) break;
        claims++;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    if (claims !== tasks) throw new Error(`the ceiling loop claimed ${claims} tasks, expected ${tasks}`);
    db.prepare("UPDATE tasks SET status = 'READY', worker_id = NULL, session_id = NULL WHERE status = 'ASSIGNED'").run();
    db.pragma("wal_checkpoint(TRUNCATE)");
    return claims / seconds;
  } finally {
    db.close();
  }
}

interface RunResult {
  transport: string;
  seconds: number;
  claimsPerSecond: number;
  completionsPerSecond: number;
  syncP50Ms: number;
  syncP99Ms: number;
  ceilingClaimsPerSecond: number;
  ratioToCeiling: number;
}

interface Settings extends FleetOptions {
  engine: Engine;
  replicas: number;
  globalFetch: boolean;
  jobs: number;
  frames: number;
  tiles: number;
}

type Kind = "http" | "http-inline" | "direct";

/** One run on a database of its own: a temp SQLite file, or a fresh PostgreSQL database dropped at its end. */
function run(kind: Kind, file: string, settings: Settings): Promise<RunResult> {
  if (settings.engine === "sqlite") return openBenchFarm(file).then((bench) => measure(kind, [bench], () => Promise.resolve(claimCeiling(file, settings.tasks)), settings));
  return withFreshDatabase("loom_bench_dispatch", async (url) => {
    const farms = await openPostgresBenchFarms(url, settings.replicas);
    return measure(kind, farms, () => postgresClaimCeiling(url, settings.tasks, settings.replicas), settings);
  });
}

/** Submits the jobs through the first farm, measures the ceiling, drains the jobs through all of them, checks, closes them all. */
async function measure(kind: Kind, farms: BenchFarm[], ceilingOf: () => Promise<number>, settings: Settings): Promise<RunResult> {
  const bench = farms[0]!;
  try {
    await submitJobs(bench.farm, settings.jobs, settings.frames, settings.tiles);
    const ceiling = await ceilingOf();
    let fleet: FleetResult;
    if (kind === "direct") fleet = await runFleet(splitTransport(farms.map(directTransport)), settings);
    else {
      const urls: string[] = [];
      for (const farm of farms) urls.push(await farm.serve());
      fleet =
        kind === "http-inline"
          ? await runFleet(splitTransport(urls.map((url) => httpTransport(url, bench.token, settings.globalFetch))), settings)
          : await runInThread<FleetResult>(import.meta.url, { urls, token: bench.token, globalFetch: settings.globalFetch, options: { workers: settings.workers, tasks: settings.tasks } });
    }

    const problems = [...(await exactlyOnceProblems(bench.farm, settings.tasks)), ...fleet.unexpected];
    if (fleet.duplicates.length > 0) problems.push(`${fleet.duplicates.length} tasks dispatched twice, e.g. ${fleet.duplicates.slice(0, 5).join(", ")}`);
    if (fleet.claims !== settings.tasks || fleet.distinctTasks !== settings.tasks) problems.push(`${fleet.claims} claims of ${fleet.distinctTasks} distinct tasks, expected ${settings.tasks}`);
    if (fleet.completions !== settings.tasks) problems.push(`${fleet.completions} completions reported, expected ${settings.tasks}`);
    if (problems.length > 0) throw new Error(`${kind}: not every task SUCCEEDED exactly once:\n  ${problems.join("\n  ")}`);

    const claimsPerSecond = fleet.claims / fleet.claimSeconds;
    const result: RunResult = {
      transport: kind,
      seconds: round(fleet.seconds, 3),
      claimsPerSecond: round(claimsPerSecond, 0),
      completionsPerSecond: round(fleet.completions / fleet.seconds, 0),
      syncP50Ms: fleet.syncs.p50Ms,
      syncP99Ms: fleet.syncs.p99Ms,
      ceilingClaimsPerSecond: round(ceiling, 0),
      ratioToCeiling: round(claimsPerSecond / ceiling, 3),
    };
    console.log(
      `${kind}: ${settings.tasks} tasks in ${result.seconds} s — ${result.claimsPerSecond} claims/s, ${result.completionsPerSecond} completions/s, ` +
        `${fleet.syncs.count} syncs p50 ${fleet.syncs.p50Ms} ms p99 ${fleet.syncs.p99Ms} ms max ${fleet.syncs.maxMs} ms; ` +
        `raw claim ceiling ${result.ceilingClaimsPerSecond}/s (ratio ${result.ratioToCeiling}); every task SUCCEEDED exactly once`,
    );
    return result;
  } finally {
    for (const farm of [...farms].reverse()) await farm.close();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
  const jobs = numberFlag(args, "--jobs", 20);
  const frames = numberFlag(args, "--frames", 1000);
  const tiles = numberFlag(args, "--tiles", 1);
  const engine = engineFlag(args);
  const replicas = numberFlag(args, "--replicas", 1);
  if (!Number.isInteger(replicas) || replicas < 1 || (engine === "sqlite" && replicas !== 1)) {
    console.error("--replicas is a whole number from 1, and 1 on SQLite (one server per database file)");
    process.exit(2);
  }
  const settings: Settings = {
    engine,
    replicas,
    workers: numberFlag(args, "--workers", 200),
    jobs,
    frames,
    tiles,
    tasks: jobs * frames * tiles,
    globalFetch: args.includes("--global-fetch"),
  };
  const httpKind = args.includes("--inline-clients") ? "http-inline" : "http";
  const folder = tempFolder("loom-bench-dispatch-");
  try {
    console.log(`${settings.workers} workers, ${jobs} jobs × ${frames * tiles} no-op tasks, ${engine}${engine === "postgres" ? `, ${replicas} replica${replicas === 1 ? "" : "s"}` : ""}`);
    const direct = only === "http" ? null : await run("direct", join(folder.path, "direct.db"), settings);
    const http = only === "direct" ? null : await run(httpKind, join(folder.path, "http.db"), settings);
    // The headline is the real path (HTTP); `--only direct` reports the services alone.
    const headline = (http ?? direct)!;
    console.log(
      JSON.stringify({
        engine,
        replicas,
        workers: settings.workers,
        tasks: settings.tasks,
        transport: headline.transport,
        seconds: headline.seconds,
        claimsPerSecond: headline.claimsPerSecond,
        completionsPerSecond: headline.completionsPerSecond,
        syncP50Ms: headline.syncP50Ms,
        syncP99Ms: headline.syncP99Ms,
        ceilingClaimsPerSecond: headline.ceilingClaimsPerSecond,
        ...(engine === "postgres" ? { ceilingConnections: replicas } : {}),
        ratioToCeiling: headline.ratioToCeiling,
        goal: GOAL,
        met: headline.ratioToCeiling >= GOAL,
        ...(http && direct
          ? {
              direct: {
                seconds: direct.seconds,
                claimsPerSecond: direct.claimsPerSecond,
                syncP50Ms: direct.syncP50Ms,
                syncP99Ms: direct.syncP99Ms,
                ceilingClaimsPerSecond: direct.ceilingClaimsPerSecond,
                ratioToCeiling: direct.ratioToCeiling,
              },
            }
          : {}),
      }),
    );
  } finally {
    folder.remove();
  }
}

if (isMainThread) await main();
else {
  // The client thread: the simulated workers over HTTP, reporting their figures to the main thread.
  const { urls, token, globalFetch, options } = workerData as { urls: string[]; token: string; globalFetch: boolean; options: FleetOptions };
  parentPort!.postMessage(await runFleet(splitTransport(urls.map((url) => httpTransport(url, token, globalFetch))), options));
}
