/**
 * The task state machine under random farm events (issue 12 point 2): jobs submitted, workers
 * claiming, starting, finishing and failing work, wranglers canceling, requeuing, retrying,
 * suspending and resuming, workers drained, disabled, fenced and lost as the clock moves on —
 * all through the real services on a real farm. After every event:
 *
 * - every step's and job's stored counts equal a GROUP BY recount of the task rows;
 * - every step's and job's status is the roll-up of its counts;
 * - every status change any task made (recorded by the database itself, whichever code made it)
 *   is a move of the transition table, and the recorded moves account for each task's change
 *   between the snapshots before and after the event.
 *
 * The farm is made by one function (sqliteFarm): running the same property on another engine
 * takes another such function.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ActionUpdate, RegisterRequest } from "../../lib/farm/protocol";
import { emptyCounts, rollUpStatus, TASK_STATUSES, type StatusCounts, type TaskStatus } from "../../lib/farm/statuses";
import { canMove } from "../../lib/farm/task-transitions";
import { getJob } from "../queries/jobs";
import { SYSTEM_ACTOR } from "../services/audit";
import { authenticateWorker } from "../services/authenticate-worker";
import { cancelTasks } from "../services/cancel-tasks";
import { refreshCompatibility } from "../services/compatibility";
import { drainWorker, setWorkerDisabled, undrainWorker } from "../services/drain-worker";
import { AppError } from "../context/errors";
import { framesJob, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { registerWorker } from "../services/register-worker";
import { requeueTasks, retryFailedTasks } from "../services/requeue-tasks";
import { resumeTasks, suspendTasks } from "../services/suspend-tasks";
import { sweepWorkers } from "../services/sweep-workers";
import { syncWorker } from "../services/sync-worker";
import type { TaskTarget } from "../services/task-target";

// ---------------------------------------------------------------------------------------------
// The farm, and what the checks read of it: the engine-specific part.

interface TaskMove {
  task: number;
  from: TaskStatus;
  to: TaskStatus;
}

interface PropertyFarm {
  t: TestFarm;
  /** Every task's status, by id. */
  statuses(): Map<number, TaskStatus>;
  /** A job's task ids, in order. */
  taskIds(jobId: string): number[];
  /** Task rows grouped by step and status. */
  recount(): Array<{ stepId: string; status: TaskStatus; n: number }>;
  /** The status changes of task rows since the last call, in the order they were made. */
  takeMoves(): TaskMove[];
}

const SETTINGS = { workerTimeoutSeconds: 120, assignedTimeoutSeconds: 60 };

