/**
 * The task state machine under random farm events (issue 12 point 2): jobs submitted, workers
 * claiming, starting, finishing and failing work (alone, or several in one group commit of the
 * sync batcher, now and then with one sync that fails and rolls back alone), wranglers canceling,
 * requeuing, retrying, suspending and resuming (also while syncs commit between the chunks of a
 * 1,200-task job), workers drained, disabled, fenced and lost as the clock moves on — all through
 * the real services on a real farm (state-machine-test-support.ts). After every event:
 *
 * - every status change any task made (recorded by the database itself) is a move of the
 *   transition table, made for a reason the event may cause (MAY_CAUSE), and the moves account
 *   for each task's change between the snapshots before and after the event;
 * - a wrangler's operation leaves none of its target in the statuses it moves from;
 * - every step's and job's stored counts equal a GROUP BY recount, and its status is their roll-up;
 * - task-to-task edges, any-of groups and each task's `waiting` agree with the task rows, and no
 *   release was lost (checkDependencies; one of the templates has such dependencies).
 *
 * Across the runs, every move of the table the events can make must have been seen.
 * LOOM_PROPERTY_SEED=<n> replays a run (fast-check prints the seed of a failure).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SyncResponse } from "../../lib/farm/protocol";
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import { ALLOWED_MOVES, canMove, eventsOf, movableTo, type TaskEvent } from "../../lib/farm/task-transitions";
import type { Farm } from "../context/farm";
import type { WorkerIdentity } from "../services/authenticate-worker";
import { SYSTEM_ACTOR } from "../services/audit";
import { cancelTasks } from "../services/cancel-tasks";
import { refreshCompatibility } from "../services/compatibility";
import { drainWorker, setWorkerDisabled, undrainWorker } from "../services/drain-worker";
import { submit } from "../services/farm-test-support";
import { requeueTasks, retryFailedTasks } from "../services/requeue-tasks";
import { resumeTasks, suspendTasks } from "../services/suspend-tasks";
import { sweepWorkers } from "../services/sweep-workers";
import { syncBatcher } from "../services/sync-batcher";
import { moveTasks, resolveTarget, type TaskTarget } from "../services/task-target";
import { testEngine } from "../store/engines-test-support";
import {
  Agent,
  BIG_JOB,
  checkCounts,
  checkDependencies,
  heldTasks,
  isFence,
  LINUX,
  oneChunkPerSlice,
  targetOf,
  TEMPLATES,
  holdAfterFirstSlice,
  recordingFarm,
  runFarm,
  unreadableReport,
  WINDOWS,
  type PropertyFarm,
  type TaskMove,
} from "./state-machine-test-support";

const SEED = process.env.LOOM_PROPERTY_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.LOOM_PROPERTY_SEED);
if (!Number.isSafeInteger(SEED)) throw new Error(`LOOM_PROPERTY_SEED must be an integer, not ${process.env.LOOM_PROPERTY_SEED}`);

// ---------------------------------------------------------------------------------------------
// What each part of an event may make a task do: the table's reasons (TaskEvent), as data.

type Cause = "submit" | "sync" | "register" | "sweep" | "drain" | "disable" | Wrangle;

const REFRESH: readonly TaskEvent[] = ["not-compatible", "compatible-again", "release"];
const MAY_CAUSE: Record<Cause, readonly TaskEvent[]> = {
  /** New tasks are inserted in their first status; the compatibility refresh after it may move others. */
  submit: REFRESH,
  /** A worker's reports (a run it canceled when drained now or disabled: "drain"), then what it is given; a failure over the job's limit cancels what waits; dependents are released. */
  sync: ["claim", "start", "succeed", "fail", "not-attempted", "drain", "job-failed", "release"],
  /** Registering again interrupts what the old lease held; the worker set changed, so compatibility is refreshed. */
  register: ["worker-lost", ...REFRESH],
  sweep: ["worker-lost", "assigned-timeout"],
  /** Only a flag: the worker's next sync cancels and reports (a "sync" move). */
  drain: [],
  disable: REFRESH,
  cancel: ["cancel"],
  suspend: ["suspend"],
  /** Each chunk's settleJob releases what no longer waits on a dependency. */
  resume: ["resume", "release"],
  requeue: ["requeue", "release"],
  retry: ["retry", "release"],
};

