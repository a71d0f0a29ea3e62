/**
 * `npm run bench:submit [-- --rounds R --warmup W]`: submitting a 100,000-task job (one step,
 * Frame 1-1000 × Tile 1-100) into a fresh temp-file database, through the whole service:
 * template parsing and validation, job creation, the job and step rows, and every task row
 * written from the lazy parameter space. The baseline, measured in the same run on its own fresh
 * database, is a bare better-sqlite3 transaction inserting the same number of task rows with the
 * same columns through one prepared statement. The goal is 2,000 ms; the ratio shows what the
 * service costs over raw SQLite. The last line is one JSON object.
 *
 * `farmMs` is the same job through submitToFarm, the path the server takes: checked and walked on
 * a check thread, written in short slices with the event loop free between them (slower in total,
 * never a stall); `farmStallMs` is the longest the event loop was held meanwhile.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { checkPool } from "../server/checks/check-pool";
import { openStore } from "../server/db/connection";
import { createFarm } from "../server/context/farm";
import { submitJob, submitToFarm } from "../server/services/submit-job";
import { interleavedRounds, median } from "./interleaved-rounds";
import { numberFlag } from "./number-flag";

const args = process.argv.slice(2);
const rounds = numberFlag(args, "--rounds", 3);
const warmup = numberFlag(args, "--warmup", 1);
const FRAMES = 1000;
const TILES = 100;
const TASKS = FRAMES * TILES;
const GOAL_MS = 2000;

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
const freshStore = () => openStore(join(root, `bench-${++databases}.db`));

async function submitRound(): Promise<number> {
  const store = freshStore();
  try {
    const started = process.hrtime.bigint();
    const result = await submitJob(store, { template: { text: TEMPLATE, format: "yaml" }, parameterValues: {}, templateDir: root, workingDir: root, now: Date.now() });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (!result.ok) throw new Error(`submission failed: ${JSON.stringify(result.errors)}`);
    const { n } = store.sqlite.prepare("SELECT COUNT(*) AS n FROM tasks").get() as { n: number };
    if (n !== TASKS) throw new Error(`expected ${TASKS} task rows, found ${n}`);
    return ms;
  } finally {
    await store.close();
  }
}

async function farmRound(): Promise<{ ms: number; stallMs: number }> {
  const store = freshStore();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  try {
    const farm = createFarm(store);
    lag.enable();
    const started = process.hrtime.bigint();
    const result = await submitToFarm(farm, { template: { text: TEMPLATE, format: "yaml" }, parameterValues: {}, templateDir: root, workingDir: root, now: Date.now() });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    lag.disable();
    if (!result.ok) throw new Error(`submission failed: ${JSON.stringify(result.errors)}`);
    return { ms, stallMs: lag.max / 1e6 };
  } finally {
    await store.close();
  }
}

/** The same rows the service writes, with the job and step rows in place for the foreign keys. */
async function baselineRound(): Promise<number> {
  const store = freshStore();
  const { sqlite } = store;
  try {
    sqlite
      .prepare(
        "INSERT INTO jobs (id, seq, name, template_text, template_format, environment_templates, parameters, priority, status, task_count, max_retries_per_task, max_failed_tasks, submitted_at) VALUES ('job-baselinexx', 1, 'bench', '', 'yaml', '[]', '{}', 50, 'READY', ?, 2, 100, 0)",
      )
      .run(TASKS);
    sqlite
      .prepare(
        "INSERT INTO steps (id, job_id, step_index, name, dependencies, environment_stack, status, task_count) VALUES ('job-baselinexx:0', 'job-baselinexx', 0, 'Render', '[]', '[]', 'READY', ?)",
      )
      .run(TASKS);
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

try {
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
