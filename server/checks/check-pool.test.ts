/**
 * The check pool with real worker threads: a check past its budget is stopped and its thread
 * replaced, one owner cannot hold more than its share of threads, and what comes back is plain
 * data (a plan, then task rows in batches).
 */
import { afterEach, describe, expect, it } from "vitest";
import { CheckPool, checkEntryFile } from "./check-pool";
import { productTemplate, slowTemplate } from "./check-test-support";

const pools: CheckPool[] = [];
function pool(size: number, perOwner = 1, queuedPerOwner = 1): CheckPool {
  const made = new CheckPool({ size, perOwner, queuedPerOwner, entry: checkEntryFile() });
  pools.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const submission = (text: string) => ({ template: { text, format: "yaml" as const }, parameterValues: {}, templateDir: null, workingDir: "/tmp" });

describe("CheckPool", () => {
  it("stops a check past its budget and serves the next one on a fresh thread", async () => {
    const checks = pool(1);
    const lease = await checks.lease("ana");
    const slow = await lease.request({ kind: "validate", submission: submission(slowTemplate()) }, 1_000);
    lease.release();
    expect(slow).toMatchObject({ kind: "stopped", reason: "timeout" });

    const next = await checks.lease("ana");
    const answer = await next.request({ kind: "inspect", text: productTemplate(2, 2), format: "yaml" }, 10_000);
    next.release();
    expect(answer).toMatchObject({ kind: "inspected", inspected: { readable: true, kind: "job", errors: [], jobName: "product" } });
  });

  it("gives one owner at most its share of threads, serves other owners meanwhile, and refuses past the queue", async () => {
    const checks = pool(2, 1, 1);
    const first = await checks.lease("ana");
    let secondGranted = false;
    const second = checks.lease("ana").then((lease) => {
      secondGranted = true;
      return lease;
    });
    // The second thread is free, but ana already holds her share: bob gets it.
    const bob = await checks.lease("bob");
    expect(secondGranted).toBe(false);
    await expect(checks.lease("ana")).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    first.release();
    const granted = await second;
    expect(secondGranted).toBe(true);
    granted.release();
    bob.release();
  });

  it("closing answers the check in flight and refuses waiting and new leases at once, whatever the budget left", async () => {
    const checks = pool(1);
    const lease = await checks.lease("ana");
    const slow = lease.request({ kind: "validate", submission: submission(slowTemplate()) }, 10 * 60_000);
    const waiting = checks.lease("bob").catch((error: unknown) => error);
    await checks.close();
    expect(await slow).toMatchObject({ kind: "stopped", reason: "closed" });
    expect(await waiting).toMatchObject({ code: "INTERNAL", message: expect.stringMatching(/server is stopping/) });
    await expect(checks.lease("ana")).rejects.toMatchObject({ code: "INTERNAL" });
    expect(await lease.request({ kind: "inspect", text: productTemplate(1, 1), format: "yaml" }, 10_000)).toMatchObject({ kind: "stopped", reason: "closed" });
    lease.release();
  });

  it("answers with plain data: the plan of a job, then its task rows in batches", async () => {
    const checks = pool(1);
    const lease = await checks.lease("ana");
    const planned = await lease.request({ kind: "create", submission: submission(productTemplate(3, 4)), batchRows: 5 }, 10_000);
    expect(planned).toMatchObject({ kind: "planned", plan: { name: "product", taskCount: 12, steps: [{ index: 0, name: "Render", taskCount: 12, chunked: false }] } });
    const batches = [];
    for (;;) {
      const rows = await lease.request({ kind: "rows" }, 10_000);
      if (rows.kind !== "rows") throw new Error(`unexpected ${rows.kind}`);
      if (!rows.batch) break;
      // No task-to-task dependencies: tasks only.
      if (rows.batch.kind !== "tasks") throw new Error(`unexpected ${rows.batch.kind} batch`);
      batches.push(rows.batch);
    }
    lease.release();
    expect(batches.map((b) => [b.stepIndex, b.first, b.rows])).toEqual([
      [0, 0, 5],
      [0, 5, 5],
      [0, 10, 2],
    ]);
    // Each batch is chunks of JSON array text (here one chunk each: a chunk holds up to 500).
    expect(batches.map((b) => b.chunks.length)).toEqual([1, 1, 1]);
    expect(JSON.parse(batches[2]!.chunks[0]!)).toEqual([
      { Frame: { type: "INT", value: "3" }, Tile: { type: "INT", value: "3" } },
      { Frame: { type: "INT", value: "3" }, Tile: { type: "INT", value: "4" } },
    ]);
  });
});