const WRANGLERS = { cancel: cancelTasks, requeue: requeueTasks, retry: retryFailedTasks, suspend: suspendTasks, resume: resumeTasks };
type Wrangle = keyof typeof WRANGLERS;

/**
 * What a wrangler's operation leaves none of its target in: the statuses it moves from (a requeue
 * releases to READY). Retry and requeue are not checked when syncs ran between their chunks: a
 * task retried in the first chunk may be claimed and fail again before the last.
 */
const LEAVES_NONE: Record<Wrangle, { statuses: readonly TaskStatus[]; interleaved: boolean }> = {
  cancel: { statuses: movableTo("CANCELED", "cancel"), interleaved: true },
  suspend: { statuses: movableTo("SUSPENDED", "suspend"), interleaved: true },
  resume: { statuses: movableTo("PENDING", "resume"), interleaved: true },
  requeue: { statuses: movableTo("PENDING", "requeue").filter((s) => s !== "READY"), interleaved: false },
  retry: { statuses: movableTo("PENDING", "retry"), interleaved: false },
};

/** Moves of the table no driven event makes, each with why (none today: every move is reached). */
const UNREACHABLE: ReadonlyArray<{ from: TaskStatus; to: TaskStatus; why: string }> = [];

const pairsOf = (allowed: typeof ALLOWED_MOVES) => TASK_STATUSES.flatMap((from) => [...allowed[from]].map((to) => `${from} → ${to}`));

// ---------------------------------------------------------------------------------------------
// The events.

const WORKERS = 3;
/** Mostly the Linux workers (0, 1): the Windows one (2) has only the Windows steps to run. */
const worker = fc.constantFrom(0, 0, 1, 1, 2);
const workers = fc.subarray([0, 1, 2], { minLength: 2 });
/** Which job a wrangler acts on: one of those submitted, or (busy) one with a task running, where the moves of running tasks are. */
const job = fc.nat({ max: 7 });
const busy = fc.constantFrom(false, true);
const scope = fc.constantFrom("job", "step", "tasks", "most");
const wrangle = fc.constantFrom<Wrangle>("cancel", "requeue", "retry", "suspend", "resume");
/** A group commit's failing member: a stale lease's sync, or a report the store refuses after the sender's genuine ones. */
const poison = fc.constantFrom("none", "none", "stale-lease", "bad-report");
/** What each worker does before a group commit, so its sync carries reports. */
const acts = fc.array(fc.constantFrom("idle", "start", "SUCCEEDED", "FAILED"), { minLength: WORKERS, maxLength: WORKERS });

const submitEvent = fc.record({
  kind: fc.constant("submit"),
  template: fc.nat({ max: TEMPLATES.length - 1 }),
  suspended: fc.constantFrom(false, false, false, true),
  retries: fc.nat({ max: 2 }),
  failedTasks: fc.nat({ max: 3 }),
  retryDelay: fc.constantFrom(0, 30),
});
/** The events, with `between` the weight of a wrangler operation that syncs commit in the middle of (more for the big job). */
const farmEvents = (between: number) =>
  fc.oneof(
    { weight: 3, arbitrary: submitEvent },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("sync"), worker, draining: fc.constantFrom(false, false, false, false, true) }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant("start"), worker }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant("end"), worker, outcome: fc.constantFrom("SUCCEEDED", "SUCCEEDED", "FAILED", "TIMEOUT", "NEVER_ATTEMPTED") }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("group-commit"), workers, acts, poison }) },
    { weight: 4, arbitrary: fc.record({ kind: fc.constant("wrangle"), op: wrangle, job, busy, scope, pick: fc.nat() }) },
    { weight: between, arbitrary: fc.record({ kind: fc.constant("wrangle-between-syncs"), op: wrangle, job, busy, scope, pick: fc.nat(), workers, acts, poison }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("tick"), seconds: fc.constantFrom(20, 70, 130), syncing: workers }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("drain"), worker, mode: fc.constantFrom("NOW", "AFTER_TASK", "undrain", "undrain") }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("disable"), worker: fc.constantFrom(0, 1, 2, 2), disabled: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("register"), worker }) },
  );
