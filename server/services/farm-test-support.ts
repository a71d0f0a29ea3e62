/**
 * Test support for the farm services: a fresh store of the run's engine (engines-test-support.ts) with a controllable clock, job
 * submission from YAML text, and an in-process protocol client that plays a worker — it calls
 * the same services the HTTP API calls and "runs" each action by deciding its outcome with a
 * callback (real subprocesses are exercised by the worker agent's and the end-to-end tests).
 */
import type { ActionUpdate, AssignedAction, RegisterRequest, RegisterResponse, SessionAssignment, SyncResponse } from "../../lib/farm/protocol";
import { emptyCounts, TASK_STATUSES } from "../../lib/farm/statuses";
import { countsFromRow } from "../db/status-counts";
import { testSupportRepository } from "../store/store-test-support";
import { testStore } from "../store/engines-test-support";
import type { Store } from "../db/connection";
import { SYSTEM_ACTOR } from "./audit";
import { authenticateWorker, type WorkerIdentity } from "./authenticate-worker";
import { createFarm, type Farm, type FarmSettings } from "../context/farm";
import { authenticatePool, createPool, type PoolRow } from "./pools";
import { registerWorker } from "./register-worker";
import { submitJob, type SubmitSettings } from "./submit-job";
import { syncWorker } from "./sync-worker";

export interface TestFarm {
  farm: Farm;
  clock: { now: number };
  pool: PoolRow;
  token: string;
}

/** A farm with a pool "default"; on `store` when given (the caller's to close), else on a fresh one of the run's engine. */
export async function testFarm(settings: Partial<FarmSettings> = {}, options: { store?: Store } = {}): Promise<TestFarm> {
  const store = options.store ?? (await testStore());
  const clock = { now: 1_700_000_000_000 };
  const farm = createFarm(store, { settings, now: () => clock.now });
  const { token } = await createPool(farm, { name: "default" }, SYSTEM_ACTOR);
  const pool = await authenticatePool(farm, token);
  if (!pool) throw new Error("pool token does not authenticate");
  return { farm, clock, pool, token };
}

export async function submit(t: TestFarm, yaml: string, options: { parameters?: Record<string, string>; settings?: SubmitSettings } = {}): Promise<string> {
  const result = await submitJob(t.farm.store, {
    template: { text: yaml, format: "yaml" },
    parameterValues: options.parameters ?? {},
    templateDir: null,
    workingDir: "/tmp",
    settings: options.settings ?? {},
    now: t.clock.now,
  });
  if (!result.ok) throw new Error(`submission failed: ${result.errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`);
  return result.jobId;
}

/** Job `frames`: step Render with one echo task per F = 1…`frames`, and with `encode` a step Encode after it. */
export function framesJob(frames: number, options: { encode?: boolean } = {}): string {
  const encode = options.encode ? "- name: Encode\n  dependencies: [{dependsOn: Render}]\n  script:\n    actions:\n      onRun: {command: echo, args: [encode]}\n" : "";
  return `specificationVersion: jobtemplate-2023-09
name: frames
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: F, type: INT, range: '1-${frames}'}
  script:
    actions:
      onRun: {command: echo, args: ['{{Task.Param.F}}']}
${encode}`;
}

export type Outcome = Omit<ActionUpdate, "actionId" | "startedAt" | "endedAt"> | "hold";

/**
 * A worker played in-process: it runs every action it receives at once, with the outcome `decide`
 * gives. Registered by `await SimulatedWorker.create(t, request, decide?, timeline?)`.
 */
export class SimulatedWorker {
  readonly workerId: string;
  leaseEpoch: number;
  /** The credential its registration answered with (sent on every sync, as the agent does). */
  readonly credential: string;
  readonly log: string[] = [];
  private readonly queue: Array<{ sessionId: string; action: AssignedAction }> = [];
  private readonly held: string[] = [];
  private pending: ActionUpdate[] = [];
  private sessions = new Set<string>();
  private readonly ending = new Set<string>();

  /** Registers a worker with the test farm's pool. */
  static async create(
    t: TestFarm,
    request: RegisterRequest,
    decide: (action: AssignedAction) => Outcome = () => ({ status: "SUCCEEDED", exitCode: 0 }),
    /** Shared by several workers: every action run, in the order they ran across workers. */
    timeline: string[] = [],
  ): Promise<SimulatedWorker> {
    return new SimulatedWorker(t, await registerWorker(t.farm, t.pool, request), decide, timeline);
  }

