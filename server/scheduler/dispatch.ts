/**
 * Giving a worker its next piece of work (inside the sync transaction): gather the candidate
 * steps, let the pure core decide (plan.ts), then issue the actions — environment exits and
 * enters for the stack difference, and the task — and bind the task to the Session. What it
 * reads to choose is server/store/claims.ts's.
 *
 * Retries that help: jobs the worker is kept away from (worker-failures.ts) are no candidates for
 * it; a READY task waiting out its retry delay (tasks.retry_at) is not taken before its time; and
 * the retry of a task that failed on this worker goes to another compatible idle worker when there
 * is one (a preference: with nobody else free, the same worker takes it).
 */
import { randomBytes } from "node:crypto";
import type { SessionAssignment } from "../../lib/farm/protocol";
import { type HostRequirements, matchHostRequirements, type WorkerCapabilities } from "../../lib/openjd";
import { claimsRepository, type CandidateStepRow, type ClaimableTask } from "../store/claims";
import type { Tx } from "../store/engine/engine";
import { decide, stackPlan, taskBuffer, type CandidateStep, type HeldSession } from "./plan";
import { plannedStack, type NewAction, type SessionRow, type SessionStore } from "./session-store";
import type { TaskRow, TaskState } from "./task-state";
import type { WorkerFailures } from "./worker-failures";

/** How many jobs (best first) are considered per decision. */
const CANDIDATE_JOBS = 50;

export interface WorkerContext {
  id: string;
  leaseEpoch: number;
  capabilities: WorkerCapabilities;
  acceptsWork: boolean;
}

export class Dispatcher {
  constructor(
    private readonly sessions: SessionStore,
    private readonly tasks: TaskState,
    private readonly failures: WorkerFailures,
  ) {}

  /**
   * The next assignments for a worker that has nothing outstanding; none when it stays idle. A
   * Session that ends with nothing to exit ends here and now, and the worker's next Session starts
   * in the same answer: otherwise every change of job would cost the worker a round trip.
   */
  async next(tx: Tx, worker: WorkerContext, held: SessionRow | null, now: number): Promise<SessionAssignment[]> {
    const first = await this.decideOne(tx, worker, held, now);
    if (!first?.end || first.actions.length > 0 || !held) return first ? [first] : [];
    await this.sessions.end(tx, held.id, now);
    const following = await this.decideOne(tx, worker, null, now);
    return following ? [first, following] : [first];
  }

  private async decideOne(tx: Tx, worker: WorkerContext, held: SessionRow | null, now: number): Promise<SessionAssignment | null> {
    await this.tasks.flushCounts(tx); // the candidates are read from the step counts
    const blocked = await this.failures.blockedJobs(tx, worker.id);
    let candidates = (await claimsRepository.candidateSteps(tx, CANDIDATE_JOBS)).map(toCandidate);
    if (blocked.size > 0) candidates = candidates.filter((c) => !blocked.has(c.jobId));
    const heldView = held ? await this.heldView(tx, held) : null;
    // A step counted READY may have nothing this worker takes now (retries waiting, or left to
    // another worker): it drops out and the decision is made again without it.
    for (;;) {
      const decision = decide({ capabilities: worker.capabilities, acceptsWork: worker.acceptsWork }, heldView, candidates);
      switch (decision.kind) {
        case "idle":
          return null;
        case "end":
          return held && heldView ? this.end(tx, held, heldView.stack, now) : null;
        case "continue":
        case "start": {
          const tasks = await this.takeTasks(tx, decision.step, worker, now);
          if (tasks.length === 0) {
            candidates = candidates.filter((c) => c.stepId !== decision.step.stepId);
            continue;
          }
          if (decision.kind === "continue") return held && heldView ? this.runTask(tx, held.id, heldView.stack, decision.step, tasks, worker.id, now) : null;
          const sessionId = `session-${randomBytes(6).toString("hex")}`;
          await this.sessions.start(tx, sessionId, decision.step.jobId, worker.id, worker.leaseEpoch, reserve(decision.step.hostRequirements, worker.capabilities), now, decision.probe);
          return this.runTask(tx, sessionId, [], decision.step, tasks, worker.id, now);
        }
      }
    }
  }

  /** The step's next tasks for this worker: due ones, leaving a retry that failed here to an idle other worker. */
  private async takeTasks(tx: Tx, step: CandidateStep, worker: WorkerContext, now: number): Promise<ClaimableTask[]> {
    const tasks = await claimsRepository.nextTasks(tx, step.stepId, now, taskBuffer(step.averageRuntimeMs ?? null));
    if (!tasks.some((t) => t.last_failed_worker_id === worker.id) || !(await this.anotherWorkerFree(tx, step, worker.id))) return tasks;
    return tasks.filter((t) => t.last_failed_worker_id !== worker.id);
  }

