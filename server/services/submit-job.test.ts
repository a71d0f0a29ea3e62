import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Table } from "drizzle-orm";
import { beforeEach, describe, expect, it, onTestFinished } from "vitest";
import type { StatusCounts } from "../../lib/farm/statuses";
import { checkTemplateText, createJob, parameterValueToJson } from "../../lib/openjd";
import { openStore, type Store } from "../db/connection";
import { jobs, steps, tasks } from "../db/schema";
import { countColumnsSql, countsFromRow, countsFromValues, type CountColumnsRow } from "../db/status-counts";
import { contextAs } from "../auth/test-principals";
import { productTemplate } from "../checks/check-test-support";
import { appRouter } from "../router/index";
import { createCallerFactory } from "../router/trpc";
import { SYSTEM_ACTOR } from "./audit";
import { cancelTasks } from "./cancel-tasks";
import { createFarm } from "../context/farm";
import type { SqlValue } from "../store/engine/engine";
import { rawOf, selectRows } from "../store/store-test-support";
import { testEngine, testStore } from "../store/engines-test-support";
import { FarmLoop } from "./farm-loop";
import { LINUX_WORKER, testFarm } from "./farm-test-support";
import { registerWorker } from "./register-worker";
import { submitJob, submitToFarm, type SubmitJobInput } from "./submit-job";

const RENDER = `specificationVersion: jobtemplate-2023-09
name: "Render {{Param.Scene}}"
parameterDefinitions:
- name: Scene
  type: STRING
  default: shot1
- name: Frames
  type: INT
  default: 10
- name: Output
  type: PATH
  default: renders
jobEnvironments:
- name: Farm
  variables:
    RENDERER: loom
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-{{Param.Frames}}"
    - name: Layer
      type: STRING
      range: [bg, fg]
  hostRequirements:
    amounts:
    - name: amount.worker.vcpu
      min: 2
  script:
    actions:
      onRun:
        command: echo
        args: ["{{Task.Param.Frame}}"]
- name: Encode
  dependencies:
  - dependsOn: Render
  script:
    actions:
      onRun:
        command: echo
`;

const CONDA = `specificationVersion: environment-2023-09
environment:
  name: Conda
  script:
    actions:
      onEnter:
        command: echo
`;

let store: Store;
/** Raw SQL on the test's database, for reading what a submission wrote. */
let raw: ReturnType<typeof rawOf>;
beforeEach(async () => {
  store = await testStore();
  raw = rawOf(store);
});

/** The rows of `table` (`tail`: its WHERE and ORDER BY), as drizzle's select gives them. */
const selectAll = <T extends Table>(table: T, tail = "", ...params: SqlValue[]) => selectRows(store, table, tail, ...params);

function input(overrides: Partial<SubmitJobInput> = {}): SubmitJobInput {
  return {
    template: { text: RENDER, format: "yaml" },
    parameterValues: {},
    templateDir: "/bundles/shot1",
    workingDir: "/home/artist/work",
    now: 1_700_000_000_000,
    ids: { jobId: () => "job-abcdefghij" },
    ...overrides,
  };
}

async function rowCounts() {
  return {
    jobs: (await selectAll(jobs)).length,
    steps: (await selectAll(steps)).length,
    tasks: (await selectAll(tasks)).length,
  };
}

function stepTasks(stepId: string) {
  return selectAll(tasks, "WHERE step_id = ? ORDER BY task_index", stepId);
}

