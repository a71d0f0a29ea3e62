/**
 * Several `loom serve` replicas on one PostgreSQL database (issue 12): workers on both, one job,
 * every task run to SUCCEEDED exactly once; the replica that leads killed with SIGKILL mid-run, the
 * other takes the lead (it runs the sweeps that requeue the dead replica's workers' tasks) and
 * the job still ends with every task SUCCEEDED once and every stored log line kept. PostgreSQL
 * only: on SQLite one server process owns its database file.
 */
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAsyncStore } from "../store/engine/open-store";
import { rawOf } from "../store/store-test-support";
import { testEngine } from "../store/engines-test-support";
import { doubleCompletions, FarmHarness, freePort, localAdminClient, shell, submitTemplate, taskRuns, waitFor, waitForJobEnd, waitForWorkers, type Spawned } from "./farm-harness";
import { createFarm } from "../context/farm";

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

interface Replica {
  url: string;
  data: string;
  server: Spawned;
}

async function replica(token: string): Promise<Replica> {
  const data = h.tempDir("loom-replica-data-");
  const port = await freePort();
  // The same pool token on every replica: each data folder writes it on its first start.
  const server = await h.serveLoom(data, port, { LOOM_POOL_TOKEN: token, LOOM_SYNC_INTERVAL_SECONDS: "0.25", LOOM_WORKER_TIMEOUT_SECONDS: "3" });
  return { url: `http://127.0.0.1:${port}`, data, server };
}

const leads = (r: Replica) => r.server.output().includes("leads the farm now");

describe.skipIf(testEngine() !== "postgres")("replicas on one PostgreSQL database", () => {
  it("two replicas, a worker on each: a 200-task job ends SUCCEEDED with every task run once, by both workers", async () => {
    const token = `loom_${randomBytes(24).toString("base64url")}`;
    const a = await replica(token);
    const b = await replica(token);
    h.startWorker(a.url, token, "wa");
    h.startWorker(b.url, token, "wb");
    const api = localAdminClient(a.url, a.data);
    await waitForWorkers(api, 2);
    const jobId = await submitTemplate(api, {
      specificationVersion: "jobtemplate-2023-09",
      name: "Two replicas",
      steps: [
        { name: "Frames", parameterSpace: { taskParameterDefinitions: [{ name: "F", type: "INT", range: "1-200" }] }, script: { actions: { onRun: shell("echo frame $1", "{{Task.Param.F}}") } } },
      ],
    });
    const ended = await waitForJobEnd(api, jobId, 120_000);
    expect(ended.status).toBe("SUCCEEDED");
    expect(ended.counts.SUCCEEDED).toBe(200);
    // Replica B answers for the same farm.
    expect((await localAdminClient(b.url, b.data).jobs.get.query({ jobId })).status).toBe("SUCCEEDED");

    const store = await openAsyncStore((await h.databaseEnv()).LOOM_DATABASE_URL!, { poolSize: 2 });
    try {
      const farm = createFarm(store);
      const runs = (await taskRuns(farm, jobId)).filter((run) => run.status === "SUCCEEDED");
      expect(runs).toHaveLength(200);
      expect(new Set(runs.map((run) => run.taskId)).size).toBe(200);
      expect(await doubleCompletions(farm, jobId)).toEqual([]);
      expect(new Set(runs.map((run) => run.workerName))).toEqual(new Set(["wa", "wb"]));
      // One leader among the two.
      expect([leads(a), leads(b)].filter(Boolean)).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 180_000);

  it("the leading replica killed with SIGKILL mid-run: the other leads within 10 s, and every task ends SUCCEEDED once with its log line kept", async () => {
    const token = `loom_${randomBytes(24).toString("base64url")}`;
    const first = await replica(token);
    await waitFor(() => leads(first), "the first replica to lead", 10_000);
    const second = await replica(token);
    // w1 knows both replicas: it moves to the second when the first dies.
    const w1 = h.startWorker(first.url, token, "w1", ["--server", second.url]);
    h.startWorker(second.url, token, "w2");
    const api = localAdminClient(second.url, second.data);
    await waitForWorkers(api, 2);
    const jobId = await submitTemplate(
      api,
      {
        specificationVersion: "jobtemplate-2023-09",
        name: "Leader dies",
        steps: [
          {
            name: "Frames",
            parameterSpace: { taskParameterDefinitions: [{ name: "F", type: "INT", range: "1-40" }] },
            script: { actions: { onRun: shell("echo frame $1; sleep 0.2", "{{Task.Param.F}}") } },
          },
        ],
      },
      {},
      { maxRetriesPerTask: 3 },
    );
    await waitFor(async () => (await api.jobs.get.query({ jobId })).counts.SUCCEEDED >= 5, "some tasks to succeed");
    process.kill(first.server.child.pid!, "SIGKILL");
    await first.server.exited;
    const killedAt = Date.now();
    await waitFor(() => leads(second), "the second replica to lead", 10_000);
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).toBeLessThan(10_000);
    await waitFor(() => w1.output().includes(`now using ${second.url}/`), "the first replica's worker to move to the second", 40_000);

    const ended = await waitForJobEnd(api, jobId, 120_000);
    expect(ended.status).toBe("SUCCEEDED");
    const store = await openAsyncStore((await h.databaseEnv()).LOOM_DATABASE_URL!, { poolSize: 2 });
    try {
      const farm = createFarm(store);
      const runs = (await taskRuns(farm, jobId)).filter((run) => run.status === "SUCCEEDED");
      expect(new Set(runs.map((run) => run.taskId)).size).toBe(40);
      expect(await doubleCompletions(farm, jobId)).toEqual([]);
      // Every succeeded run's "frame N" line is stored, once.
      // Uploads trail the reports that end a task: wait for the last of them.
      const framesStored = () =>
        rawOf(store).column<string>("SELECT l.line FROM log_lines l JOIN session_actions a ON a.id = l.action_id WHERE l.job_id = ? AND a.status = 'SUCCEEDED' AND l.line LIKE 'frame %'", jobId);
      const lines = await waitFor(
        async () => {
          const found = await framesStored();
          return found.length >= 40 && found;
        },
        "every succeeded task's log line",
        15_000,
      ).catch(async (error: unknown) => {
        throw new Error(
          `${(error as Error).message}; stored: ${JSON.stringify(await rawOf(store).all("SELECT l.action_id, l.line FROM log_lines l WHERE l.job_id = ? ORDER BY l.id LIMIT 30", jobId))}`,
        );
      });
      expect(lines.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `frame ${i + 1}`).sort());
      console.log(`the second replica led ${takeoverMs} ms after the first was killed`);
    } finally {
      await store.close();
    }
  }, 180_000);
});