type FarmEvent = ReturnType<typeof farmEvents> extends fc.Arbitrary<infer T> ? T : never;

/** What the runs saw, for the assertions that the cases meant to be exercised were. */
interface Tally {
  pairs: Set<string>;
  /** Group commits whose failing member had reports about tasks its worker held (so its rollback undid real moves). */
  rolledBack: number;
  /** Wrangler operations with a group commit between their chunks. */
  interleaved: number;
  /** The most tasks one wrangler operation moved (over 1,000: it walked several chunks). */
  biggestMove: number;
}
const newTally = (): Tally => ({ pairs: new Set(), rolledBack: 0, interleaved: 0, biggestMove: 0 });

interface World {
  pf: PropertyFarm;
  agents: Agent[];
  jobs: string[];
  tally: Tally;
  wranglers: typeof WRANGLERS;
  /** The moves of the current event, for the snapshot check. */
  moves: TaskMove[];
  /** Ends the run's farm. */
  end: () => Promise<void>;
}

async function newWorld(tally: Tally, wranglers = WRANGLERS, big = false): Promise<World> {
  const { t, end } = await runFarm();
  const pf = await recordingFarm(t);
  const agents = Array.from({ length: WORKERS }, (_, i) => new Agent(pf.t, { name: `w${i}`, capabilities: i === 2 ? WINDOWS : LINUX, instanceId: `instance-${i}-0000` }));
  // Two Linux workers from the start; the Windows one comes with its first event.
  await agents[0]!.register();
  await agents[1]!.register();
  const jobs = big ? [await submit(pf.t, BIG_JOB)] : [];
  return { pf, agents, jobs, tally, wranglers, moves: [], end };
}

/** Takes the moves made since the last take: each in the table and made for a reason `cause` may have. */
async function take(world: World, cause: Cause, what: string): Promise<TaskMove[]> {
  const taken = await world.pf.takeMoves();
  for (const { task, from, to } of taken) {
    expect(canMove(from, to), `task ${task} moved ${from} → ${to} on ${what}`).toBe(true);
    const why = eventsOf(from, to);
    expect(
      why.some((w) => MAY_CAUSE[cause].includes(w)),
      `task ${task} moved ${from} → ${to} (a move for ${why.join(" or ")}) in the ${cause} part of ${what}`,
    ).toBe(true);
    world.tally.pairs.add(`${from} → ${to}`);
  }
  world.moves.push(...taken);
  return taken;
}

async function part(world: World, cause: Cause, what: string, run: () => Promise<unknown>): Promise<void> {
  await run();
  await take(world, cause, what);
}

async function registered(world: World, agent: Agent, what: string): Promise<void> {
  if (agent.fenced) await part(world, "register", what, () => agent.register());
}

/**
 * Several workers' syncs in one group commit of the sync batcher, maybe with one that fails: its
 * savepoint rolls back alone (the tasks its worker held are as before) while the others commit.
 */