describe("submitJob", () => {
  it("writes the job, its steps and every task with roll-up counts", async () => {
    const result = await submitJob(store, input());
    expect(result).toEqual({ ok: true, jobId: "job-abcdefghij", taskCount: 21 });
    const [job] = await selectAll(jobs);
    expect(job).toMatchObject({
      id: "job-abcdefghij",
      seq: 1,
      name: "Render shot1",
      submitter: "anonymous",
      templateText: RENDER,
      templateFormat: "yaml",
      environmentTemplates: [],
      priority: 50,
      suspended: false,
      status: "READY",
      taskCount: 21,
      maxRetriesPerTask: 2,
      maxFailedTasks: 100,
      submittedAt: 1_700_000_000_000,
    });
    expect(countsFromValues(job!)).toMatchObject({ READY: 20, PENDING: 1, SUSPENDED: 0 });
    expect(job?.parameters).toEqual({
      Scene: { type: "STRING", value: "shot1" },
      Frames: { type: "INT", value: "10" },
      Output: { type: "PATH", value: "/bundles/shot1/renders" },
    });

    const [render, encode] = await selectAll(steps, "ORDER BY step_index");
    expect(render).toMatchObject({ id: "job-abcdefghij:0", stepIndex: 0, name: "Render", dependencies: [], chunked: false, status: "READY", taskCount: 20 });
    expect(render?.hostRequirements).toEqual({ amounts: [{ name: "amount.worker.vcpu", min: 2 }], attributes: [] });
    expect(JSON.parse(render!.environmentStack)).toEqual(["job:Farm"]);
    expect(countsFromValues(render!)).toMatchObject({ READY: 20, PENDING: 0 });
    expect(encode).toMatchObject({ id: "job-abcdefghij:1", name: "Encode", dependencies: ["Render"], status: "PENDING", taskCount: 1 });

    const renderTasks = await stepTasks("job-abcdefghij:0");
    expect(renderTasks.map((t) => t.taskIndex)).toEqual([...Array(20).keys()]);
    expect(renderTasks.every((t) => t.status === "READY" && t.jobId === "job-abcdefghij")).toBe(true);
    expect(renderTasks[0]?.parameters).toBe('{"Frame":{"type":"INT","value":"1"},"Layer":{"type":"STRING","value":"bg"}}');
    expect(JSON.parse(renderTasks[19]!.parameters)).toEqual({ Frame: { type: "INT", value: "10" }, Layer: { type: "STRING", value: "fg" } });
    expect((await stepTasks("job-abcdefghij:1")).map((t) => [t.parameters, t.status])).toEqual([["{}", "PENDING"]]);
  });

  it("numbers jobs in submission order and makes random ids", async () => {
    const first = await submitJob(store, input({ ids: undefined }));
    const second = await submitJob(store, input({ ids: undefined }));
    if (!first.ok || !second.ok) throw new Error("submission failed");
    expect(first.jobId).toMatch(/^job-[a-z2-7]{10}$/);
    expect(second.jobId).not.toBe(first.jobId);
    const seqs = await raw.all<{ id: string; seq: number }>("SELECT id, seq FROM jobs ORDER BY seq");
    expect(seqs).toEqual([
      { id: first.jobId, seq: 1 },
      { id: second.jobId, seq: 2 },
    ]);
    // The engine hands out numbers: the last job gone (purged), its number is not given again.
    await raw.run("DELETE FROM jobs WHERE id = ?", second.jobId);
    const third = await submitJob(store, input({ ids: undefined }));
    if (!third.ok) throw new Error("submission failed");
    expect(await raw.get<{ seq: number }>("SELECT seq FROM jobs WHERE id = ?", third.jobId)).toEqual({ seq: 3 });
  });

  it("holds a SUSPENDED job: every task SUSPENDED", async () => {
    const result = await submitJob(store, input({ settings: { initialState: "SUSPENDED", priority: 80, submitter: "ana", maxRetriesPerTask: 0, maxFailedTasks: 5 } }));
    expect(result.ok).toBe(true);
    const [job] = await selectAll(jobs);
    expect(job).toMatchObject({ suspended: true, status: "SUSPENDED", priority: 80, submitter: "ana", maxRetriesPerTask: 0, maxFailedTasks: 5 });
    expect(countsFromValues(job!)).toMatchObject({ SUSPENDED: 21, READY: 0, PENDING: 0 });
    expect((await selectAll(steps)).map((s) => s.status)).toEqual(["SUSPENDED", "SUSPENDED"]);
    expect(new Set((await selectAll(tasks)).map((t) => t.status))).toEqual(new Set(["SUSPENDED"]));
  });

  it("makes one task per chunk, valued with the chunk's range expression", async () => {
    const chunked = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_CHUNKING]
name: Chunked
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: CHUNK[INT]
      range: 1-10
      chunks:
        defaultTaskCount: 4
        rangeConstraint: CONTIGUOUS
  script:
    actions:
      onRun:
        command: echo
`;
    expect(await submitJob(store, input({ template: { text: chunked, format: "yaml" } }))).toMatchObject({ ok: true, taskCount: 3 });
    expect((await selectAll(steps))[0]).toMatchObject({ chunked: true, taskCount: 3 });
    expect((await stepTasks("job-abcdefghij:0")).map((t) => JSON.parse(t.parameters).Frame)).toEqual([
      { type: "CHUNK[INT]", value: "1-4" },
      { type: "CHUNK[INT]", value: "5-7" },
      { type: "CHUNK[INT]", value: "8-10" },
    ]);
  });

  it("writes tasks across insert batches, remainder included", async () => {
    const result = await submitJob(store, input({ parameterValues: { Frames: 1001 } }));
    expect(result).toMatchObject({ ok: true, taskCount: 2003 });
    const rows = await stepTasks("job-abcdefghij:0");
    expect(rows).toHaveLength(2002);
    expect(rows.at(-1)).toMatchObject({ taskIndex: 2001, parameters: '{"Frame":{"type":"INT","value":"1001"},"Layer":{"type":"STRING","value":"fg"}}' });
  });

  it("returns located template errors and writes nothing", async () => {
    const broken = RENDER.replace("    - name: Layer\n      type: STRING", "    - name: Layer\n      type: STRANGE");
    const result = await submitJob(store, input({ template: { text: broken, format: "yaml" } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.length).toBeGreaterThan(0);
    expect(result.errors[0]).toMatchObject({ origin: "template", path: expect.stringContaining("steps[0].parameterSpace.taskParameterDefinitions[1].type"), line: 25, column: 13 });
    expect(await rowCounts()).toEqual({ jobs: 0, steps: 0, tasks: 0 });
  });

  it("reports YAML syntax errors with their position", async () => {
    const result = await submitJob(store, input({ template: { text: "name: [unclosed\n", format: "yaml" } }));
    expect(result).toMatchObject({ ok: false, errors: [{ origin: "template", line: expect.any(Number) }] });
  });

  it("refuses an environment template where a job template belongs", async () => {
    const result = await submitJob(store, input({ template: { text: CONDA, format: "yaml" } }));
    expect(result).toMatchObject({ ok: false, errors: [{ origin: "template" }] });
    expect((await rowCounts()).jobs).toBe(0);
  });

  it("blames bad parameter values on the parameters", async () => {
    const result = await submitJob(store, input({ parameterValues: { Frames: "ten", Nope: 1 } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ origin: "parameters", path: "parameters.Frames", line: null, message: expect.stringContaining("Frames") }),
        expect.objectContaining({ origin: "parameters", path: "parameters", message: expect.stringContaining("Nope") }),
      ]),
    );
    expect(await rowCounts()).toEqual({ jobs: 0, steps: 0, tasks: 0 });
  });

  it.each([
    [{ priority: 101 }, "settings.priority"],
    [{ priority: -1 }, "settings.priority"],
    [{ priority: 2.5 }, "settings.priority"],
    [{ maxRetriesPerTask: -1 }, "settings.maxRetriesPerTask"],
    [{ maxFailedTasks: 0.5 }, "settings.maxFailedTasks"],
    [{ retryDelaySeconds: 3601 }, "settings.retryDelaySeconds"],
    [{ retryDelaySeconds: -1 }, "settings.retryDelaySeconds"],
    [{ maxWorkerFailures: 1.5 }, "settings.maxWorkerFailures"],
    [{ initialState: "RUNNING" as never }, "settings.initialState"],
    [{ submitter: "" }, "settings.submitter"],
  ])("refuses settings %j", async (settings, path) => {
    const result = await submitJob(store, input({ settings }));
    expect(result).toMatchObject({ ok: false, errors: [{ origin: "settings", path }] });
    expect((await rowCounts()).jobs).toBe(0);
  });

  it("reports settings and parameter problems together", async () => {
    const result = await submitJob(store, input({ settings: { priority: 500 }, parameterValues: { Frames: "ten" } }));
    expect(result.ok ? [] : result.errors.map((e) => [e.origin, e.path])).toEqual([
      ["settings", "settings.priority"],
      ["parameters", "parameters.Frames"],
    ]);
  });

  it("stores PATH values absolute: submitted ones against workingDir, defaults against templateDir", async () => {
    const result = await submitJob(store, input({ parameterValues: { Output: "out/../final" }, workingDir: "/home/artist/work" }));
    expect(result.ok).toBe(true);
    expect((await selectAll(jobs))[0]?.parameters.Output).toEqual({ type: "PATH", value: "/home/artist/work/final" });
  });

  it("keeps environment templates and puts them first in every step's stack", async () => {
    const result = await submitJob(store, input({ environmentTemplates: [{ text: CONDA, format: "yaml" }] }));
    expect(result.ok).toBe(true);
    expect((await selectAll(jobs))[0]?.environmentTemplates).toEqual([{ text: CONDA, format: "yaml" }]);
    for (const step of await selectAll(steps)) expect(JSON.parse(step.environmentStack)).toEqual(["template:0:Conda", "job:Farm"]);
  });

  it("locates environment template errors under environments[i]", async () => {
    const result = await submitJob(store, input({ environmentTemplates: [{ text: CONDA.replace("name: Conda", "name: 5"), format: "yaml" }] }));
    expect(result).toMatchObject({ ok: false, errors: [{ origin: "environment", path: expect.stringMatching(/^environments\[0\]\.environment\.name/), line: 3 }] });
  });

  it("refuses jobs over the maximum task count", async () => {
    const result = await submitJob(store, input({ maxTaskCount: 20 }));
    expect(result).toMatchObject({ ok: false, errors: [{ origin: "template", path: "steps", message: expect.stringContaining("21 tasks; this farm accepts at most 20") }] });
    expect(await rowCounts()).toEqual({ jobs: 0, steps: 0, tasks: 0 });
  });

  it("stores what a worker needs to recreate the identical job", async () => {
    await submitJob(store, input({ parameterValues: { Scene: "shot9", Frames: 3 }, environmentTemplates: [{ text: CONDA, format: "yaml" }] }));
    const [row] = await selectAll(jobs);
    const checked = checkTemplateText(row!.templateText, row!.templateFormat, "job");
    const envs = row!.environmentTemplates.map((t) => checkTemplateText(t.text, t.format, "environment").template);
    if (checked.template?.kind !== "job" || envs.some((t) => t?.kind !== "environment")) throw new Error("stored templates are invalid");
    const recreated = createJob({
      template: checked.template.template,
      environmentTemplates: envs.map((t) => (t as { kind: "environment"; template: never }).template),
      parameterValues: Object.fromEntries(Object.entries(row!.parameters).map(([k, v]) => [k, parameterValueToJson(v as never) as string])),
    });
    if (!recreated.ok) throw new Error(JSON.stringify(recreated.errors));
    expect(recreated.job.parameters).toEqual(row!.parameters);
    const step = recreated.job.steps.find((s) => s.name === "Render")!;
    expect((await stepTasks("job-abcdefghij:0")).map((t) => JSON.parse(t.parameters))).toEqual([...step.parameterSpace].map((set) => ({ ...set })));
  });
});

describe("submitToFarm (checked on a thread, written in slices)", () => {
  const rowsOf = async (s: Store, jobId: string) => ({
    job: await rawOf(s).get(`SELECT name, status, ${countColumnsSql()}, task_count, priority, parameters FROM jobs WHERE id = ?`, jobId),
    steps: await rawOf(s).all(`SELECT step_index, name, status, ${countColumnsSql()}, task_count, environment_stack, host_requirements FROM steps WHERE job_id = ? ORDER BY step_index`, jobId),
    tasks: await rawOf(s).all("SELECT step_id, task_index, parameters, status FROM tasks WHERE job_id = ? ORDER BY id", jobId),
  });

  it("writes exactly the rows submitJob writes", async () => {
    const t = await testFarm();
    const farmInput = { ...input(), ids: { jobId: () => "job-abcdefghij" } };
    const result = await submitToFarm(t.farm, farmInput);
    expect(result).toEqual({ ok: true, jobId: "job-abcdefghij", taskCount: 21 });
    await submitJob(store, input());
    expect(await rowsOf(t.farm.store, "job-abcdefghij")).toEqual(await rowsOf(store, "job-abcdefghij"));
    expect(await rawOf(t.farm.store).get("SELECT COUNT(*) AS n FROM server_state WHERE key LIKE 'job-creating:%'")).toEqual({ n: 0 });
  });

  it("lists a job being created as PENDING with no tasks; a cancel of it waits until it is whole", async () => {
    const t = await testFarm();
    const raw = rawOf(t.farm.store);
    const creating = submitToFarm(t.farm, { ...input({ template: { text: productTemplate(200, 200), format: "yaml" } }), ids: { jobId: () => "job-bigbigbigb" } });
    // Whatever the test's fate, the submission ends before the store closes (this runs before testFarm's close).
    onTestFinished(() => settled(creating));
    const job = () => raw.get<{ status: string; task_count: number }>("SELECT status, task_count FROM jobs");
    while (!(await job())) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await job()).toEqual({ status: "PENDING", task_count: 0 });
    const canceled = cancelTasks(t.farm, { jobId: "job-bigbigbigb" }, SYSTEM_ACTOR);
    onTestFinished(() => settled(canceled));
    expect(await creating).toEqual({ ok: true, jobId: "job-bigbigbigb", taskCount: 40_000 });
    expect(await canceled).toEqual({ changed: 40_000 });
    expect(await job()).toEqual({ status: "CANCELED", task_count: 40_000 });
    const actions = await raw.column("SELECT action FROM audit_log WHERE target_id = 'job-bigbigbigb' ORDER BY id");
    expect(actions).toEqual(["job.cancel"]);
  });

  it("holds a step no worker can run NOT_COMPATIBLE from the start", async () => {
    const t = await testFarm();
    await registerWorker(t.farm, t.pool, { ...LINUX_WORKER("small"), capabilities: { ...LINUX_WORKER("small").capabilities, amounts: { "amount.worker.vcpu": 1 } } });
    const result = await submitToFarm(t.farm, input());
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const [render] = await rawOf(t.farm.store).all<{ status: string; incompatible_reason: string | null }>(
      "SELECT status, incompatible_reason FROM steps WHERE job_id = ? ORDER BY step_index",
      result.jobId,
    );
    expect(render).toEqual({ status: "NOT_COMPATIBLE", incompatible_reason: expect.stringMatching(/amount\.worker\.vcpu/) });
  });
});

// SQLite only: a SQLite file database under load, with the WAL checkpoint thread the server runs beside it.
describe.skipIf(testEngine() === "postgres")("a 1,000,000-task job on a file database (SQLite only: a SQLite file and its WAL checkpoints)", () => {
  it("is submitted and canceled without stalling the event loop over 200 ms, its counts right after each", { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "loom-million-"));
    const fileStore = openStore(join(dir, "loom.db"));
    const farm = createFarm(fileStore, { settings: { dataDir: dir } });
    // As the server runs it: the background loop (and its WAL checkpoint thread).
    const loop = new FarmLoop(farm, 60_000);
    loop.start();
    onTestFinished(async () => {
      await loop.stop();
      await fileStore.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const api = createCallerFactory(appRouter)(await contextAs(farm, "wrangler"));
    const counts = (jobId: string) => {
      const job = fileStore.sqlite.prepare<[string], CountColumnsRow & { status: string; task_count: number }>(`SELECT status, ${countColumnsSql()}, task_count FROM jobs WHERE id = ?`).get(jobId)!;
      const step = fileStore.sqlite.prepare<[string], CountColumnsRow>(`SELECT ${countColumnsSql()} FROM steps WHERE job_id = ?`).get(jobId)!;
      const actual = fileStore.sqlite.prepare<[string], { status: string; n: number }>("SELECT status, COUNT(*) AS n FROM tasks WHERE job_id = ? GROUP BY status").all(jobId);
      return { status: job.status, taskCount: job.task_count, job: nonZero(countsFromRow(job)), step: nonZero(countsFromRow(step)), rows: Object.fromEntries(actual.map((r) => [r.status, r.n])) };
    };
    const lag = monitorEventLoopDelay({ resolution: 10 });

    lag.enable();
    const submitted = await api.jobs.submit({ template: { text: productTemplate(1000, 1000), format: "yaml" } });
    lag.disable();
    if (!submitted.ok) throw new Error(JSON.stringify(submitted.errors));
    const submitStall = lag.max / 1e6;
    expect(counts(submitted.jobId)).toEqual({ status: "READY", taskCount: 1_000_000, job: { READY: 1_000_000 }, step: { READY: 1_000_000 }, rows: { READY: 1_000_000 } });

    lag.reset();
    lag.enable();
    const canceled = await api.jobs.cancel({ jobId: submitted.jobId });
    lag.disable();
    const cancelStall = lag.max / 1e6;
    expect(canceled).toEqual({ changed: 1_000_000 });
    expect(counts(submitted.jobId)).toEqual({ status: "CANCELED", taskCount: 1_000_000, job: { CANCELED: 1_000_000 }, step: { CANCELED: 1_000_000 }, rows: { CANCELED: 1_000_000 } });
    const audit = fileStore.sqlite.prepare("SELECT action, after FROM audit_log WHERE target_id = ? ORDER BY id").all(submitted.jobId) as Array<{ action: string; after: string }>;
    expect(audit.map((a) => [a.action, JSON.parse(a.after)])).toEqual([
      ["job.submit", { name: "product", tasks: 1_000_000, priority: 50, initialState: "READY" }],
      ["job.cancel", { changed: 1_000_000 }],
    ]);
    expect(Math.max(submitStall, cancelStall), `longest stall: submitting ${submitStall.toFixed(0)} ms, canceling ${cancelStall.toFixed(0)} ms`).toBeLessThan(200);
  });
});

/** Resolves once `promise` settles, either way. */
async function settled(promise: Promise<unknown>): Promise<void> {
  await promise.catch(() => undefined);
}

function nonZero(counts: StatusCounts): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}
