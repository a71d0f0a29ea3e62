/**
 * The farm and the actors of state-machine.property.test.ts: a real SQLite farm whose task status
 * changes the database itself records (so no code path escapes the checks), the job templates the
 * events submit, workers played as an agent plays one, and the helpers of its events and checks.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { expect, onTestFinished, vi } from "vitest";
import type { ActionUpdate, RegisterRequest, SyncRequest, SyncResponse } from "../../lib/farm/protocol";
import { emptyCounts, rollUpStatus, TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { getJob } from "../queries/jobs";
import { authenticateWorker, type WorkerIdentity } from "../services/authenticate-worker";
import { framesJob, testFarm, type TestFarm } from "../services/farm-test-support";
import type { AsyncStore } from "../store/engine/engine";
import { emptyTestDatabase, testEngine, testStore } from "../store/engines-test-support";
import { SLICE_MS } from "../services/in-slices";
import { registerWorker } from "../services/register-worker";
import { syncWorker } from "../services/sync-worker";
import type { TaskTarget } from "../services/task-target";
import { dependencyConsistency } from "../store/dependency-consistency-test-support";
import { dependenciesOf } from "../store/task-edges";
import { taskMovesRecorder, type RecordedTaskMove } from "../store/task-moves-recorder";
import { gateOpen, stepGates } from "./step-gates";

// ---------------------------------------------------------------------------------------------
// The farm, and what the checks read of it: the engine-specific part (another engine's property
// run takes another such function).

export type TaskMove = RecordedTaskMove;

export interface PropertyFarm {
  t: TestFarm;
  /** Every task's status, by id. */
  statuses(): Promise<Map<number, TaskStatus>>;
  /** A job's task ids, in order. */
  taskIds(jobId: string): Promise<number[]>;
  /** The jobs with a task running (on a worker, reported started), oldest first. */
  runningJobs(): Promise<string[]>;
  /** The ids of a wrangler target's tasks. */
  targetIds(target: TaskTarget): Promise<number[]>;
  /** Task rows grouped by step and status. */
  recount(): Promise<Array<{ stepId: string; status: TaskStatus; n: number }>>;
  /** The status changes of task rows since the last call, in the order they were made (a rolled-back savepoint's are gone with it). */
  takeMoves(): Promise<TaskMove[]>;
}

export const SETTINGS = { workerTimeoutSeconds: 120, assignedTimeoutSeconds: 60 };

/**
 * A farm on the run's engine whose task status changes the database itself records
 * (server/store/task-moves-recorder.ts: a trigger on either engine). Every read in a unit of its
 * own, between the events' units (the events await every service call they make).
 */
export async function recordingFarm(t: TestFarm): Promise<PropertyFarm> {
  const { store } = t.farm;
  const rows = taskMovesRecorder;
  await store.transaction((tx) => rows.install(tx));
  return {
    t,
    statuses: () => store.read(async (tx) => new Map((await rows.statuses(tx)).map((r) => [r.id, r.status]))),
    taskIds: (jobId) => store.read((tx) => rows.idsOfJob(tx, jobId)),
    runningJobs: () => store.read((tx) => rows.runningJobs(tx)),
    targetIds: ({ jobId, stepId, taskIds }) =>
      store.read(async (tx) => {
        const ids = await (stepId === undefined ? rows.idsOfJob(tx, jobId) : rows.idsOfStep(tx, stepId));
        if (!taskIds) return ids;
        const listed = new Set(taskIds);
        return ids.filter((id) => listed.has(id));
      }),
    recount: () => store.read((tx) => rows.recount(tx)),
    takeMoves: () => store.transaction((tx) => rows.takeMoves(tx)),
  };
}

// ---------------------------------------------------------------------------------------------
// Jobs.

const STEP = (name: string, frames: number, extra = "") => `- name: ${name}
  parameterSpace:
    taskParameterDefinitions: [{name: F, type: INT, range: '1-${frames}'}]
${extra}  script:
    actions:
      onRun: {command: echo}
`;
const needs = (family: string) => `  hostRequirements:\n    attributes: [{name: attr.worker.os.family, anyOf: [${family}]}]\n`;
const after = (step: string) => `  dependencies: [{dependsOn: ${step}}]\n`;