function sqliteFarm(): PropertyFarm {
  const t = testFarm(SETTINGS);
  const sqlite = t.farm.store.sqlite;
  // Recorded by the database, so no code path (single change, batch or bulk UPDATE) escapes it.
  sqlite.exec(`
    CREATE TEMP TABLE task_moves (seq INTEGER PRIMARY KEY, task INTEGER NOT NULL, from_status TEXT NOT NULL, to_status TEXT NOT NULL);
    CREATE TEMP TRIGGER task_moves_log AFTER UPDATE OF status ON main.tasks WHEN OLD.status IS NOT NEW.status
    BEGIN INSERT INTO task_moves (task, from_status, to_status) VALUES (NEW.id, OLD.status, NEW.status); END;
  `);
  const all = sqlite.prepare<[], { id: number; status: TaskStatus }>("SELECT id, status FROM tasks");
  const ofJob = sqlite.prepare<[string], { id: number }>("SELECT id FROM tasks WHERE job_id = ? ORDER BY id");
  const grouped = sqlite.prepare<[], { stepId: string; status: TaskStatus; n: number }>("SELECT step_id AS stepId, status, COUNT(*) AS n FROM tasks GROUP BY step_id, status");
  const moves = sqlite.prepare<[], TaskMove>('SELECT task, from_status AS "from", to_status AS "to" FROM task_moves ORDER BY seq');
  const forget = sqlite.prepare("DELETE FROM task_moves");
  return {
    t,
    statuses: () => new Map(all.all().map((r) => [r.id, r.status])),
    taskIds: (jobId) => ofJob.all(jobId).map((r) => r.id),
    recount: () => grouped.all(),
    takeMoves: () => {
      const taken = moves.all();
      forget.run();
      return taken;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Workers, played as an agent plays one: it holds what it was given, reports starts and ends,
// cancels what it is told to, and registers again when it is fenced.

const LINUX = { amounts: { "amount.worker.vcpu": 4 }, attributes: { "attr.worker.os.family": ["linux"] } };
const WINDOWS = { amounts: { "amount.worker.vcpu": 4 }, attributes: { "attr.worker.os.family": ["windows"] } };

class Agent {
  workerId = "";
  private leaseEpoch = 0;
  private credential = "";
  private fenced = true;
  /** Actions given and not ended, in the order they run; `running` once its start was reported. */
  private open: Array<{ id: string; running: boolean }> = [];
  private sessions = new Set<string>();
  private pending: ActionUpdate[] = [];

  constructor(
    private readonly t: TestFarm,
    private readonly request: RegisterRequest,
  ) {}

  get registered(): boolean {
    return this.workerId !== "";
  }

  register(): void {
    const answer = registerWorker(this.t.farm, this.t.pool, this.request);
    this.workerId = answer.workerId;
    this.leaseEpoch = answer.leaseEpoch;
    this.credential = answer.credential;
    this.fenced = false;
    this.open = [];
    this.sessions.clear();
    this.pending = [];
  }

  sync(draining = false): void {
    if (this.fenced) this.register();
    let response;
    try {
      response = syncWorker(this.t.farm, authenticateWorker(this.t.farm, this.credential), {
        workerId: this.workerId,
        leaseEpoch: this.leaseEpoch,
        sessions: [...this.sessions],
        actions: this.open.map((a) => a.id),
        updates: this.pending,
        ...(draining ? { draining: true } : {}),
      });
    } catch (error) {
      // Declared lost: it stops everything and registers again on its next turn.
      if (error instanceof AppError && (error.code === "LEASE_CONFLICT" || error.code === "UNAUTHORIZED")) {
        this.fenced = true;
        return;
      }
      throw error;
    }
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

  /** Starts its next action (reported on its next sync); asks for work first when it holds none. */
  start(): void {
    if (this.open.length === 0) this.sync();
    const next = this.open[0];
    if (next && !next.running) {
      next.running = true;
      this.pending.push({ actionId: next.id, status: "RUNNING", startedAt: this.t.clock.now });
    }
  }

  /** Ends its next action (one not started yet ends with its start folded in, as a short task's report does). */
  end(status: "SUCCEEDED" | "FAILED" | "TIMEOUT" | "NEVER_ATTEMPTED"): void {
    if (this.open.length === 0) this.sync();
    const next = this.open.shift();
    if (!next) return;
    const outcome = status === "NEVER_ATTEMPTED" && next.running ? "FAILED" : status;
    const startedAt = next.running || outcome === "NEVER_ATTEMPTED" ? {} : { startedAt: this.t.clock.now };
    this.pending.push({ actionId: next.id, status: outcome, exitCode: outcome === "SUCCEEDED" ? 0 : outcome === "FAILED" ? 1 : null, endedAt: this.t.clock.now, ...startedAt });
  }
}

// ---------------------------------------------------------------------------------------------
// The events.

const WITH_ENVIRONMENT = `specificationVersion: jobtemplate-2023-09
name: env
jobEnvironments:
- name: Venv
  script:
    actions:
      onEnter: {command: setup}
steps:
- name: S
  parameterSpace:
    taskParameterDefinitions: [{name: F, type: INT, range: '1-2'}]
  script:
    actions:
      onRun: {command: echo}
`;
const WINDOWS_ONLY = `specificationVersion: jobtemplate-2023-09
name: win
steps:
- name: W
  hostRequirements:
    attributes: [{name: attr.worker.os.family, anyOf: [windows]}]
  parameterSpace:
    taskParameterDefinitions: [{name: F, type: INT, range: '1-2'}]
  script:
    actions:
      onRun: {command: echo}
`;
const TEMPLATES = [framesJob(3), framesJob(2, { encode: true }), WITH_ENVIRONMENT, WINDOWS_ONLY];

const WORKERS = 3;
// Mostly the Linux workers: the Windows one has only the Windows jobs to run.
const worker = fc.constantFrom(0, 0, 1, 1, 2);
const job = fc.nat({ max: 7 });
const scope = fc.constantFrom("job", "step", "tasks");

const farmEvent = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("submit"),
      template: fc.nat({ max: TEMPLATES.length - 1 }),
      suspended: fc.constantFrom(false, false, false, true),
      retries: fc.nat({ max: 2 }),
      failedTasks: fc.nat({ max: 3 }),
      retryDelay: fc.constantFrom(0, 30),
    }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("sync"), worker, draining: fc.constantFrom(false, false, false, false, true) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("start"), worker }) },
  { weight: 7, arbitrary: fc.record({ kind: fc.constant("end"), worker, outcome: fc.constantFrom("SUCCEEDED", "SUCCEEDED", "FAILED", "TIMEOUT", "NEVER_ATTEMPTED") }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom("cancel", "requeue", "retry", "suspend", "resume"), job, scope, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("tick"), seconds: fc.constantFrom(20, 70, 130), syncing: fc.array(fc.boolean(), { minLength: WORKERS, maxLength: WORKERS }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("drain"), worker, mode: fc.constantFrom("NOW", "AFTER_TASK", "undrain", "undrain") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("disable"), worker, disabled: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("register"), worker }) },
);
type FarmEvent = typeof farmEvent extends fc.Arbitrary<infer T> ? T : never;

interface World {
  pf: PropertyFarm;
  agents: Agent[];
  jobs: string[];
}

