/**
 * Fault tests of the farm (issue 5 acceptance, DESIGN "Nothing acknowledged is ever lost"):
 * a worker killed with SIGKILL mid-task, a worker frozen past its timeout that comes back with a
 * stale report, and the server killed with SIGKILL with tasks in flight. Workers and the server
 * are real processes; tasks are real subprocesses.
 *
 * A task runs in its own process group, so nothing signals it when its worker is killed with
 * SIGKILL but the worker's reaper (server/worker/reaper.ts); the tests check it dies with its
 * worker, find processes by the worker's tag in their environment, and compare a completion file
 * written by the task (executions) with the farm's own record (TASK_RUN actions: completions).
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hashSecret, newSecret } from "../auth/secrets";
import {
  doubleCompletions,
  FarmHarness,
  fileLines,
  freePort,
  localAdminClient,
  processesWithEnv,
  python,
  sleep,
  submitTemplate,
  taskRuns,
  waitFor,
  waitForJobEnd,
  waitForWorkers,
  WORKER_TAG,
  type InProcessFarm,
} from "./farm-harness";

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** Notes its start (with the worker that runs it), sleeps, then appends its index to completions.log. */
const SLEEPER = `
import os, sys, time
d, n, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
with open(os.path.join(d, "starts.log"), "a") as f:
    f.write("%s %s\\n" % (n, os.environ.get("${WORKER_TAG}", "?")))
time.sleep(seconds)
with open(os.path.join(d, "completions.log"), "a") as f:
    f.write(n + "\\n")
`;

function sleeperJob(tasks: number, seconds: number) {
  return {
    specificationVersion: "jobtemplate-2023-09",
    name: "Sleepers",
    parameterDefinitions: [{ name: "Dir", type: "STRING" }],
    steps: [
      {
        name: "Sleep",
        parameterSpace: { taskParameterDefinitions: [{ name: "N", type: "INT", range: `1-${tasks}` }] },
        script: { actions: { onRun: python(SLEEPER, "{{Param.Dir}}", "{{Task.Param.N}}", String(seconds)) } },
      },
    ],
  };
}

// Through the store, not its raw connection: the server in this process may have a unit open.
function workerRow(farm: InProcessFarm, name: string) {
  return farm.store.read((tx) =>
    tx.get<{ id: string; status: string; lease_epoch: number; last_heartbeat_at: number }>("SELECT id, status, lease_epoch, last_heartbeat_at FROM workers WHERE name = ?", [name]),
  );
}

function taskRow(farm: InProcessFarm, taskId: number) {
  return farm.store.read((tx) => tx.get<{ status: string; interruption_count: number; failure_count: number }>("SELECT status, interruption_count, failure_count FROM tasks WHERE id = ?", [taskId]));
}