const WITH_ENVIRONMENT = `specificationVersion: jobtemplate-2023-09
name: env
jobEnvironments:
- name: Venv
  script:
    actions:
      onEnter: {command: setup}
steps:
${STEP("S", 2)}`;
/** Runs only where the Windows worker is: NOT_COMPATIBLE while it is missing or disabled. */
const WINDOWS_ONLY = `specificationVersion: jobtemplate-2023-09\nname: win\nsteps:\n${STEP("W", 2, needs("windows"))}`;
/** A Windows step waiting (PENDING) on a Linux one: disabling the Windows worker moves PENDING tasks to NOT_COMPATIBLE. */
const LINUX_THEN_WINDOWS = `specificationVersion: jobtemplate-2023-09\nname: mixed\nsteps:\n${STEP("L", 2)}${STEP("W", 2, needs("windows") + after("L"))}`;
/** No worker ever meets it: NOT_COMPATIBLE until canceled or requeued. */
const NOWHERE = `specificationVersion: jobtemplate-2023-09\nname: nowhere\nsteps:\n${STEP("M", 2, needs("macos"))}`;

/**
 * Task-to-task dependencies (TASK_DEPENDENCIES): a chain in A, B frame by frame on A, and C on all
 * of A (a whole-step gate) and on any of B's frames from its own number on (any-of groups).
 */
