/**
 * `npm run bench:shield [-- --tasks N --rounds R --warmup W]`: what the task shield
 * (server/worker/task-shield.ts) costs per action. One warm Session runs N no-op tasks (`true`)
 * through the full Session runtime, once as `loom run` does and once inside the shield as a
 * worker does, with masks like a `loom serve` worker's (a data folder holding the database, two
 * token files and the Session root). The two alternate round by round in the same run. The last
 * line is one JSON object: milliseconds per task each way, the difference and the ratio.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOk } from "../lib/openjd/testing";
import { Session } from "../server/session/session";
import type { ProcessLauncher } from "../server/session/subprocess";
import { TaskShield } from "../server/worker/task-shield";
import { interleavedRounds, median } from "./interleaved-rounds";
import { numberFlag } from "./number-flag";

const args = process.argv.slice(2);
const tasksPerRound = numberFlag(args, "--tasks", 50);
const rounds = numberFlag(args, "--rounds", 5);
const warmup = numberFlag(args, "--warmup", 1);

const job = createOk({
  template: `
specificationVersion: jobtemplate-2023-09
name: bench-shield
steps:
- name: Noop
  parameterSpace:
    taskParameterDefinitions:
    - name: N
      type: INT
      range: "1-${tasksPerRound}"
  script:
    actions:
      onRun:
        command: "true"
`,
});
const step = job.steps[0]!;
const tasks = [...step.parameterSpace];

const top = realpathSync(mkdtempSync(join(tmpdir(), "loom-bench-shield-")));
const data = join(top, "data");
const sessionRoot = join(data, "sessions", "local-1");
mkdirSync(sessionRoot, { recursive: true });
for (const file of ["loom.db", "loom.db-wal", "loom.db-shm", "local-pool.token", "local-admin.token"]) writeFileSync(join(data, file), "x");

const created = TaskShield.create({ hidden: [join(data, "local-pool.token"), data], sessionRoot });
if (!(created instanceof TaskShield)) throw new Error(`the task shield is not available here: ${created.unavailable}`);
const shield = created;

/** Milliseconds for the tasks of one Session; every one must succeed. */
async function sessionRound(launcher: ProcessLauncher | undefined): Promise<number> {
  const session = await Session.start({ job, rootDirectory: sessionRoot, baseEnvironment: { PATH: "/usr/bin:/bin" }, ...(launcher ? { launcher } : {}), onEvent: () => undefined });
  const started = process.hrtime.bigint();
  for (const task of tasks) {
    if ((await session.runTask(step, task)) !== "SUCCEEDED") throw new Error(`task ${task.N!.value} failed${launcher ? " in the shield" : ""}`);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  await session.end();
  return ms;
}

try {
  const problem = await shield.probe();
  if (problem !== null) throw new Error(`the task shield does not work here: ${problem}`);
  const { baseline, measured } = await interleavedRounds(
    { rounds, warmup },
    () => sessionRound(undefined),
    () => sessionRound(shield.launcher),
    (round, bare, shielded) => console.log(`round ${round + 1}: unshielded ${(bare / tasks.length).toFixed(2)} ms/task, shielded ${(shielded / tasks.length).toFixed(2)} ms/task`),
  );
  const unshieldedMs = median(baseline) / tasks.length;
  const shieldedMs = median(measured) / tasks.length;
  console.log(
    JSON.stringify({
      tasksPerRound: tasks.length,
      rounds,
      command: "true",
      unshieldedMsPerTask: Number(unshieldedMs.toFixed(3)),
      shieldedMsPerTask: Number(shieldedMs.toFixed(3)),
      shieldCostMsPerTask: Number((shieldedMs - unshieldedMs).toFixed(3)),
      ratio: Number((shieldedMs / unshieldedMs).toFixed(2)),
    }),
  );
} finally {
  rmSync(top, { recursive: true, force: true });
}
