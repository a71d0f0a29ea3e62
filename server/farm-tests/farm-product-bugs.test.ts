/**
 * Product bugs the farm tests found, each as a test that fails until the bug is fixed (then it
 * simply passes and stays as a regression test). See the comment above each for the cause.
 */
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FarmHarness, freePort, shell, submitTemplate, taskRuns, waitFor, waitForJobEnd, waitForWorkers } from "./farm-harness";

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe("farm product bugs (these fail until fixed)", () => {
  /**
   * server/cli/serve.ts: runServe makes a fresh random token on every start (`const token =
   * loom_${randomBytes(24)…}`) and headless() gives it to the "default" pool with ensurePool,
   * replacing the stored hash; LOOM_POOL_TOKEN is not read (the Next.js mode even overrides it for
   * its child). So after a restart every worker of the default pool is refused with 401 — also
   * serve's own local workers of the previous run, which (own process groups) survive a SIGKILL of
   * serve and then retry forever. Fix: use serverEnv().LOOM_POOL_TOKEN (and LOOM_POOL_NAME) when
   * set, and only generate a token when it is not (or keep the generated one in the data folder).
   */
  it("`loom serve --headless` honours LOOM_POOL_TOKEN, so its pool's workers keep working across a server restart", async () => {
    const data = h.tempDir("loom-serve-data-");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const token = `loom_${randomBytes(24).toString("base64url")}`;
    const serve = async () => {
      const server = h.spawnLoom("serve", ["serve", "--headless", "--port", String(port), "--data", data, "--workers", "0"], {
        LOOM_POOL_TOKEN: token,
        LOOM_SYNC_INTERVAL_SECONDS: "0.25",
      });
      await waitFor(() => server.output().includes(`Loom is serving at ${url}`) || !server.alive(), "the server to listen");
      return server;
    };
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
   * server/services/register-worker.ts (registerWorker): a registration under a name the pool
   * knows always takes that worker over — new lease epoch, its Sessions interrupted. Two live
   * agents with one name (two `loom worker` on one host without --name, whose default is the host
   * name; or serve's orphaned local-N and a restarted serve's new local-N) therefore fence each
   * other off on every sync: measured 57 lease epochs and 57 interrupted runs in 8 s, no task ever
   * finishes, and each task ends FAILED after MAX_INTERRUPTIONS. Fix: refuse (409 CONFLICT) a
   * registration under the name of a worker whose lease is still live (heartbeat within the
   * timeout), telling the agent to pick a unique --name; to keep a quick restart working, let the
   * agent send a per-process instance id so the same agent re-registering after a fence is told
   * apart, and have a refused agent retry registration until the old lease times out.
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
    const epochs = farm.farm.store.sqlite.prepare<[], { lease_epoch: number }>("SELECT lease_epoch FROM workers").all().map((w) => w.lease_epoch);
    const interrupted = taskRuns(farm.farm, jobId).filter((r) => r.status === "INTERRUPTED").length;
    expect({ status: job.status, interruptedRuns: interrupted, highestLeaseEpoch: Math.max(...epochs) }).toEqual({ status: "SUCCEEDED", interruptedRuns: 0, highestLeaseEpoch: 1 });
  }, 30_000);
});