async function groupCommit(world: World, which: number[], poisoned: string, what: string): Promise<void> {
  const agents = which.map((i) => world.agents[i]!).filter((agent) => !agent.fenced);
  const batcher = syncBatcher(world.pf.t.farm);
  const victim = agents.length > 0 ? agents[0] : undefined;
  const held = victim && poisoned === "bad-report" ? await heldTasks(world.pf.t.farm, victim.reports) : new Map<number, TaskStatus>();
  // Who each one is, first: the syncs below are then sent in one turn, so they make one batch.
  const identities: WorkerIdentity[] = [];
  for (const agent of agents) identities.push(await agent.identity());
  // A sync of the victim's lease before the one it holds now (a late duplicate), first in the batch.
  const ghost = victim && poisoned === "stale-lease" ? batcher.sync(identities[0]!, { ...victim.request(), leaseEpoch: victim.leaseEpoch - 1 }) : undefined;
  // Its refusal is checked below; handled now, so that it is not reported unhandled while the take reads (on PostgreSQL that waits for I/O).
  ghost?.catch(() => undefined);
  const sent = agents.map((agent, i) => {
    const request = agent === victim && poisoned === "bad-report" ? { ...agent.request(), updates: [...agent.reports, unreadableReport()] } : agent.request();
    return { agent, poisoned: agent === victim && poisoned === "bad-report", answer: batcher.sync(identities[i]!, request) };
  });
  const answers = await Promise.allSettled(sent.map((s) => s.answer));
  await take(world, "sync", what);
  if (ghost) await expect(ghost, `stale lease on ${what}`).rejects.toMatchObject({ code: "LEASE_CONFLICT" });
  answers.forEach((answer, i) => {
    const { agent, poisoned: bad } = sent[i]!;
    if (bad) expect(answer.status, `the unreadable report's sync on ${what}`).toBe("rejected");
    if (answer.status === "fulfilled") return agent.answered(answer.value as SyncResponse);
    if (!bad && !isFence(answer.reason)) throw answer.reason;
    agent.refused(answer.reason);
  });
  const after = await world.pf.statuses();
  for (const [task, status] of held) expect(after.get(task), `task ${task} of the rolled-back sync on ${what}`).toBe(status);
  if (held.size > 0) world.tally.rolledBack++;
}

/** Gets the workers of a group commit ready: registered, and with reports of work started or ended (asking for work first, by a direct sync, when they hold none). */
async function beforeGroupCommit(world: World, which: number[], acts: readonly string[], what: string): Promise<void> {
  for (const i of which) await registered(world, world.agents[i]!, what);
  await part(world, "sync", what, async () => {
    for (const i of which) {
      const act = acts[i];
      if (act === "start") await world.agents[i]!.start();
      else if (act === "SUCCEEDED" || act === "FAILED") await world.agents[i]!.end(act);
    }
  });
}

/** Resolves on the next turn of the event loop (after the immediates queued before it). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A wrangler's operation; with `between`, a group commit lands after its first slice (between its first two chunks when it has several). */
async function wrangleTasks(world: World, event: { op: Wrangle; job: number; busy: boolean; scope: string; pick: number }, what: string, between?: () => Promise<void>): Promise<void> {
  const running = event.busy ? await world.pf.runningJobs() : [];
  const jobId = running.length > 0 ? running[event.job % running.length] : world.jobs[event.job % Math.max(1, world.jobs.length)];
  if (!jobId) return;
  const target = await targetOf(world.pf, jobId, event.scope, event.pick);
  const ids = await world.pf.targetIds(target);
  const restore = between ? oneChunkPerSlice() : () => {};
  const hold = between && testEngine() === "postgres" ? holdAfterFirstSlice(world.pf.t.farm.store) : undefined;
  const moved = new Set<number>();
  try {
    let done = false;
    const wrangle = () => world.wranglers[event.op](world.pf.t.farm, target, SYSTEM_ACTOR);
    const operation = (hold ? hold.run(wrangle) : wrangle()).finally(() => (done = true));
    try {
      if (between) {
        // On SQLite its units run in microtasks (the statements are synchronous), so by the next
        // turn of the event loop the first slice has committed and the operation waits between
        // slices (in-slices.ts); the batcher commits on the turn after, before the next slice.
        // On PostgreSQL the operation is held after its first slice until the batcher committed.
        await (hold ? Promise.race([hold.firstSlice, operation.catch(() => undefined)]) : nextTurn());
        for (const move of await take(world, event.op, what)) moved.add(move.task);
        await between();
        if (!done) world.tally.interleaved++;
      }
    } catch (error) {
      hold?.release();
      await operation.catch(() => undefined); // its slices run on this farm, not after the run closed it
      throw error;
    }
    hold?.release();
    await operation;
    for (const move of await take(world, event.op, what)) moved.add(move.task);
  } finally {
    hold?.restore();
    restore();
  }
  world.tally.biggestMove = Math.max(world.tally.biggestMove, moved.size);
  const leaves = LEAVES_NONE[event.op];
  if (between && !leaves.interleaved) return;
  const after = await world.pf.statuses();
  const left = ids.filter((id) => leaves.statuses.includes(after.get(id)!));
  expect(
    left.map((id) => `${id}: ${after.get(id)}`),
    `${event.op} left tasks behind on ${what}`,
  ).toEqual([]);
}

