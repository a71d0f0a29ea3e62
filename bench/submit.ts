/**
 * `npm run bench:submit [-- --engine sqlite|postgres --rounds R --warmup W]`: submitting a
 * 100,000-task job (one step, Frame 1-1000 × Tile 1-100) into a fresh database, through the whole
 * service: template parsing and validation, job creation, the job and step rows, and every task
 * row written from the lazy parameter space. The baseline, measured in the same run on its own
 * fresh database, is the raw engine writing the same number of task rows with the same columns
 * and values. The ratio shows what the service costs over the raw engine. The last line is one
 * JSON object, with the `engine` it ran on.
 *
 * `--engine sqlite` (the default): each database is a temp file; the baseline is a bare
 * better-sqlite3 transaction inserting the rows through one prepared statement. The goal is
 * 2,000 ms.
 *
 * `--engine postgres`: each database (every round of every kind) is a fresh one on the test server
 * (LOOM_TEST_DATABASE_URL, else 127.0.0.1:5432), created before the round and dropped after it,
 * also on failure or Ctrl-C (bench/postgres-bench-support.ts withFreshDatabase); the service opens
 * it with openAsyncStore, as `loom serve` does. The baseline is node-postgres alone on its own
 * fresh, migrated database (the same tables, indexes and foreign keys): one
 * INSERT … SELECT FROM generate_series writing the same 100,000 rows (parameters text built by
 * the server), in its own transaction, after the same job and step rows. The goal is 4,000 ms.
 *
 * `farmMs` is the same job through submitToFarm, the path the server takes: checked and walked on
 * a check thread, written in short slices with the event loop free between them (slower in total,
 * never a stall); `farmStallMs` is the longest the event loop was held meanwhile.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { checkPool } from "../server/checks/check-pool";
import { openStore } from "../server/db/connection";
import { createFarm } from "../server/context/farm";
import { submitJob, submitToFarm } from "../server/services/submit-job";
import type { AsyncStore } from "../server/store/engine/engine";
import { openAsyncStore } from "../server/store/engine/open-store";
import { postgresPlaceholders } from "../server/store/engine/placeholders";
import { interleavedRounds, median } from "./interleaved-rounds";
import { engineFlag, numberFlag } from "./number-flag";
import { withFreshDatabase } from "./postgres-bench-support";

const args = process.argv.slice(2);
const engine = engineFlag(args);
const rounds = numberFlag(args, "--rounds", 3);
const warmup = numberFlag(args, "--warmup", 1);
const FRAMES = 1000;
const TILES = 100;
const TASKS = FRAMES * TILES;
const GOAL_MS = engine === "sqlite" ? 2000 : 4000;

const TEMPLATE = `specificationVersion: jobtemplate-2023-09
name: bench
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-${FRAMES}"
    - name: Tile
      type: INT
      range: "1-${TILES}"
  script:
    actions:
      onRun:
        command: echo
        args: ["{{Task.Param.Frame}}", "{{Task.Param.Tile}}"]
`;

const root = mkdtempSync(join(tmpdir(), "loom-bench-submit-"));
let databases = 0;

/** Runs `work` on a fresh database of the engine: a temp file, or a PostgreSQL database dropped afterwards. */
function onFreshDatabase<T>(work: (target: string) => Promise<T>): Promise<T> {
  return engine === "sqlite" ? work(join(root, `bench-${++databases}.db`)) : withFreshDatabase("loom_bench_submit", work);
}

/** Runs `work` on the farm's store over a fresh database, closed afterwards. */
function onFreshStore<T>(work: (store: AsyncStore) => Promise<T>): Promise<T> {
  return onFreshDatabase(async (target) => {
    const store = engine === "sqlite" ? openStore(target) : await openAsyncStore(target);
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  });
}

