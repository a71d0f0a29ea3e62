/**
 * `npm run bench:dispatch [-- --workers W --jobs J --frames F --only http|direct]`: how fast the farm
 * hands out and completes tasks. W simulated workers (default 200) drain J no-op jobs of F tasks
 * (default 20 × 1,000): each syncs, receives an assignment, and reports RUNNING and SUCCEEDED for
 * its actions on its next sync, which also brings its next task, until every task SUCCEEDED.
 *
 * The measured path is the real one: the worker agent's HTTP client (keep-alive fetch) against
 * startNodeServer(apiHandler(farm)) over a temp-file SQLite database, clients in the same process.
 * The same run also drives the services directly on a second database (no HTTP, JSON or zod), to
 * show what the transport costs.
 *
 * The baseline, measured in the same run on each database just before its farm starts, is the
 * raw ceiling of single-row claims: a BEGIN IMMEDIATE; SELECT the next READY task of a step (the
 * dispatcher's own query and index); UPDATE it; COMMIT loop with better-sqlite3 on its own
 * connection, over the same tasks (put back to READY afterwards). The goal is HTTP claims/s at
 * least half that ceiling. Every task must end SUCCEEDED by exactly one run, or the bench fails.
 * The last line is one JSON object.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import type { SyncResponse } from "../lib/farm/protocol";
import {
  BENCH_CAPABILITIES,
  directTransport,
  exactlyOnceProblems,
  httpTransport,
  numberFlag,
  openBenchFarm,
  round,
  sleep,
  submitJobs,
  tempFolder,
  type BenchFarm,
  type Transport,
} from "./farm-bench-support";

const args = process.argv.slice(2);
const WORKERS = numberFlag(args, "--workers", 200);
const JOBS = numberFlag(args, "--jobs", 20);
const FRAMES = numberFlag(args, "--frames", 1000);
const TASKS = JOBS * FRAMES;
const GOAL = 0.5;
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
/** An idle worker (nothing left for it while the last tasks finish) asks again after this long. */
const IDLE_MS = 100;

/** Raw single-row claims over every READY task of the file, in dispatch order; claims/s. */
function claimCeiling(file: string): number {
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
    if (claims !== TASKS) throw new Error(`the ceiling loop claimed ${claims} tasks, expected ${TASKS}`);
    db.prepare("UPDATE tasks SET status = 'READY', worker_id = NULL, session_id = NULL WHERE status = 'ASSIGNED'").run();
    db.pragma("wal_checkpoint(TRUNCATE)");
    return claims / seconds;
  } finally {
    db.close();
  }
}

interface RunStats {
  claims: number;
  completions: number;
  startedAt: number;
  lastClaimAt: number;
  doneAt: number;
  /** `jobId/frame` of every TASK_RUN received: a second one is a double dispatch. */
  claimed: Set<string>;
  duplicates: string[];
  unexpected: string[];
}

/** One simulated worker: runs every action it receives at once, reporting on its next sync. */
async function simulatedWorker(transport: Transport, name: string, stats: RunStats, ready: Promise<void>): Promise<void> {
  const { workerId, leaseEpoch } = await transport.register({ name, capabilities: BENCH_CAPABILITIES });
  await ready;
  const sessions = new Set<string>();
  let updates: Array<{ actionId: string; status: "RUNNING" | "SUCCEEDED"; exitCode?: number; startedAt?: number; endedAt?: number }> = [];
  let reportedTasks = 0;
  while (stats.completions < TASKS) {
    const response: SyncResponse = await transport.sync({ workerId, leaseEpoch, sessions: [...sessions], actions: [], updates });
    stats.completions += reportedTasks;
    if (stats.completions >= TASKS && stats.doneAt === 0) stats.doneAt = performance.now();
    if (response.cancel.length > 0) stats.unexpected.push(`${name} was told to cancel ${response.cancel.join(", ")}`);
    updates = [];
    reportedTasks = 0;
    for (const assignment of response.assignments) {
      sessions.add(assignment.sessionId);
      for (const action of assignment.actions) {
        const now = Date.now();
        updates.push({ actionId: action.actionId, status: "RUNNING", startedAt: now }, { actionId: action.actionId, status: "SUCCEEDED", exitCode: 0, endedAt: now });
        if (action.kind !== "TASK_RUN") continue;
        reportedTasks++;
        stats.claims++;
        stats.lastClaimAt = performance.now();
        const key = `${assignment.job.id}/${action.parameters?.Frame?.value}`;
        if (stats.claimed.has(key)) stats.duplicates.push(key);
        stats.claimed.add(key);
      }
      if (assignment.end) sessions.delete(assignment.sessionId);
    }
    if (updates.length === 0 && response.assignments.length === 0) await sleep(IDLE_MS);
  }
}

