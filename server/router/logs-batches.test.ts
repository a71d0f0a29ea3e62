/**
 * logs.followBatches through createCaller against a real migrated SQLite: the same lines as
 * logs.follow, a page per event tracked by the page's last id, and a view resumed from an event
 * id continues after that page with nothing lost or repeated.
 */
import { describe, expect, it } from "vitest";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { ingestLogs } from "../services/ingest-logs";
import { appRouter } from "./index";
import { createCallerFactory } from "./trpc";
import { contextAs } from "../auth/test-principals";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";

async function holdingSession(t: TestFarm) {
  await submit(t, JOB);
  const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), () => "hold");
  const sessionId = (await worker.sync()).assignments[0]!.sessionId;
  const upload = async (from: number, count: number) =>
    ingestLogs(t.farm, await worker.identity, {
      workerId: worker.workerId,
      leaseEpoch: worker.leaseEpoch,
      sessionId,
      lines: Array.from({ length: count }, (_, i) => ({ seq: from + i, actionId: null, time: 1, line: `l${from + i}` })),
    });
  return { sessionId, upload };
}

async function batches(t: TestFarm, input: { sessionId: string; lastEventId?: string }) {
  const controller = new AbortController();
  const stream = await createCallerFactory(appRouter)(await contextAs(t.farm, "admin"), { signal: controller.signal }).logs.followBatches(input);
  const iterator = stream[Symbol.asyncIterator]();
  /** tracked() arrives through createCaller as [id, data, symbol] (STACK.md G10). */
  const read = async () => {
    const [id, page] = (await iterator.next()).value as unknown as [string, Array<{ id: number; line: string }>];
    return { id, lines: page.map((l) => l.line), lastId: page[page.length - 1]!.id };
  };
  return { read, close: () => controller.abort() };
}

describe("logs.followBatches", () => {
  it("delivers the backfill in pages of at most 2,000 lines, then each upload as it is stored", async () => {
    const t = await testFarm();
    const s = await holdingSession(t);
    await s.upload(0, 4500);
    const view = await batches(t, { sessionId: s.sessionId });
    const pages = [await view.read(), await view.read(), await view.read()];
    expect(pages.map((p) => p.lines.length)).toEqual([2000, 2000, 500]);
    expect(pages.flatMap((p) => p.lines)).toEqual(Array.from({ length: 4500 }, (_, i) => `l${i}`));
    for (const page of pages) expect(page.id).toBe(String(page.lastId));
    const next = view.read();
    await s.upload(4500, 3);
    expect((await next).lines).toEqual(["l4500", "l4501", "l4502"]);
    view.close();
  });

  it("resumes after the page whose id it was given", async () => {
    const t = await testFarm();
    const s = await holdingSession(t);
    await s.upload(0, 10);
    const first = await batches(t, { sessionId: s.sessionId });
    const page = await first.read();
    first.close();
    await s.upload(10, 5);
    const resumed = await batches(t, { sessionId: s.sessionId, lastEventId: page.id });
    expect((await resumed.read()).lines).toEqual(["l10", "l11", "l12", "l13", "l14"]);
    resumed.close();
  });
});