function newWorld(): World {
  const pf = sqliteFarm();
  const agents = Array.from({ length: WORKERS }, (_, i) => i).map((i) => new Agent(pf.t, { name: `w${i}`, capabilities: i === 2 ? WINDOWS : LINUX, instanceId: `instance-${i}-0000` }));
  // Two Linux workers from the start; the Windows one comes with its first event.
  agents[0]!.register();
  agents[1]!.register();
  return { pf, agents, jobs: [] };
}

/** A wrangler's target: a whole job, one of its steps, or some of its tasks. */
function targetOf(world: World, jobId: string, scope: string, pick: number): TaskTarget {
  const steps = getJob(world.pf.t.farm, jobId).steps;
  const step = steps[pick % steps.length]!;
  if (scope === "job") return { jobId };
  if (scope === "step") return { jobId, stepId: step.id };
  const ids = world.pf.taskIds(jobId);
  return { jobId, taskIds: ids.filter((_, i) => (pick >> i) & 1 || i === pick % ids.length) };
}

async function apply(world: World, event: FarmEvent): Promise<void> {
  const { t } = world.pf;
  const agent = "worker" in event ? world.agents[event.worker]! : undefined;
  switch (event.kind) {
    case "submit": {
      const settings = {
        initialState: event.suspended ? ("SUSPENDED" as const) : ("READY" as const),
        maxRetriesPerTask: event.retries,
        maxFailedTasks: event.failedTasks,
        retryDelaySeconds: event.retryDelay,
      };
      world.jobs.push(submit(t, TEMPLATES[event.template]!, { settings }));
      refreshCompatibility(t.farm); // as the farm does after a submission
      return;
    }
    case "sync":
      return agent!.sync(event.draining);
    case "start":
      agent!.start();
      return agent!.sync();
    case "end":
      agent!.end(event.outcome);
      return agent!.sync();
    case "cancel":
    case "requeue":
    case "retry":
    case "suspend":
    case "resume": {
      const jobId = world.jobs[event.job % Math.max(1, world.jobs.length)];
      if (!jobId) return;
      const target = targetOf(world, jobId, event.scope, event.pick);
      const service = { cancel: cancelTasks, requeue: requeueTasks, retry: retryFailedTasks, suspend: suspendTasks, resume: resumeTasks }[event.kind];
      await service(t.farm, target, SYSTEM_ACTOR);
      return;
    }
    case "tick":
      t.clock.now += event.seconds * 1000;
      world.agents.forEach((a, i) => {
        if (event.syncing[i] && a.registered) a.sync();
      });
      sweepWorkers(t.farm);
      return;
    case "drain":
      if (!agent!.registered) agent!.register();
      if (event.mode === "undrain") undrainWorker(t.farm, agent!.workerId, SYSTEM_ACTOR);
      else drainWorker(t.farm, agent!.workerId, event.mode as "NOW" | "AFTER_TASK", SYSTEM_ACTOR);
      return;
    case "disable":
      if (!agent!.registered) agent!.register();
      return setWorkerDisabled(t.farm, agent!.workerId, event.disabled, SYSTEM_ACTOR);
    case "register":
      return agent!.register();
  }
}

// ---------------------------------------------------------------------------------------------
// The checks.

function countsOf(rows: Array<{ status: TaskStatus; n: number }>): StatusCounts {
  const counts = emptyCounts();
  for (const row of rows) counts[row.status] += row.n;
  return counts;
}

function check(world: World, before: Map<number, TaskStatus>, event: FarmEvent): Map<number, TaskStatus> {
  const { pf } = world;
  const after = pf.statuses();
  const what = JSON.stringify(event);

  // Every move any task made is in the table, and the moves chain up to its change.
  const chains = new Map<number, { first: TaskStatus; last: TaskStatus }>();
  for (const move of pf.takeMoves()) {
    expect(canMove(move.from, move.to), `task ${move.task} moved ${move.from} → ${move.to} on ${what}`).toBe(true);
    const chain = chains.get(move.task);
    if (chain) {
      expect(move.from, `task ${move.task}'s moves do not chain on ${what}`).toBe(chain.last);
      chain.last = move.to;
    } else chains.set(move.task, { first: move.from, last: move.to });
  }
  for (const [id, status] of after) {
    const was = before.get(id);
    const chain = chains.get(id);
    if (was === undefined) continue; // created by this event
    if (chain) expect([chain.first, chain.last], `task ${id} on ${what}`).toEqual([was, status]);
    else expect(status, `task ${id} changed without a recorded move on ${what}`).toBe(was);
  }

  // Stored counts are the task rows' recount; statuses are the roll-ups of the counts.
  const recount = pf.recount();
  for (const jobId of world.jobs) {
    const job = getJob(pf.t.farm, jobId);
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
  return after;
}

describe("the task state machine under random farm events", () => {
  it("keeps counts, roll-ups and every task move true to the table after every event", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(farmEvent, { minLength: 20, maxLength: 25 }), async (events) => {
        const world = newWorld();
        let statuses = world.pf.statuses();
        for (const event of events) {
          await apply(world, event);
          statuses = check(world, statuses, event);
        }
      }),
      { numRuns: 30 },
    );
  }, 60_000);
});