async function apply(world: World, event: FarmEvent): Promise<void> {
  const { t } = world.pf;
  const what = JSON.stringify(event);
  const agent = "worker" in event ? world.agents[event.worker]! : undefined;
  if (agent && event.kind !== "register") await registered(world, agent, what);
  switch (event.kind) {
    case "submit": {
      const settings = {
        initialState: event.suspended ? ("SUSPENDED" as const) : ("READY" as const),
        maxRetriesPerTask: event.retries,
        maxFailedTasks: event.failedTasks,
        retryDelaySeconds: event.retryDelay,
      };
      return part(world, "submit", what, async () => {
        world.jobs.push(await submit(t, TEMPLATES[event.template]!, { settings }));
        await refreshCompatibility(t.farm); // as the farm does after a submission
      });
    }
    case "sync":
      return part(world, "sync", what, () => agent!.sync(event.draining));
    case "start":
      return part(world, "sync", what, async () => {
        await agent!.start();
        await agent!.sync();
      });
    case "end":
      return part(world, "sync", what, async () => {
        await agent!.end(event.outcome);
        await agent!.sync();
      });
    case "group-commit":
      await beforeGroupCommit(world, event.workers, event.acts, what);
      return groupCommit(world, event.workers, event.poison, what);
    case "wrangle":
      return wrangleTasks(world, event, what);
    case "wrangle-between-syncs":
      // Only the group commit lands between the operation's slices (a registration there could bring back tasks it already passed).
      await beforeGroupCommit(world, event.workers, event.acts, what);
      return wrangleTasks(world, event, what, () => groupCommit(world, event.workers, event.poison, what));
    case "tick":
      t.clock.now += event.seconds * 1000;
      await groupCommit(world, event.syncing, "none", what);
      return part(world, "sweep", what, () => sweepWorkers(t.farm));
    case "drain":
      return part(world, "drain", what, async () => (event.mode === "undrain" ? undrainWorker(t.farm, agent!.workerId, SYSTEM_ACTOR) : drainWorker(t.farm, agent!.workerId, event.mode, SYSTEM_ACTOR)));
    case "disable":
      return part(world, "disable", what, async () => setWorkerDisabled(t.farm, agent!.workerId, event.disabled, SYSTEM_ACTOR));
    case "register":
      return part(world, "register", what, () => agent!.register());
  }
}

// ---------------------------------------------------------------------------------------------
// The checks after every event.