interface RunResult {
  transport: "http" | "direct";
  seconds: number;
  claimsPerSecond: number;
  completionsPerSecond: number;
  syncs: number;
  syncP50Ms: number;
  syncP99Ms: number;
  ceilingClaimsPerSecond: number;
  ratioToCeiling: number;
}

async function run(kind: "http" | "direct", file: string): Promise<RunResult> {
  const bench: BenchFarm = openBenchFarm(file);
  try {
    submitJobs(bench.farm, JOBS, FRAMES);
    const ceiling = claimCeiling(file);
    const transport = kind === "http" ? httpTransport(await bench.serve(), bench.token) : directTransport(bench);
    const stats: RunStats = { claims: 0, completions: 0, startedAt: 0, lastClaimAt: 0, doneAt: 0, claimed: new Set(), duplicates: [], unexpected: [] };
    let start!: () => void;
    const ready = new Promise<void>((resolve) => (start = resolve));
    const workers = Array.from({ length: WORKERS }, (_, i) => simulatedWorker(transport, `bench-${i + 1}`, stats, ready));
    // Every worker registered (their promises wait on `ready`): only the dispatch is timed.
    while (transport.latency.register.count < WORKERS) await sleep(5);
    stats.startedAt = performance.now();
    start();
    await Promise.all(workers);

    const problems = [...exactlyOnceProblems(bench.farm, TASKS), ...stats.unexpected];
    if (stats.duplicates.length > 0) problems.push(`${stats.duplicates.length} tasks dispatched twice, e.g. ${stats.duplicates.slice(0, 5).join(", ")}`);
    if (stats.claims !== TASKS || stats.claimed.size !== TASKS) problems.push(`${stats.claims} claims of ${stats.claimed.size} distinct tasks, expected ${TASKS}`);
    if (stats.completions !== TASKS) problems.push(`${stats.completions} completions reported, expected ${TASKS}`);
    if (problems.length > 0) throw new Error(`${kind}: not every task SUCCEEDED exactly once:\n  ${problems.join("\n  ")}`);

    const seconds = (stats.doneAt - stats.startedAt) / 1000;
    const claimsPerSecond = stats.claims / ((stats.lastClaimAt - stats.startedAt) / 1000);
    const sync = transport.latency.sync.summary();
    const result: RunResult = {
      transport: kind,
      seconds: round(seconds, 3),
      claimsPerSecond: round(claimsPerSecond, 0),
      completionsPerSecond: round(TASKS / seconds, 0),
      syncs: sync.count,
      syncP50Ms: sync.p50Ms,
      syncP99Ms: sync.p99Ms,
      ceilingClaimsPerSecond: round(ceiling, 0),
      ratioToCeiling: round(claimsPerSecond / ceiling, 3),
    };
    console.log(
      `${kind}: ${TASKS} tasks in ${result.seconds} s — ${result.claimsPerSecond} claims/s, ${result.completionsPerSecond} completions/s, ` +
        `${sync.count} syncs p50 ${sync.p50Ms} ms p99 ${sync.p99Ms} ms max ${sync.maxMs} ms; raw claim ceiling ${result.ceilingClaimsPerSecond}/s (ratio ${result.ratioToCeiling}); every task SUCCEEDED exactly once`,
    );
    return result;
  } finally {
    await bench.close();
  }
}

const folder = tempFolder("loom-bench-dispatch-");
try {
  console.log(`${WORKERS} workers, ${JOBS} jobs × ${FRAMES} no-op tasks`);
  const direct = ONLY === "http" ? null : await run("direct", join(folder.path, "direct.db"));
  const http = ONLY === "direct" ? null : await run("http", join(folder.path, "http.db"));
  // The headline is the real path (HTTP); `--only direct` reports the services alone.
  const main = (http ?? direct)!;
  console.log(
    JSON.stringify({
      workers: WORKERS,
      tasks: TASKS,
      transport: main.transport,
      seconds: main.seconds,
      claimsPerSecond: main.claimsPerSecond,
      completionsPerSecond: main.completionsPerSecond,
      syncP50Ms: main.syncP50Ms,
      syncP99Ms: main.syncP99Ms,
      ceilingClaimsPerSecond: main.ceilingClaimsPerSecond,
      ratioToCeiling: main.ratioToCeiling,
      goal: GOAL,
      met: main.ratioToCeiling >= GOAL,
      ...(http && direct
        ? { direct: { seconds: direct.seconds, claimsPerSecond: direct.claimsPerSecond, syncP50Ms: direct.syncP50Ms, syncP99Ms: direct.syncP99Ms, ceilingClaimsPerSecond: direct.ceilingClaimsPerSecond, ratioToCeiling: direct.ratioToCeiling } }
        : {}),
    }),
  );
} finally {
  folder.remove();
}