const TASK_DEPENDENCIES = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES, EXPR]
name: deps
steps:
${STEP("A", 3, "  dependencies:\n  - {dependsOn: A, dependsOnSubspace: [{name: F, range: ['{{Task.Param.F - 1}}']}]}\n")}${STEP(
  "B",
  3,
  "  dependencies:\n  - {dependsOn: A, dependsOnSubspace: [{name: F, range: '{{Task.Param.F}}'}]}\n",
)}${STEP("C", 2, "  dependencies:\n  - {dependsOn: A}\n  - {dependsOn: B, dependsOnSubspace: {anyOf: [{name: F, range: '{{Task.Param.F}}-3'}]}}\n")}`;

export const TEMPLATES = [framesJob(3), framesJob(2, { encode: true }), WITH_ENVIRONMENT, WINDOWS_ONLY, LINUX_THEN_WINDOWS, NOWHERE, TASK_DEPENDENCIES];

/** More than one chunk of ids (task-target.ts moves 1,000 at a time): two steps of 600, the second waiting on the first. */
export const BIG_JOB = `specificationVersion: jobtemplate-2023-09\nname: big\nsteps:\n${STEP("A", 600)}${STEP("B", 600, after("A"))}`;

// ---------------------------------------------------------------------------------------------
// Workers, played as an agent plays one: it holds what it was given, reports starts and ends,
// cancels what it is told to, and registers again once it is refused as lost.

export const LINUX = { amounts: { "amount.worker.vcpu": 4 }, attributes: { "attr.worker.os.family": ["linux"] } };
export const WINDOWS = { amounts: { "amount.worker.vcpu": 4 }, attributes: { "attr.worker.os.family": ["windows"] } };

/** A sync refused because the worker was declared lost (or its credential replaced): stop everything and register again. */
export function isFence(error: unknown): boolean {
  return error instanceof AppError && (error.code === "LEASE_CONFLICT" || error.code === "UNAUTHORIZED");
}

export class Agent {
  workerId = "";
  leaseEpoch = 0;
  private credential = "";
  /** Refused as lost (or never registered): it registers before its next sync. */
  fenced = true;
  /** Actions given and not ended, in the order they run; `running` once its start was reported. */
  private open: Array<{ id: string; running: boolean }> = [];
  private sessions = new Set<string>();
  private pending: ActionUpdate[] = [];

  constructor(
    private readonly t: TestFarm,
    private readonly registration: RegisterRequest,
  ) {}

  get registered(): boolean {
    return this.workerId !== "";
  }

  /** What its next sync reports. */
  get reports(): readonly ActionUpdate[] {
    return this.pending;
  }

  async register(): Promise<void> {
    const answer = await registerWorker(this.t.farm, this.t.pool, this.registration);
    this.workerId = answer.workerId;
    this.leaseEpoch = answer.leaseEpoch;
    this.credential = answer.credential;
    this.fenced = false;
    this.open = [];
    this.sessions.clear();
    this.pending = [];
  }

  /** Who its credential says it is (as the HTTP layer authenticates a sync). */
  identity(): Promise<WorkerIdentity> {
    return authenticateWorker(this.t.farm, this.credential);
  }

  request(draining = false): SyncRequest {
    return {
      workerId: this.workerId,
      leaseEpoch: this.leaseEpoch,
      sessions: [...this.sessions],
      actions: this.open.map((a) => a.id),
      updates: [...this.pending],
      ...(draining ? { draining: true } : {}),
    };
  }

  answered(response: SyncResponse): void {
    this.pending = [];
    for (const assignment of response.assignments) {
      this.sessions.add(assignment.sessionId);
      for (const action of assignment.actions) if (!this.open.some((a) => a.id === action.actionId)) this.open.push({ id: action.actionId, running: false });
    }
    for (const id of response.cancel) {
      const at = this.open.findIndex((a) => a.id === id);
      if (at < 0) continue;
      this.open.splice(at, 1);
      this.pending.push({ actionId: id, status: "CANCELED", exitCode: null, endedAt: this.t.clock.now });
    }
  }

  /** A sync that failed: refused as lost, it stops everything; any other failure keeps its reports for the next sync (as after a 500). */
  refused(error: unknown): void {
    if (isFence(error)) this.fenced = true;
  }

  /** One sync straight through syncWorker, its own unit of work (a fenced agent waits for its registration). */
  async sync(draining = false): Promise<void> {
    if (this.fenced) return;
    try {
      const { farm } = this.t;
      const caller = await this.identity();
      const request = this.request(draining);
      this.answered(await farm.store.transaction((tx) => syncWorker(farm, tx, caller, request)));
    } catch (error) {
      if (!isFence(error)) throw error;
      this.refused(error);
    }
  }

  /** Starts its next action (reported on its next sync); asks for work first when it holds none. */
  async start(): Promise<void> {
    if (this.open.length === 0) await this.sync();
    const next = this.open[0];
    if (next && !next.running) {
      next.running = true;
      this.pending.push({ actionId: next.id, status: "RUNNING", startedAt: this.t.clock.now });
    }
  }

  /** Ends its next action (one not started yet ends with its start folded in, as a short task's report does). */
  async end(status: "SUCCEEDED" | "FAILED" | "TIMEOUT" | "NEVER_ATTEMPTED"): Promise<void> {
    if (this.open.length === 0) await this.sync();
    const next = this.open.shift();
    if (!next) return;
    const outcome = status === "NEVER_ATTEMPTED" && next.running ? "FAILED" : status;
    const startedAt = next.running || outcome === "NEVER_ATTEMPTED" ? {} : { startedAt: this.t.clock.now };
    this.pending.push({ actionId: next.id, status: outcome, exitCode: outcome === "SUCCEEDED" ? 0 : outcome === "FAILED" ? 1 : null, endedAt: this.t.clock.now, ...startedAt });
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers of the events and checks.

/** A report no store takes (an id SQLite cannot bind), sent after the sender's genuine reports. */
const UNREADABLE: ActionUpdate = { actionId: {} as unknown as string, status: "RUNNING" };

/**
 * A report the store refuses: Its id is an object, which SQLite cannot bind; PostgreSQL's
 * driver sends it as the text '{}' (an unknown action, taken), but refuses a NUL in text.
 */
export function unreadableReport(): ActionUpdate {
  return testEngine() === "sqlite" ? UNREADABLE : { ...UNREADABLE, actionId: "\u0000" };
}

/** The tasks the reports are about that their Session still holds, with their status. */
export function heldTasks(farm: Farm, reports: readonly ActionUpdate[]): Promise<Map<number, TaskStatus>> {
  return farm.store.read(async (tx) => {
    const held = new Map<number, TaskStatus>();
    for (const report of reports) {
      const action = await farm.sessions.action(tx, report.actionId);
      const task = action?.task_id == null ? undefined : await farm.tasks.heldBy(tx, action.task_id, action.session_id);
      if (task) held.set(task.id, task.status);
    }
    return held;
  });
}

/** A wrangler's target: a whole job, one of its steps, some of its tasks, or most of them (over 1,000 of the big job's). */
export async function targetOf(pf: PropertyFarm, jobId: string, scope: string, pick: number): Promise<TaskTarget> {
  const steps = (await getJob(pf.t.farm, jobId)).steps;
  const step = steps[pick % steps.length]!;
  if (scope === "job") return { jobId };
  if (scope === "step") return { jobId, stepId: step.id };
  const ids = await pf.taskIds(jobId);
  if (scope === "most") return { jobId, taskIds: ids.filter((_, i) => i % 8 !== pick % 8) };
  return { jobId, taskIds: ids.filter((_, i) => (i < 30 && (pick >> i) & 1) || i === pick % ids.length) };
}

/** Makes each slice of a chunked move one chunk (in-slices.ts times slices with performance.now), the same on every run. */
export function oneChunkPerSlice(): () => void {
  let now = 0;
  const clock = vi.spyOn(performance, "now").mockImplementation(() => (now += SLICE_MS));
  return () => clock.mockRestore();
}

function countsOf(rows: Array<{ status: TaskStatus; n: number }>): StatusCounts {
  const counts = emptyCounts();
  for (const row of rows) counts[row.status] += row.n;
  return counts;
}

/** Stored counts are the task rows' recount; statuses are the roll-ups of the counts. */
export async function checkCounts(pf: PropertyFarm, jobs: readonly string[], what: string): Promise<void> {
  const recount = await pf.recount();
  for (const jobId of jobs) {
    const job = await getJob(pf.t.farm, jobId);
    const total = emptyCounts();
    for (const step of job.steps) {
      const counted = countsOf(recount.filter((r) => r.stepId === step.id));
      expect(step.counts, `step ${step.name} of ${jobId} after ${what}`).toEqual(counted);
      expect(step.status, `step ${step.name} of ${jobId} after ${what}`).toBe(rollUpStatus(step.counts));
      for (const status of TASK_STATUSES) total[status] += counted[status];
    }
    expect(job.counts, `job ${jobId} after ${what}`).toEqual(total);
    expect(job.status, `job ${jobId} after ${what}`).toBe(rollUpStatus(job.counts));
  }
}

/**
 * Task-to-task dependencies agree with the task rows: an edge is met exactly when its upstream
 * task has succeeded, a group counts its met edges, a task's `waiting` counts its unmet all-of
 * edges and unmet groups, and no PENDING task that waits on nothing is left in a step whose gates
 * are open (a release was lost).
 */
export async function checkDependencies(pf: PropertyFarm, jobs: readonly string[], what: string): Promise<void> {
  const { store } = pf.t.farm;
  const q = dependencyConsistency;
  for (const jobId of jobs) {
    const edges = await q.hasEdges(store, jobId);
    if (edges) {
      expect(await q.wrongEdges(store, jobId), `edges of ${jobId} after ${what}`).toEqual([]);
      expect(await q.wrongGroups(store, jobId), `groups of ${jobId} after ${what}`).toEqual([]);
    }
    expect(await q.wrongWaiting(store, jobId, edges), `waiting of ${jobId}'s tasks after ${what}`).toEqual([]);
    const steps = await q.steps(store, jobId);
    const byName = new Map(steps.map((step) => [step.name, { taskCount: step.task_count, succeeded: step.count_succeeded }]));
    for (const step of steps) {
      if (step.count_pending === 0 || !stepGates(dependenciesOf(step)).every((gate) => gateOpen(gate, byName.get(gate.dependsOn)))) continue;
      expect(await q.pendingWaitingOnNothing(store, step.id), `PENDING tasks of step ${step.name} of ${jobId} wait on nothing after ${what}`).toEqual([]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Running on either engine.

/** The test's PostgreSQL database, shared by its runs. */
let postgresStore: Promise<AsyncStore> | null = null;

/**
 * A run's farm, new and empty, and what ends it. SQLite: testFarm's in-memory store, closed with
 * the run. PostgreSQL: a database of each run's own would cost a copy of the template and, at the
 * file's end, a drop (hundreds of them); so the runs of a test take turns on its one database,
 * emptied before each (ids start at 1 again), with a farm made as testFarm makes one.
 */
export async function runFarm(): Promise<{ t: TestFarm; end: () => Promise<void> }> {
  if (testEngine() === "sqlite") {
    const t = await testFarm(SETTINGS);
    return { t, end: () => t.farm.store.close() };
  }
  if (postgresStore === null) {
    postgresStore = testStore();
    onTestFinished(() => {
      postgresStore = null;
    });
  }
  const store = await postgresStore;
  await emptyTestDatabase(store);
  return { t: await testFarm(SETTINGS, { store }), end: async () => {} };
}

/**
 * On PostgreSQL a unit of work waits for the server, not only for microtasks: a wrangler's slices
 * and a group commit would run at the same time, and their moves mix. So there, the units the
 * operation (run by `run`) opens after its first slice found more to do (inSlices looked at
 * oneChunkPerSlice's clock twice in it) wait until `release()`; `firstSlice` resolves once that
 * slice committed. Nothing else's units are held.
 */
export function holdAfterFirstSlice(store: AsyncStore) {
  const clock = vi.mocked(performance.now);
  const operation = new AsyncLocalStorage<true>();
  let held = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let sliced!: () => void;
  const firstSlice = new Promise<void>((resolve) => (sliced = resolve));
  const transaction = store.transaction.bind(store);
  const spy = vi.spyOn(store, "transaction").mockImplementation((async (fn, options) => {
    if (!operation.getStore()) return transaction(fn, options);
    if (held) await released;
    const before = clock.mock.calls.length;
    const result = await transaction(fn, options);
    if (!held && clock.mock.calls.length - before >= 2) {
      held = true;
      sliced();
    }
    return result;
  }) as AsyncStore["transaction"]);
  return { run: <T>(op: () => Promise<T>) => operation.run(true, op), firstSlice, release, restore: () => spy.mockRestore() };
}
