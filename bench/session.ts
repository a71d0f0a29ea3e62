/**
 * `npm run bench:session [-- --tasks N --rounds R --warmup W]`: the per-task overhead of a warm
 * Session. One Session enters a job environment (with variables, so every task gets a layered
 * process environment) and runs N trivial tasks (`echo` of the task's frame) through the full
 * path: format strings resolved, subprocess in its own process group, output lines parsed for
 * openjd_* messages and redaction, events emitted. The baseline, measured in the same run and
 * interleaved round by round, is a bare `child_process.spawn` of the same command with its output
 * piped and read to the end. The goal is a ratio of at most 1.3. The last line is one JSON object.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOk } from "../lib/openjd/testing";
import type { SessionEvent } from "../server/session/events";
import { stackFor } from "../server/session/run-job";
import { Session } from "../server/session/session";
import { interleavedRounds, median } from "./interleaved-rounds";
import { numberFlag } from "./number-flag";

const args = process.argv.slice(2);
const tasksPerRound = numberFlag(args, "--tasks", 100);
const rounds = numberFlag(args, "--rounds", 5);
const warmup = numberFlag(args, "--warmup", 1);

const job = createOk({
  template: `
specificationVersion: jobtemplate-2023-09
name: bench
jobEnvironments:
- name: Farm
  variables:
    RENDERER: bench
    OUTPUT_ROOT: /tmp/out
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-${tasksPerRound}"
  script:
    actions:
      onRun:
        command: echo
        args: ["frame {{Task.Param.Frame}}"]
`,
});
const step = job.steps[0]!;
const tasks = [...step.parameterSpace];
const root = mkdtempSync(join(tmpdir(), "loom-bench-session-"));

function bareSpawn(frame: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("echo", [`frame ${frame}`], { stdio: ["ignore", "pipe", "pipe"], cwd: root, env: process.env });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => (code === 0 && out.startsWith("frame") ? resolve() : reject(new Error(`echo exited ${code}`))));
  });
}

async function baselineRound(): Promise<number> {
  const started = process.hrtime.bigint();
  for (const task of tasks) await bareSpawn(task.Frame!.value);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Milliseconds for the tasks of one warm Session; every task's output line must arrive. */
async function sessionRound(): Promise<number> {
  let lines = 0;
  const onEvent = (event: SessionEvent) => {
    if (event.type === "log" && event.line.startsWith("frame ")) lines++;
  };
  const session = await Session.start({ job, rootDirectory: root, onEvent });
  for (const entry of stackFor(job, step)) if ((await session.enter(entry)) !== "SUCCEEDED") throw new Error("entering failed");
  // Warm: the environment is entered; only the tasks are timed.
  const started = process.hrtime.bigint();
  for (const task of tasks) {
    if ((await session.runTask(step, task)) !== "SUCCEEDED") throw new Error(`task ${task.Frame!.value} failed`);
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  for (const entry of [...session.entered].reverse()) await session.exit(entry.id);
  await session.end();
  if (lines !== tasks.length) throw new Error(`expected ${tasks.length} task output lines, saw ${lines}`);
  return ms;
}

try {
  const { baseline, measured: session } = await interleavedRounds({ rounds, warmup }, baselineRound, sessionRound, (round, bare, warm) =>
    console.log(`round ${round + 1}: bare spawn ${(bare / tasks.length).toFixed(2)} ms/task, warm Session ${(warm / tasks.length).toFixed(2)} ms/task`),
  );
  const bareMs = median(baseline) / tasks.length;
  const sessionMs = median(session) / tasks.length;
  const ratio = sessionMs / bareMs;
  console.log(
    JSON.stringify({
      tasksPerRound: tasks.length,
      rounds,
      command: "echo",
      bareSpawnMsPerTask: Number(bareMs.toFixed(3)),
      sessionMsPerTask: Number(sessionMs.toFixed(3)),
      overheadMsPerTask: Number((sessionMs - bareMs).toFixed(3)),
      ratioToBareSpawn: Number(ratio.toFixed(2)),
      goal: 1.3,
      met: ratio <= 1.3,
    }),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
