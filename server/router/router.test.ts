/**
 * The tRPC routers through createCaller against a real migrated SQLite: submission with located
 * errors, the job table's filter and paging, AppError codes, and the live subscriptions
 * (backfill, then new items; tracked ids to resume).
 */
import { describe, expect, it } from "vitest";
import { LINUX_WORKER, SimulatedWorker, testFarm } from "../services/farm-test-support";
import { ingestLogs } from "../services/ingest-logs";
import { appRouter } from "./index";
import { createCallerFactory } from "./trpc";
import { contextAs } from "../auth/test-principals";

const JOB =
  "specificationVersion: jobtemplate-2023-09\nname: '{{Param.Name}}'\nparameterDefinitions:\n- {name: Name, type: STRING, default: shot}\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo, args: [hi]}\n";

async function caller() {
  const t = await testFarm();
  const factory = createCallerFactory(appRouter);
  const admin = await contextAs(t.farm, "admin");
  /** A caller whose subscriptions end when `signal` aborts. */
  const withSignal = (signal: AbortSignal) => factory(admin, { signal });
  return { t, api: factory(admin), withSignal };
}

/** tracked() items arrive through createCaller as [id, data, symbol] tuples (STACK.md G10). */
async function nextTracked<T>(iterator: AsyncIterator<unknown>): Promise<[string, T]> {
  return (await iterator.next()).value as unknown as [string, T];
}

describe("jobs", () => {
  it("submits, lists with search and paging, and gets a job with its steps", async () => {
    const { api } = await caller();
    for (const name of ["alpha", "beta", "alphabet"]) {
      const result = await api.jobs.submit({ template: { text: JOB, format: "yaml" }, parameterValues: { Name: name } });
      expect(result.ok).toBe(true);
    }
    const all = await api.jobs.list({ sort: "name", direction: "asc" });
    expect(all.total).toBe(3);
    expect(all.jobs.map((j) => j.name)).toEqual(["alpha", "alphabet", "beta"]);
    const found = await api.jobs.list({ search: "alpha", limit: 1 });
    expect(found.total).toBe(2);
    expect(found.jobs).toHaveLength(1);
    const job = await api.jobs.get({ jobId: all.jobs[0]!.id });
    expect(job.steps.map((s) => [s.name, s.taskCount, s.status])).toEqual([["S", 1, "READY"]]);
  });

  it("returns located errors and writes nothing for a bad submission", async () => {
    const { api } = await caller();
    const result = await api.jobs.submit({ template: { text: JOB.replace("command: echo", "command: ''"), format: "yaml" } });
    expect(result).toMatchObject({ ok: false, errors: [{ origin: "template", path: "steps[0].script.actions.onRun.command", line: 9, message: expect.stringMatching(/empty/) }] });
    expect((await api.jobs.list({})).total).toBe(0);
    const preview = await api.jobs.preview({ template: { text: JOB, format: "yaml" }, parameterValues: { Name: "x" } });
    expect(preview).toMatchObject({ ok: true, taskCount: 1, steps: [{ name: "S", taskCount: 1 }] });
  });

  it("maps service errors to tRPC codes", async () => {
    const { api } = await caller();
    await expect(api.jobs.get({ jobId: "job-nope" })).rejects.toMatchObject({ code: "NOT_FOUND", message: "no job job-nope" });
    await expect(api.jobs.setPriority({ jobId: "job-nope", priority: 50 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const submitted = (await api.jobs.submit({ template: { text: JOB, format: "yaml" }, parameterValues: { Name: "p" } })) as { ok: true; jobId: string };
    await expect(api.jobs.setPriority({ jobId: submitted.jobId, priority: 500 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("subscriptions", () => {
  it("jobs.onChange starts with the watched job and follows its changes", async () => {
    const { t, api, withSignal } = await caller();
    const submitted = await api.jobs.submit({ template: { text: JOB, format: "yaml" } });
    if (!submitted.ok) throw new Error("submit failed");
    const controller = new AbortController();
    const stream = await withSignal(controller.signal).jobs.onChange({ jobId: submitted.jobId });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await nextTracked<Array<{ status: string }>>(iterator);
    expect(first[1].map((j) => j.status)).toEqual(["READY"]);
    const next = nextTracked<Array<{ status: string }>>(iterator);
    await (await SimulatedWorker.create(t, LINUX_WORKER("w"), () => "hold")).sync();
    expect((await next)[1][0]?.status).toBe("ASSIGNED");
    controller.abort();
    expect((await iterator.next()).done).toBe(true);
  });

  it("logs.follow backfills stored lines, then delivers new ones, resuming after lastEventId", async () => {
    const { t, api, withSignal } = await caller();
    const submitted = await api.jobs.submit({ template: { text: JOB, format: "yaml" } });
    if (!submitted.ok) throw new Error("submit failed");
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), () => "hold");
    const sessionId = (await worker.sync()).assignments[0]!.sessionId;
    const upload = async (from: number, count: number) =>
      ingestLogs(t.farm, await worker.identity, {
        workerId: worker.workerId,
        leaseEpoch: worker.leaseEpoch,
        sessionId,
        lines: Array.from({ length: count }, (_, i) => ({ seq: from + i, actionId: null, time: 1, line: `line ${from + i}` })),
      });
    await upload(0, 3);
    expect((await upload(0, 3)).acknowledgedThrough).toBe(2); // the same batch twice is stored once
    const controller = new AbortController();
    const stream = await withSignal(controller.signal).logs.follow({ sessionId });
    const iterator = stream[Symbol.asyncIterator]();
    const read = () => nextTracked<{ line: string }>(iterator);
    const backfill = [await read(), await read(), await read()];
    expect(backfill.map(([, l]) => l.line)).toEqual(["line 0", "line 1", "line 2"]);
    const pending = read();
    await upload(3, 1);
    expect((await pending)[1].line).toBe("line 3");
    controller.abort();
    const second = new AbortController();
    const resumed = await withSignal(second.signal).logs.follow({ sessionId, lastEventId: backfill[1]![0] });
    const again = resumed[Symbol.asyncIterator]();
    expect((await nextTracked<{ line: string }>(again))[1].line).toBe("line 2");
    second.abort();
  });
});