  private async anotherWorkerFree(tx: Tx, step: CandidateStep, workerId: string): Promise<boolean> {
    return (await claimsRepository.idleOthers(tx, workerId, step.jobId)).some((w) => matchHostRequirements(step.hostRequirements, JSON.parse(w.capabilities) as WorkerCapabilities).ok);
  }

  private async heldView(tx: Tx, held: SessionRow): Promise<HeldSession> {
    const order = (await claimsRepository.jobOrder(tx, held.job_id)) ?? { priority: 0, seq: 0 };
    return {
      jobId: held.job_id,
      priority: order.priority,
      jobSeq: order.seq,
      stack: plannedStack(await this.sessions.environmentActions(tx, held.id)),
      ending: held.state !== "ACTIVE",
      probe: held.probe === 1,
    };
  }

  /** The stack changes, then the next task of the step — or several when its tasks are short (taskBuffer). */
  private async runTask(tx: Tx, sessionId: string, current: readonly string[], step: CandidateStep, tasks: readonly TaskRow[], workerId: string, now: number): Promise<SessionAssignment> {
    const jobId = step.jobId;
    const stepName = (await this.sessions.stepName(tx, step.stepId)) ?? "";
    const plan = stackPlan(current, step.stack);
    const exits: NewAction[] = [];
    for (const environmentId of plan.exit) exits.push(await this.exitAction(tx, environmentId, sessionId, step));
    const actions: NewAction[] = [
      ...exits,
      ...plan.enter.map((environmentId) => ({ kind: "ENV_ENTER" as const, environmentId, stepId: step.stepId, stepName })),
      ...tasks.map((task) => ({ kind: "TASK_RUN" as const, stepId: step.stepId, stepName, taskId: task.id, parameters: JSON.parse(task.parameters) as NewAction["parameters"] })),
    ];
    await this.tasks.assign(tx, tasks, step.stepId, sessionId, workerId);
    return { sessionId, job: await this.sessions.jobDefinition(tx, jobId), actions: await this.sessions.issue(tx, sessionId, actions, now), end: false };
  }

  /** Exits every environment of the Session, innermost first, and ends it. */
  private async end(tx: Tx, held: SessionRow, stack: readonly string[], now: number): Promise<SessionAssignment> {
    const actions: NewAction[] = [];
    for (let i = stack.length - 1; i >= 0; i--) actions.push(await this.exitAction(tx, stack[i]!, held.id, null));
    await this.sessions.markEndIssued(tx, held.id);
    return { sessionId: held.id, job: await this.sessions.jobDefinition(tx, held.job_id), actions: await this.sessions.issue(tx, held.id, actions, now), end: true };
  }

  /** An exit names the step that entered the environment (step environments need it to be found). */
  private async exitAction(tx: Tx, environmentId: string, sessionId: string, fallback: CandidateStep | null): Promise<NewAction> {
    const enter = (await this.sessions.environmentActions(tx, sessionId)).find((a) => a.kind === "ENV_ENTER" && a.environment_id === environmentId);
    const stepId = enter?.step_id ?? fallback?.stepId ?? "";
    return { kind: "ENV_EXIT", environmentId, stepId, stepName: (await this.sessions.stepName(tx, stepId)) ?? "" };
  }
}

function toCandidate(row: CandidateStepRow): CandidateStep {
  return {
    stepId: row.id,
    jobId: row.job_id,
    priority: row.priority,
    jobSeq: row.seq,
    stepIndex: row.step_index,
    hostRequirements: row.host_requirements === null ? null : (JSON.parse(row.host_requirements) as HostRequirements | null),
    stack: JSON.parse(row.environment_stack) as string[],
    averageRuntimeMs: row.runtime_count > 0 ? row.runtime_total_ms / row.runtime_count : null,
    inFlight: row.in_flight,
  };
}

/** Amounts reserved for the Session: as much of each required amount as allowed, up to what the worker has. */
function reserve(requirements: HostRequirements | null, capabilities: WorkerCapabilities): Record<string, number> {
  const reserved: Record<string, number> = {};
  for (const amount of requirements?.amounts ?? []) {
    const have = Object.entries(capabilities.amounts).find(([name]) => name.toLowerCase() === amount.name.toLowerCase())?.[1] ?? 0;
    reserved[amount.name] = Math.min(have, amount.max ?? have);
  }
  return reserved;
}
