/**
 * The live log views through createCaller against a real migrated SQLite: a job's view follows
 * every Session of its job and only those, a burst of uploads reaches a view once and in order,
 * and the wake-ups behind it skip other views' uploads and collapse while a view reads.
 */
import { describe, expect, it } from "vitest";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { ingestLogs } from "../services/ingest-logs";
import { FarmEventBus, type LogsEvent } from "../store/events";
import { appRouter } from "./index";
import { linesWakeups } from "./logs";
import { createCallerFactory } from "./trpc";
import { contextAs } from "../auth/test-principals";

const JOB =
  "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  parameterSpace:\n    taskParameterDefinitions: [{name: F, type: INT, range: '1-2'}]\n  script:\n    actions:\n      onRun: {command: echo}\n";

/** A worker holding one Session; `upload(from, n)` stores lines `<name> <seq>`. */
async function session(t: TestFarm, name: string) {
  const worker = await SimulatedWorker.create(t, LINUX_WORKER(name), () => "hold");
  const sessionId = (await worker.sync()).assignments[0]!.sessionId;
  const upload = async (from: number, count: number) =>
    ingestLogs(t.farm, await worker.identity, {
      workerId: worker.workerId,
      leaseEpoch: worker.leaseEpoch,
      sessionId,
      lines: Array.from({ length: count }, (_, i) => ({ seq: from + i, actionId: null, time: 1, line: `${name} ${from + i}` })),
    });
  return { sessionId, upload };
}

async function follow(t: TestFarm, input: { jobId?: string; sessionId?: string }) {
  const controller = new AbortController();
  const stream = await createCallerFactory(appRouter)(await contextAs(t.farm, "admin"), { signal: controller.signal }).logs.follow(input);
  const iterator = stream[Symbol.asyncIterator]();
  /** tracked() items arrive through createCaller as [id, data, symbol] tuples (STACK.md G10). */
  const read = async () => ((await iterator.next()).value as unknown as [string, { line: string }])[1].line;
  return { read, iterator, close: () => controller.abort() };
}

describe("logs.follow", () => {
  it("follows every Session of a job, and only that job's", async () => {
    const t = await testFarm();
    const [first, second] = [await submit(t, JOB), await submit(t, JOB)];
    // a and b run `first`; c, opened while first's first task is out, probes `second` (plan.ts probeTarget).
    const [a, c, b] = [await session(t, "a"), await session(t, "c"), await session(t, "b")];
    const events: LogsEvent[] = [];
    t.farm.events.subscribe("logs", (event) => events.push(event));
    await a.upload(0, 1);
    await c.upload(0, 1);
    await b.upload(0, 1);
    expect(events).toEqual([
      { sessionId: a.sessionId, jobId: first },
      { sessionId: c.sessionId, jobId: second },
      { sessionId: b.sessionId, jobId: first },
    ]);
    const view = await follow(t, { jobId: first });
    expect([await view.read(), await view.read()]).toEqual(["a 0", "b 0"]);
    const next = view.read();
    await c.upload(1, 1);
    await b.upload(1, 1);
    await a.upload(1, 1);
    expect([await next, await view.read()]).toEqual(["b 1", "a 1"]);
    view.close();
    expect((await view.iterator.next()).done).toBe(true);
  });

  it("delivers a burst of uploads once each, in order", async () => {
    const t = await testFarm();
    await submit(t, JOB);
    const a = await session(t, "a");
    const view = await follow(t, { sessionId: a.sessionId });
    const first = view.read();
    for (let i = 0; i < 50; i++) await a.upload(i, 1);
    const lines = [await first];
    while (lines.length < 50) lines.push(await view.read());
    expect(lines).toEqual(Array.from({ length: 50 }, (_, i) => `a ${i}`));
    const next = view.read();
    await a.upload(50, 1);
    expect(await next).toBe("a 50");
    view.close();
    expect((await view.iterator.next()).done).toBe(true);
  });
});

describe("linesWakeups", () => {
  const settled = async (promise: Promise<boolean>) => Promise.race([promise, new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), 20))]);

  it("wakes once for any number of uploads of its view, not for others', and ends on abort", async () => {
    const events = new FarmEventBus();
    const controller = new AbortController();
    const wakeups = linesWakeups(events, { jobId: "job-1" }, controller.signal);
    for (let i = 0; i < 5; i++) events.publish(null, "logs", { sessionId: `s-${i}`, jobId: "job-1" });
    expect(await settled(wakeups.next())).toBe(true);
    wakeups.clear(); // a read now sees those five uploads' lines
    const next = wakeups.next();
    events.publish(null, "logs", { sessionId: "s-9", jobId: "job-2" });
    expect(await settled(next)).toBe("pending");
    events.publish(null, "logs", { sessionId: "s-1", jobId: "job-1" });
    expect(await settled(next)).toBe(true);
    wakeups.clear();
    const last = wakeups.next();
    controller.abort();
    expect(await settled(last)).toBe(false);
    wakeups.close();
    expect(events.listenerCount("logs")).toBe(0);
  });

  it("skips other Sessions' uploads for a Session's view", async () => {
    const events = new FarmEventBus();
    const wakeups = linesWakeups(events, { sessionId: "s-1" }, undefined);
    const next = wakeups.next();
    events.publish(null, "logs", { sessionId: "s-2", jobId: "job-1" });
    expect(await settled(next)).toBe("pending");
    events.publish(null, "logs", { sessionId: "s-1", jobId: "job-1" });
    expect(await settled(next)).toBe(true);
    wakeups.close();
  });
});