async function submitRound(): Promise<number> {
  return onFreshStore(async (store) => {
    const started = process.hrtime.bigint();
    const result = await submitJob(store, { template: { text: TEMPLATE, format: "yaml" }, parameterValues: {}, templateDir: root, workingDir: root, now: Date.now() });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!result.ok) throw new Error(`submission failed: ${JSON.stringify(result.errors)}`);
    const { n } = (await store.read((tx) => tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM tasks")))!;
    if (n !== TASKS) throw new Error(`expected ${TASKS} task rows, found ${n}`);
    return ms;
  });
}

async function farmRound(): Promise<{ ms: number; stallMs: number }> {
  return onFreshStore(async (store) => {
    const lag = monitorEventLoopDelay({ resolution: 10 });
    const farm = createFarm(store);
    lag.enable();
    const started = process.hrtime.bigint();
    const result = await submitToFarm(farm, { template: { text: TEMPLATE, format: "yaml" }, parameterValues: {}, templateDir: root, workingDir: root, now: Date.now() });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    lag.disable();
    if (!result.ok) throw new Error(`submission failed: ${JSON.stringify(result.errors)}`);
    return { ms, stallMs: lag.max / 1e6 };
  });
}

/** The job and step rows the baseline's tasks point at (foreign keys). */
const BASELINE_JOB =
  "INSERT INTO jobs (id, seq, name, template_text, template_format, environment_templates, parameters, priority, status, task_count, max_retries_per_task, max_failed_tasks, submitted_at) VALUES ('job-baselinexx', 1, 'bench', '', 'yaml', '[]', '{}', 50, 'READY', ?, 2, 100, 0)";
const BASELINE_STEP =
  "INSERT INTO steps (id, job_id, step_index, name, dependencies, environment_stack, status, task_count) VALUES ('job-baselinexx:0', 'job-baselinexx', 0, 'Render', '[]', '[]', 'READY', ?)";

/** The same rows the service writes, with the job and step rows in place for the foreign keys. */
async function sqliteBaselineRound(): Promise<number> {
  const store = openStore(join(root, `bench-${++databases}.db`));
  const { sqlite } = store;
  try {
    sqlite.prepare(BASELINE_JOB).run(TASKS);
    sqlite.prepare(BASELINE_STEP).run(TASKS);
    const started = process.hrtime.bigint();
    sqlite.transaction(() => {
      const insert = sqlite.prepare("INSERT INTO tasks (job_id, step_id, task_index, parameters, status) VALUES (?, ?, ?, ?, ?)");
      for (let i = 0; i < TASKS; i++) {
        const parameters = `{"Frame":{"type":"INT","value":"${Math.floor(i / TILES) + 1}"},"Tile":{"type":"INT","value":"${(i % TILES) + 1}"}}`;
        insert.run("job-baselinexx", "job-baselinexx:0", i, parameters, "READY");
      }
    })();
    return Number(process.hrtime.bigint() - started) / 1e6;
  } finally {
    await store.close();
  }
}

/** The same rows, parameters text and all, built and inserted by PostgreSQL in one statement. */
const RAW_TASKS = `INSERT INTO tasks (job_id, step_id, task_index, parameters, status)
  SELECT 'job-baselinexx', 'job-baselinexx:0', i,
    '{"Frame":{"type":"INT","value":"' || (i / ${TILES} + 1) || '"},"Tile":{"type":"INT","value":"' || (i % ${TILES} + 1) || '"}}', 'READY'
  FROM generate_series(0, $1::integer - 1) AS i`;

async function postgresBaselineRound(): Promise<number> {
  return withFreshDatabase("loom_bench_submit", async (url) => {
    // The farm's schema, migrated as the service's database is.
    await (await openAsyncStore(url)).close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(postgresPlaceholders(BASELINE_JOB), [TASKS]);
      await client.query(postgresPlaceholders(BASELINE_STEP), [TASKS]);
      const started = process.hrtime.bigint();
      const { rowCount } = await client.query(RAW_TASKS, [TASKS]);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (rowCount !== TASKS) throw new Error(`the baseline wrote ${rowCount} task rows, expected ${TASKS}`);
      return ms;
    } finally {
      await client.end();
    }
  });
}

try {
  const baselineRound = engine === "sqlite" ? sqliteBaselineRound : postgresBaselineRound;
  const { baseline, measured: submit } = await interleavedRounds({ rounds, warmup }, baselineRound, submitRound, (round, raw, service) =>
    console.log(`round ${round + 1}: raw insert ${raw.toFixed(0)} ms, submitJob ${service.toFixed(0)} ms`),
  );
  const submitMs = median(submit);
  const baselineMs = median(baseline);
  const ratio = submitMs / baselineMs;
  await farmRound(); // starts the check thread
  const farm: Array<{ ms: number; stallMs: number }> = [];
  for (let round = 0; round < rounds; round++) {
    farm.push(await farmRound());
    console.log(`round ${round + 1}: submitToFarm ${farm.at(-1)!.ms.toFixed(0)} ms, longest event loop stall ${farm.at(-1)!.stallMs.toFixed(0)} ms`);
  }
  console.log(
    JSON.stringify({
      engine,
      tasks: TASKS,
      submitMs: Number(submitMs.toFixed(1)),
      baselineMs: Number(baselineMs.toFixed(1)),
      ratio: Number(ratio.toFixed(2)),
      goalMs: GOAL_MS,
      met: submitMs <= GOAL_MS,
      farmMs: Number(median(farm.map((f) => f.ms)).toFixed(1)),
      farmStallMs: Number(Math.max(...farm.map((f) => f.stallMs)).toFixed(1)),
    }),
  );
} finally {
  await checkPool().close();
  rmSync(root, { recursive: true, force: true });
}