async function check(world: World, before: Map<number, TaskStatus>, event: FarmEvent): Promise<Map<number, TaskStatus>> {
  const { pf } = world;
  const after = await pf.statuses();
  const what = JSON.stringify(event);

  // The moves chain up to each task's change between the snapshots.
  const chains = new Map<number, { first: TaskStatus; last: TaskStatus }>();
  for (const move of world.moves.splice(0)) {
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

  await checkCounts(pf, world.jobs, what);
  await checkDependencies(pf, world.jobs, what);
  return after;
}

function property(tally: Tally, options: { minLength: number; maxLength: number; wranglers?: typeof WRANGLERS; big?: boolean }) {
  const events = fc.array(farmEvents(options.big ? 6 : 1), { minLength: options.minLength, maxLength: options.maxLength });
  // Every run starts with a job (the big one, or a submission): events before the first would find nothing to do.
  const sequence = options.big ? events : fc.tuple(submitEvent, events).map(([first, rest]) => [first, ...rest]);
  return fc.asyncProperty(sequence, async (events) => {
    const world = await newWorld(tally, options.wranglers, options.big);
    try {
      let statuses = await world.pf.statuses();
      for (const event of events) {
        await apply(world, event);
        statuses = await check(world, statuses, event);
      }
    } finally {
      await world.end();
    }
  });
}

// Each run's every unit waits for the server on PostgreSQL: there the runs take about four times as long.
const TIMEOUT = testEngine() === "postgres" ? 300_000 : 60_000;

// The seed in the name: a run that times out still says how to replay it.
describe(`the task state machine under random farm events (LOOM_PROPERTY_SEED=${SEED})`, () => {
  it("moves every task only as the table allows, for the event's reasons, with counts and roll-ups true", { timeout: TIMEOUT }, async () => {
    const tally = newTally();
    await fc.assert(property(tally, { minLength: 25, maxLength: 35 }), { numRuns: 120, seed: SEED });

    const unreachable = UNREACHABLE.map((u) => `${u.from} → ${u.to}`);
    const table = pairsOf(ALLOWED_MOVES);
    expect(
      table.filter((p) => unreachable.includes(p)),
      "every UNREACHABLE move is in the table",
    ).toEqual(unreachable);
    const unseen = table.filter((p) => !unreachable.includes(p) && !tally.pairs.has(p));
    expect(unseen, `moves never made (seed ${SEED}: LOOM_PROPERTY_SEED=${SEED} replays it)`).toEqual([]);
    expect(tally.pairs.size, `an UNREACHABLE move was made (seed ${SEED})`).toBe(table.length - unreachable.length);
    expect(tally.rolledBack, `no group commit rolled back a sync that held tasks (seed ${SEED})`).toBeGreaterThan(0);
  });

  it("walks a 1,200-task job's bulk moves chunk by chunk, with syncs committing between chunks", { timeout: TIMEOUT }, async () => {
    const tally = newTally();
    await fc.assert(property(tally, { minLength: 20, maxLength: 25, big: true }), { numRuns: 12, seed: SEED, endOnFailure: true /* shrinking a 1,200-task farm takes minutes */ });
    expect(tally.biggestMove, `no operation moved more than one chunk (seed ${SEED})`).toBeGreaterThan(1_000);
    expect(tally.interleaved, `no group commit landed between chunks (seed ${SEED})`).toBeGreaterThan(0);
  });

  it("notices a retry that also moves SUCCEEDED tasks (the check can fail)", { timeout: TIMEOUT }, async () => {
    // Retry as it would be with SUCCEEDED in its from-list: the moves themselves are in the table.
    const retryingSucceeded = async (farm: Farm, target: TaskTarget) => ({
      changed: await moveTasks(farm, await farm.store.read((tx) => resolveTarget(tx, farm, target)), ["FAILED", "SUCCEEDED"], "PENDING", "requeue"),
      dependents: 0,
    });
    const broken = { ...WRANGLERS, retry: retryingSucceeded };
    const failure = await fc.assert(property(newTally(), { minLength: 25, maxLength: 35, wranglers: broken }), { numRuns: 120, seed: SEED, endOnFailure: true }).catch((error: unknown) => error);
    expect(failure, `the broken retry went unnoticed (seed ${SEED})`).toBeInstanceOf(Error);
    // fast-check carries the property's own error as the cause.
    expect(String((failure as Error).cause)).toMatch(/SUCCEEDED → PENDING \(a move for requeue\) in the retry part/);
  });
});