describe("farm faults", () => {
  it("requeues the task of a worker killed with SIGKILL mid-task; the other worker finishes it; no double completion", async () => {
    const farm = await h.startFarm({ workerTimeoutSeconds: 3, syncIntervalSeconds: 0.25 });
    const a = h.startWorker(farm.url, farm.token, "a");
    h.startWorker(farm.url, farm.token, "b");
    await waitForWorkers(farm.api, 2);
    const dir = h.tempDir();
    const starts = join(dir, "starts.log");
    const jobId = await submitTemplate(farm.api, sleeperJob(4, 1.5), { Dir: dir });
    await waitFor(() => fileLines(starts).some((l) => l.endsWith(h.workerTag("a"))), "worker a's first task to start");
    await sleep(200);

    // Worker a, its task (and the task's children), its reaper: everything carrying a's tag.
    const ofA = () => processesWithEnv(WORKER_TAG, h.workerTag("a")).filter((pid) => pid !== a.child.pid);
    expect(ofA().length).toBeGreaterThanOrEqual(1);
    a.child.kill("SIGKILL");
    await a.exited;
    // Its task runs in a process group of its own; the worker's reaper kills it with the worker,
    // so it cannot finish its work a second time beside the worker the task goes to next.
    const left = await waitFor(() => ofA().length === 0 || null, "worker a's task to die with it", 1_000).catch(() => ofA());
    expect(left, "processes of worker a still running after it was killed").toBe(true);

    await waitFor(async () => (await workerRow(farm, "a"))?.status === "NOT_RESPONDING", "worker a to be declared lost", 10_000);
    const job = await waitForJobEnd(farm.api, jobId, 20_000);
    expect(await workerRow(farm, "a")).toMatchObject({ status: "NOT_RESPONDING", lease_epoch: 2 });
    expect(job.status).toBe("SUCCEEDED");
    expect(job.counts.SUCCEEDED).toBe(4);

    const runs = await taskRuns(farm.farm, jobId);
    const byA = runs.filter((r) => r.workerName === "a");
    expect(byA.map((r) => r.status)).toEqual(["INTERRUPTED"]);
    const lost = byA[0]!;
    // Declared lost (the sweep ends the action) no sooner than the 3 s timeout after its last
    // heartbeat, and soon after it (the sweep runs every 250 ms here).
    const silentFor = lost.endedAt! - (await workerRow(farm, "a"))!.last_heartbeat_at;
    expect(silentFor).toBeGreaterThanOrEqual(3_000);
    expect(silentFor).toBeLessThan(4_500);
    // The same task, requeued on the interruption budget and finished by b.
    expect(runs.filter((r) => r.taskId === lost.taskId).map((r) => `${r.workerName}:${r.status}`)).toEqual(["a:INTERRUPTED", "b:SUCCEEDED"]);
    expect(await taskRow(farm, lost.taskId)).toEqual({ status: "SUCCEEDED", interruption_count: 1, failure_count: 0 });
    const aSession = await farm.store.read((tx) => tx.get<{ state: string }>("SELECT state FROM sessions WHERE id = ?", [lost.sessionId]));
    expect(aSession?.state).toBe("ENDED");
    // Every task SUCCEEDED exactly once as the farm records it, and ran to completion exactly once.
    expect(await doubleCompletions(farm.farm, jobId)).toEqual([]);
    expect(
      runs
        .filter((r) => r.status === "SUCCEEDED")
        .map((r) => r.taskIndex)
        .sort(),
    ).toEqual([0, 1, 2, 3]);
    expect(fileLines(join(dir, "completions.log")).sort()).toEqual(["1", "2", "3", "4"]);
    expect(fileLines(starts).filter((l) => l.startsWith(`${lost.taskIndex + 1} `))).toEqual([`${lost.taskIndex + 1} ${h.workerTag("a")}`, `${lost.taskIndex + 1} ${h.workerTag("b")}`]);
  }, 60_000);

  it("fences a worker frozen past its timeout: its late report cannot complete the task a second time", async () => {
    const farm = await h.startFarm({ workerTimeoutSeconds: 2, syncIntervalSeconds: 0.25 });
    const a = h.startWorker(farm.url, farm.token, "a");
    h.startWorker(farm.url, farm.token, "b");
    await waitForWorkers(farm.api, 2);
    const dir = h.tempDir();
    const starts = join(dir, "starts.log");
    const jobId = await submitTemplate(farm.api, sleeperJob(2, 1), { Dir: dir });
    const started = await waitFor(() => fileLines(starts).find((l) => l.endsWith(h.workerTag("a"))), "worker a's task to start");
    const [firstIndex] = started.split(" ");

    // Freeze the agent (not its task, which finishes meanwhile) until the server declares it lost.
    process.kill(a.child.pid!, "SIGSTOP");
    await waitFor(async () => (await workerRow(farm, "a"))?.status === "NOT_RESPONDING", "worker a to be declared lost", 10_000);
    // b runs the requeued task to the end while a is still frozen with its finished run unreported:
    // executed twice (at-least-once; the frozen worker's subprocess ran on), to be recorded once.
    const job = await waitForJobEnd(farm.api, jobId, 20_000);
    expect(job.status).toBe("SUCCEEDED");
    expect(fileLines(join(dir, "completions.log")).filter((l) => l === firstIndex)).toHaveLength(2);
    process.kill(a.child.pid!, "SIGCONT");
    await waitFor(() => a.output().includes("the server fenced this worker off"), "worker a to be told it was fenced");
    await waitFor(async () => ((await workerRow(farm, "a"))?.lease_epoch ?? 0) >= 3, "worker a to register again");

    const runs = await taskRuns(farm.farm, jobId);
    const first = runs.find((r) => r.workerName === "a")!;
    // a's report came too late: its run stays INTERRUPTED; the requeued run is the one completion.
    expect(runs.filter((r) => r.taskId === first.taskId).map((r) => `${r.workerName}:${r.status}`)).toEqual(["a:INTERRUPTED", "b:SUCCEEDED"]);
    expect(await doubleCompletions(farm.farm, jobId)).toEqual([]);
    const now = await farm.api.jobs.get.query({ jobId });
    expect(now.status).toBe("SUCCEEDED");
    expect(now.counts.SUCCEEDED).toBe(2);
    expect(await taskRow(farm, first.taskId)).toEqual({ status: "SUCCEEDED", interruption_count: 1, failure_count: 0 });

    // Whatever a's agent managed to send, the protocol itself refuses the stale report: under the
    // old lease with 409 LEASE_CONFLICT, under the new one by ignoring an action of an old lease.
    // The test speaks as a with a credential of a's (its agent, stopped first, kept its own in memory only).
    process.kill(-a.child.pid!, "SIGKILL");
    await a.exited;
    const worker = (await workerRow(farm, "a"))!;
    const credential = newSecret("worker");
    await farm.store.transaction((tx) => tx.run("UPDATE workers SET credential_hash = ? WHERE id = ?", [hashSecret(credential), worker.id]));
    const report = (leaseEpoch: number) =>
      fetch(`${farm.url}/api/worker/sync`, {
        method: "POST",
        headers: { authorization: `Bearer ${credential}`, "content-type": "application/json" },
        body: JSON.stringify({ workerId: worker.id, leaseEpoch, sessions: [], actions: [], updates: [{ actionId: first.actionId, status: "SUCCEEDED", exitCode: 0 }] }),
      });
    const stale = await report(1);
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: "LEASE_CONFLICT" });
    expect((await report(worker.lease_epoch)).status).toBe(200);
    expect((await taskRuns(farm.farm, jobId)).find((r) => r.actionId === first.actionId)?.status).toBe("INTERRUPTED");
    expect(await doubleCompletions(farm.farm, jobId)).toEqual([]);
  }, 30_000);

  it("loses no task and no stored log line when the server is killed with SIGKILL with tasks in flight", async () => {
    const data = h.tempDir("loom-serve-data-");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    // The restarted server keeps its pool's token, so the workers outlive the crash.
    const token = `loom_${randomBytes(24).toString("base64url")}`;
    const serve = () => h.serveLoom(data, port, { LOOM_POOL_TOKEN: token, LOOM_SYNC_INTERVAL_SECONDS: "0.25", LOOM_WORKER_TIMEOUT_SECONDS: "20" });
    const server = await serve();
    const api = localAdminClient(url, data);
    const workers = [h.startWorker(url, token, "w1"), h.startWorker(url, token, "w2")];
    await waitForWorkers(api, 2);

    const LINES = 30;
    const jobId = await submitTemplate(api, {
      specificationVersion: "jobtemplate-2023-09",
      name: "Chatty",
      steps: [
        {
          name: "Talk",
          parameterSpace: { taskParameterDefinitions: [{ name: "N", type: "INT", range: "1-4" }] },
          script: {
            actions: {
              onRun: python(`import sys, time\nn = sys.argv[1]\nfor i in range(1, ${LINES + 1}):\n    print("task %s line %d" % (n, i), flush=True)\n    time.sleep(0.05)`, "{{Task.Param.N}}"),
            },
          },
        },
      ],
    });
    const numbered = /^task (\d+) line (\d+)$/;
    await waitFor(async () => (await api.logs.lines.query({ jobId, limit: 10_000 })).filter((l) => numbered.test(l.line)).length >= 10, "some lines to be stored");
    const before = await api.logs.lines.query({ jobId, limit: 10_000 });
    const jobBefore = await api.jobs.get.query({ jobId });
    expect(jobBefore.counts.RUNNING + jobBefore.counts.ASSIGNED).toBeGreaterThan(0);

    process.kill(server.child.pid!, "SIGKILL"); // the server process only, as a crash would
    await server.exited;
    await sleep(1_000); // the tasks go on printing; the workers keep their lines and reports
    expect(workers.every((w) => w.alive())).toBe(true);
    await serve();

    const job = await waitForJobEnd(api, jobId, 25_000);
    expect(job.status).toBe("SUCCEEDED");
    expect(job.counts.SUCCEEDED).toBe(4);
    for (const w of workers) expect(w.output()).toContain("server reachable again");

    // Every line stored before the crash is still there, unchanged.
    const after = await api.logs.lines.query({ jobId, limit: 10_000 });
    const afterById = new Map(after.map((l) => [l.id, l]));
    for (const line of before) expect(afterById.get(line.id)).toEqual(line);

    // The restart (shorter than the worker timeout) cost no attempt: one run per task, all SUCCEEDED.
    const sessions = await api.jobs.sessions.query({ jobId });
    const runs = sessions.flatMap((s) => s.actions.filter((a) => a.kind === "TASK_RUN"));
    expect(runs.map((r) => r.status)).toEqual(["SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
    const [step] = job.steps;
    const { tasks } = await api.jobs.tasks.query({ stepId: step!.id });
    expect(tasks.map((t) => [t.status, t.interruptionCount, t.failureCount])).toEqual(Array.from({ length: 4 }, () => ["SUCCEEDED", 0, 0]));

    // Each task's final (only) run has every numbered line exactly once, in order.
    const seen = new Set<string>();
    for (const run of runs) {
      const text = after.filter((l) => l.actionId === run.id && numbered.test(l.line)).map((l) => l.line);
      const n = numbered.exec(text[0] ?? "")?.[1] ?? "?";
      seen.add(n);
      expect(text).toEqual(Array.from({ length: LINES }, (_, i) => `task ${n} line ${i + 1}`));
    }
    expect([...seen].sort()).toEqual(["1", "2", "3", "4"]);
  }, 45_000);
});
