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
import type { Store } from "../db/connection";
import { claimsRepository, type CandidateStepRow, type ClaimableTask } from "../store/claims";
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
  private readonly claims;

  constructor(
    store: Store,
    private readonly sessions: SessionStore,
    private readonly tasks: TaskState,
    private readonly failures: WorkerFailures,
  ) {
    this.claims = claimsRepository(store);
  }

  /**
   * The next assignments for a worker that has nothing outstanding; none when it stays idle. A
   * Session that ends with nothing to exit ends here and now, and the worker's next Session starts
   * in the same answer: otherwise every change of job would cost the worker a round trip.
   */
  next(worker: WorkerContext, held: SessionRow | null, now: number): SessionAssignment[] {
    const first = this.decideOne(worker, held, now);
    if (!first?.end || first.actions.length > 0 || !held) return first ? [first] : [];
    this.sessions.end(held.id, now);
    const following = this.decideOne(worker, null, now);
    return following ? [first, following] : [first];
  }

  private decideOne(worker: WorkerContext, held: SessionRow | null, now: number): SessionAssignment | null {
    this.tasks.flushCounts(); // the candidates are read from the step counts
    const blocked = this.failures.blockedJobs(worker.id);
    let candidates = this.claims.candidateSteps(CANDIDATE_JOBS).map(toCandidate);
    if (blocked.size > 0) candidates = candidates.filter((c) => !blocked.has(c.jobId));
    const heldView = held ? this.heldView(held) : null;
    // A step counted READY may have nothing this worker takes now (retries waiting, or left to
    // another worker): it drops out and the decision is made again without it.
    for (;;) {
      const decision = decide({ capabilities: worker.capabilities, acceptsWork: worker.acceptsWork }, heldView, candidates);
      switch (decision.kind) {
        case "idle":
          return null;
        case "end":
          return held && heldView ? this.end(held, heldView.stack, now) : null;
        case "continue":
        case "start": {
          const tasks = this.takeTasks(decision.step, worker, now);
          if (tasks.length === 0) {
            candidates = candidates.filter((c) => c.stepId !== decision.step.stepId);
            continue;
          }
          if (decision.kind === "continue") return held && heldView ? this.runTask(held.id, heldView.stack, decision.step, tasks, worker.id, now) : null;
          const sessionId = `session-${randomBytes(6).toString("hex")}`;
          this.sessions.start(sessionId, decision.step.jobId, worker.id, worker.leaseEpoch, reserve(decision.step.hostRequirements, worker.capabilities), now, decision.probe);
          return this.runTask(sessionId, [], decision.step, tasks, worker.id, now);
        }
      }
    }
  }

  /** The step's next tasks for this worker: due ones, leaving a retry that failed here to an idle other worker. */
  private takeTasks(step: CandidateStep, worker: WorkerContext, now: number): ClaimableTask[] {
    const tasks = this.claims.nextTasks(step.stepId, now, taskBuffer(step.averageRuntimeMs ?? null));
    if (!tasks.some((t) => t.last_failed_worker_id === worker.id) || !this.anotherWorkerFree(step, worker.id)) return tasks;
    return tasks.filter((t) => t.last_failed_worker_id !== worker.id);
  }

  private anotherWorkerFree(step: CandidateStep, workerId: string): boolean {
    return this.claims.idleOthers(workerId, step.jobId).some((w) => matchHostRequirements(step.hostRequirements, JSON.parse(w.capabilities) as WorkerCapabilities).ok);
  }

  private heldView(held: SessionRow): HeldSession {
    const order = this.claims.jobOrder(held.job_id) ?? { priority: 0, seq: 0 };
    return {
      jobId: held.job_id,
      priority: order.priority,
      jobSeq: order.seq,
      stack: plannedStack(this.sessions.environmentActions(held.id)),
      ending: held.state !== "ACTIVE",
      probe: held.probe === 1,
    };
  }

  /** The stack changes, then the next task of the step — or several when its tasks are short (taskBuffer). */
  private runTask(sessionId: string, current: readonly string[], step: CandidateStep, tasks: readonly TaskRow[], workerId: string, now: number): SessionAssignment {
    const jobId = step.jobId;
    const stepName = this.sessions.stepName(step.stepId) ?? "";
    const plan = stackPlan(current, step.stack);
    const actions: NewAction[] = [
      ...plan.exit.map((environmentId) => this.exitAction(environmentId, sessionId, step)),
      ...plan.enter.map((environmentId) => ({ kind: "ENV_ENTER" as const, environmentId, stepId: step.stepId, stepName })),
      ...tasks.map((task) => ({ kind: "TASK_RUN" as const, stepId: step.stepId, stepName, taskId: task.id, parameters: JSON.parse(task.parameters) as NewAction["parameters"] })),
    ];
    this.tasks.assign(tasks, step.stepId, sessionId, workerId);
    return { sessionId, job: this.sessions.jobDefinition(jobId), actions: this.sessions.issue(sessionId, actions, now), end: false };
  }

  /** Exits every environment of the Session, innermost first, and ends it. */
  private end(held: SessionRow, stack: readonly string[], now: number): SessionAssignment {
    const actions = [...stack].reverse().map((environmentId) => this.exitAction(environmentId, held.id, null));
    this.sessions.markEndIssued(held.id);
    return { sessionId: held.id, job: this.sessions.jobDefinition(held.job_id), actions: this.sessions.issue(held.id, actions, now), end: true };
  }

  /** An exit names the step that entered the environment (step environments need it to be found). */
  private exitAction(environmentId: string, sessionId: string, fallback: CandidateStep | null): NewAction {
    const enter = this.sessions.environmentActions(sessionId).find((a) => a.kind === "ENV_ENTER" && a.environment_id === environmentId);
    const stepId = enter?.step_id ?? fallback?.stepId ?? "";
    return { kind: "ENV_EXIT", environmentId, stepId, stepName: this.sessions.stepName(stepId) ?? "" };
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