  private constructor(
    private readonly t: TestFarm,
    registered: RegisterResponse,
    private readonly decide: (action: AssignedAction) => Outcome,
    private readonly timeline: string[],
  ) {
    this.workerId = registered.workerId;
    this.leaseEpoch = registered.leaseEpoch;
    this.credential = registered.credential;
  }

  /** Who its credential says it is now (rejects with UNAUTHORIZED once revoked), for calls such as ingestLogs. */
  get identity(): Promise<WorkerIdentity> {
    return authenticateWorker(this.t.farm, this.credential);
  }

  /** One sync, in a unit of work of its own; then runs what it received (unless an outcome says "hold"). */
  async sync(options: { draining?: boolean; runActions?: boolean } = {}): Promise<SyncResponse> {
    const { farm } = this.t;
    const identity = await this.identity;
    const request = {
      workerId: this.workerId,
      leaseEpoch: this.leaseEpoch,
      sessions: [...this.sessions],
      actions: [...this.held, ...this.queue.map((q) => q.action.actionId)],
      updates: this.pending,
      ...(options.draining ? { draining: true } : {}),
    };
    const response = await farm.store.transaction((tx) => syncWorker(farm, tx, identity, request));
    this.pending = [];
    for (const assignment of response.assignments) this.accept(assignment);
    for (const id of response.cancel) this.cancel(id);
    if (options.runActions !== false) this.runQueued();
    return response;
  }

  /** Syncs until the worker gets nothing more to do (or `max` syncs). */
  async runUntilIdle(max = 1000): Promise<number> {
    for (let i = 0; i < max; i++) {
      const response = await this.sync();
      if (response.assignments.length === 0 && this.pending.length === 0 && this.held.length === 0) return i;
    }
    throw new Error(`worker ${this.workerId} still busy after ${max} syncs`);
  }

  /** Ends a held action with this outcome (reported on the next sync). */
  finish(actionId: string, outcome: Exclude<Outcome, "hold">): void {
    const at = this.held.indexOf(actionId);
    if (at < 0) throw new Error(`action ${actionId} is not held`);
    this.held.splice(at, 1);
    this.pending.push({ actionId, ...outcome, endedAt: this.t.clock.now });
  }

  get heldActions(): readonly string[] {
    return this.held;
  }

  private accept(assignment: SessionAssignment): void {
    this.sessions.add(assignment.sessionId);
    for (const action of assignment.actions) this.queue.push({ sessionId: assignment.sessionId, action });
    if (assignment.end) this.ending.add(assignment.sessionId);
  }

  private cancel(actionId: string): void {
    if (this.held.includes(actionId)) this.finish(actionId, { status: "CANCELED", exitCode: null });
  }

  private runQueued(): void {
    while (this.queue.length > 0) {
      const { sessionId, action } = this.queue.shift() as { sessionId: string; action: AssignedAction };
      const values = Object.values(action.parameters ?? {}).map((p) => p.value);
      const entry = `${action.kind} ${action.environmentId ?? action.stepName ?? ""}${values.length > 0 ? ` ${values.join(",")}` : ""}`;
      this.log.push(entry);
      this.timeline.push(entry);
      this.pending.push({ actionId: action.actionId, status: "RUNNING", startedAt: this.t.clock.now });
      const outcome = this.decide(action);
      if (outcome === "hold") {
        this.held.push(action.actionId);
        continue;
      }
      this.pending.push({ actionId: action.actionId, ...outcome, endedAt: this.t.clock.now });
      if (this.ending.has(sessionId) && !this.queue.some((q) => q.sessionId === sessionId)) {
        this.sessions.delete(sessionId);
        this.ending.delete(sessionId);
      }
    }
  }
}

export const LINUX_WORKER = (name: string): RegisterRequest => ({
  name,
  capabilities: { amounts: { "amount.worker.vcpu": 4, "amount.worker.memory": 8192 }, attributes: { "attr.worker.os.family": ["linux"], "attr.worker.cpu.arch": ["x86_64"] } },
});

/** Task status counts of a job as `STATUS:n` strings (non-zero only, vocabulary order), e.g. ["SUCCEEDED:3"]. */
export async function jobCounts(t: TestFarm, jobId: string): Promise<string[]> {
  const row = await t.farm.store.read((tx) => testSupportRepository.jobCounts(tx, jobId));
  const counts = row ? countsFromRow(row) : emptyCounts();
  return TASK_STATUSES.filter((s) => counts[s] > 0).map((s) => `${s}:${counts[s]}`);
}

export async function jobStatus(t: TestFarm, jobId: string): Promise<string> {
  return (await t.farm.store.read((tx) => testSupportRepository.jobStatus(tx, jobId))) ?? "?";
}
