/**
 * Restarts and names: a restarted `loom serve` keeps its pool's token, so workers reconnect; two
 * agents started with one name do not fence each other off in turn. (Both were bugs the farm
 * tests found; these stay as their regression tests.)
 */
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FarmHarness, localAdminClient, freePort, shell, submitTemplate, taskRuns, waitFor, waitForJobEnd, waitForWorkers } from "./farm-harness";

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe("restarts and worker names", () => {
  /** The pool token survives a server restart (LOOM_POOL_TOKEN, else data/local-pool.token). */
  it("`loom serve --headless` honours LOOM_POOL_TOKEN, so its pool's workers keep working across a server restart", async () => {
    const data = h.tempDir("loom-serve-data-");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const token = `loom_${randomBytes(24).toString("base64url")}`;
    const serve = () => h.serveLoom(data, port, { LOOM_POOL_TOKEN: token, LOOM_SYNC_INTERVAL_SECONDS: "0.25" });
    const first = await serve();
    const worker = h.startWorker(url, token, "w1");
    await waitFor(() => /registered with|refused/.test(worker.output()), "the worker to register or be refused");
    expect(worker.output()).toContain("registered with");

    process.kill(first.child.pid!, "SIGKILL");
    await first.exited;
    await serve();
    await waitFor(() => worker.output().includes("server reachable again") || !worker.alive(), "the worker to reconnect", 10_000);
    expect(worker.output()).not.toContain("the server refused a request");
    expect(worker.alive()).toBe(true);
  }, 30_000);

  /**
   * `loom serve` killed -9 cannot stop what it started: its workers notice it is gone
   * (LOOM_PARENT_PID) and stop, killing their running task, instead of running on and holding the
   * worker names for the next `npm start`.
   */
  it("the workers of a `loom serve` killed with SIGKILL stop, and their running task with them", async () => {
    const data = h.tempDir("loom-serve-data-");
    const port = await freePort();
    const serve = h.spawnLoom("serve", ["serve", "--headless", "--port", String(port), "--data", data, "--workers", "1"], { ...(await h.databaseEnv()), LOOM_SYNC_INTERVAL_SECONDS: "0.25" });
    await waitFor(() => serve.output().includes("registered with") || !serve.alive(), "the local worker to register", 30_000);
    const api = localAdminClient(`http://127.0.0.1:${port}`, data);
    const jobId = await submitTemplate(api, {
      specificationVersion: "jobtemplate-2023-09",
      name: "Long",
      steps: [{ name: "S", script: { actions: { onRun: shell("echo started; exec sleep 120") } } }],
    });
    await waitFor(async () => (await api.jobs.get.query({ jobId })).counts.RUNNING === 1, "the task to run");
    // serve, its worker, and the task's process.
    expect(h.liveProcesses().length).toBeGreaterThanOrEqual(3);

    process.kill(serve.child.pid!, "SIGKILL");
    await serve.exited;
    const left = await waitFor(() => h.liveProcesses().length === 0 || null, "every process serve started to stop", 10_000).catch(() => h.liveProcesses());
    expect(left, "pids still running after loom serve died").toBe(true);
  }, 60_000);

  /**
   * A double Ctrl-C kills the local workers where they stand: their rows still say connected and
   * their task RUNNING. The next `loom serve` on that data folder knows those agents were its
   * own and ended with it (issue 11): it takes their names back at once (not after the 75 s
   * worker timeout) and the task goes back to the queue and runs again.
   */
  it("a `loom serve` stopped with a double Ctrl-C gets its local workers back within 5 s of starting again, and its task runs again", async () => {
    const data = h.tempDir("loom-serve-data-");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const databaseEnv = await h.databaseEnv();
    const start = () => h.spawnLoom("serve", ["serve", "--headless", "--port", String(port), "--data", data, "--workers", "1"], { ...databaseEnv, LOOM_SYNC_INTERVAL_SECONDS: "0.25" });
    const first = start();
    await waitFor(() => first.output().includes("registered with") || !first.alive(), "the local worker to register", 30_000);
    const api = localAdminClient(url, data);
    const jobId = await submitTemplate(api, {
      specificationVersion: "jobtemplate-2023-09",
      name: "Long",
      steps: [{ name: "S", script: { actions: { onRun: shell("echo started; exec sleep 120") } } }],
    });
    await waitFor(async () => (await api.jobs.get.query({ jobId })).counts.RUNNING === 1, "the task to run");

    process.kill(first.child.pid!, "SIGINT");
    await waitFor(() => first.output().includes("Ctrl-C again"), "the first Ctrl-C to be taken");
    process.kill(first.child.pid!, "SIGINT");
    await first.exited;

    const second = start();
    await waitFor(() => second.output().includes("Loom is serving at") || !second.alive(), "the server to serve again", 30_000);
    const serving = Date.now();
    await waitFor(() => second.output().includes("registered with") || second.output().includes("is connected to pool"), "the local worker to register again", 10_000);
    expect(second.output()).not.toContain("is connected to pool");
    expect(Date.now() - serving).toBeLessThan(5_000);
    expect(second.output()).toContain("local-1 released, their tasks back in the queue");
    // The task runs again on the new agent; the run the killed agent had is interrupted, not running.
    await waitFor(async () => (await api.jobs.get.query({ jobId })).counts.RUNNING === 1, "the task to run again", 10_000);
    const stepId = (await api.jobs.get.query({ jobId })).steps[0]!.id;
    const tasks = await api.jobs.tasks.query({ stepId });
    expect(tasks.tasks[0]).toMatchObject({ status: "RUNNING", interruptionCount: 1 });
  }, 90_000);

  /**
   * Two agents with one name (two `loom worker` on one host without --name, whose default is the
   * host name): the second is refused while the first is connected and keeps retrying, instead of
   * the two taking the lease from each other on every sync.
   */
  it("two live workers given the same name do not fence each other off forever", async () => {
    const farm = await h.startFarm();
    h.startWorker(farm.url, farm.token, "same");
    await waitForWorkers(farm.api, 1);
    h.startWorker(farm.url, farm.token, "same");
    const jobId = await submitTemplate(farm.api, {
      specificationVersion: "jobtemplate-2023-09",
      name: "Two names",
      steps: [{ name: "S", parameterSpace: { taskParameterDefinitions: [{ name: "N", type: "INT", range: "1-4" }] }, script: { actions: { onRun: shell("sleep 0.5") } } }],
    });
    await waitForJobEnd(farm.api, jobId, 12_000).catch(() => null);
    const job = await farm.api.jobs.get.query({ jobId });
    const epochs = (await farm.store.read((tx) => tx.all<{ lease_epoch: number }>("SELECT lease_epoch FROM workers"))).map((w) => w.lease_epoch);
    const interrupted = (await taskRuns(farm.farm, jobId)).filter((r) => r.status === "INTERRUPTED").length;
    expect({ status: job.status, interruptedRuns: interrupted, highestLeaseEpoch: Math.max(...epochs) }).toEqual({ status: "SUCCEEDED", interruptedRuns: 0, highestLeaseEpoch: 1 });
  }, 30_000);
});
