/**
 * Sessions and their actions as the server records them: issuing actions (with their per-Session
 * sequence), reading what a worker holds, and the environment stack a Session will have once its
 * issued actions have run. Runs inside the caller's transaction; its statements are
 * server/store/sessions.ts's.
 */
import type { AssignedAction, JobDefinition } from "../../lib/farm/protocol";
import type { ActionKind, SessionState } from "../../lib/farm/statuses";
import type { Store } from "../db/connection";
import { sessionsRepository, type ActionRow, type SessionRow } from "../store/sessions";

export type { ActionRow, SessionRow } from "../store/sessions";

export interface NewAction {
  kind: ActionKind;
  environmentId?: string;
  stepId: string;
  stepName: string;
  taskId?: number;
  parameters?: Record<string, { type: string; value: string }>;
}

export class SessionStore {
  private readonly rows;

  constructor(store: Store) {
    this.rows = sessionsRepository(store);
  }

  /** The worker's Sessions that have not ended, under its current lease. */
  openSessions(workerId: string, leaseEpoch: number): SessionRow[] {
    return this.rows.openOf(workerId, leaseEpoch);
  }

  /** The worker's Sessions that have not ended, under any lease (the worker is being fenced). */
  unendedSessions(workerId: string): Array<{ id: string; job_id: string }> {
    return this.rows.unendedOf(workerId);
  }

  session(id: string): SessionRow | undefined {
    return this.rows.byId(id);
  }

  action(id: string): ActionRow | undefined {
    return this.rows.action(id);
  }

  /** The Session's actions that have not ended (issued or running), in order. */
  openActions(sessionId: string): ActionRow[] {
    return this.rows.openActions(sessionId);
  }

  /** The Session's environment actions (enters and exits), in order: what its stack is made of. */
  environmentActions(sessionId: string): ActionRow[] {
    return this.rows.environmentActions(sessionId);
  }

  /** The sequence number of the Session's last action (-1 without any). */
  lastSeq(sessionId: string): number {
    return this.rows.lastSeq(sessionId) ?? -1;
  }

  start(id: string, jobId: string, workerId: string, leaseEpoch: number, reserved: Record<string, number>, now: number, probe: boolean): void {
    this.rows.insert(id, jobId, workerId, leaseEpoch, reserved, now, probe);
  }

  setState(sessionId: string, state: SessionState): void {
    this.rows.setState(sessionId, state);
  }

  markEndIssued(sessionId: string): void {
    this.rows.markEndIssued(sessionId);
  }

  /** Ends the Session when its end was issued and every action has ended. */
  settle(session: SessionRow, now: number): boolean {
    if (!session.end_issued && session.state !== "ENDED") return false;
    if (this.rows.hasOpenAction(session.id)) return false;
    this.end(session.id, now);
    return true;
  }

  end(sessionId: string, now: number): void {
    this.rows.end(sessionId, now);
  }

  /** Ends an issued action whose worker was lost or fenced. */
  interruptAction(actionId: string, now: number): void {
    this.rows.interruptAction(actionId, now);
  }

  stepName(stepId: string): string | undefined {
    return this.rows.stepName(stepId);
  }

  /** Records new actions at the end of the Session (assigned at `now`); returns them as the worker receives them. */
  issue(sessionId: string, actions: readonly NewAction[], now: number): AssignedAction[] {
    const first = this.lastSeq(sessionId) + 1;
    this.rows.insertActions(sessionId, first, actions, now);
    let seq = first;
    return actions.map((action) => {
      const actionId = `${sessionId}:${seq++}`;
      return {
        actionId,
        kind: action.kind,
        stepName: action.stepName,
        ...(action.environmentId !== undefined ? { environmentId: action.environmentId } : {}),
        ...(action.parameters ? { parameters: action.parameters } : {}),
      };
    });
  }

  /** An issued action as the worker receives it (to send it again). */
  describe(action: ActionRow): AssignedAction {
    const stepName = action.step_id ? this.stepName(action.step_id) : undefined;
    const parameters = action.task_id !== null ? (JSON.parse(this.rows.taskParameters(action.task_id) ?? "{}") as AssignedAction["parameters"]) : undefined;
    return {
      actionId: action.id,
      kind: action.kind,
      ...(stepName !== undefined ? { stepName } : {}),
      ...(action.environment_id !== null ? { environmentId: action.environment_id } : {}),
      ...(parameters ? { parameters } : {}),
    };
  }

  jobDefinition(jobId: string): JobDefinition {
    const row = this.rows.jobDefinition(jobId);
    if (!row) throw new Error(`job ${jobId} does not exist`);
    return {
      id: row.id,
      templateText: row.template_text,
      templateFormat: row.template_format,
      environmentTemplates: JSON.parse(row.environment_templates) as JobDefinition["environmentTemplates"],
      parameters: JSON.parse(row.parameters) as JobDefinition["parameters"],
    };
  }
}

/**
 * The stack a Session will have once its issued actions have run: every environment entered or
 * attempted (a failed enter is still exited, spec digest §12.2), minus those exited. An enter
 * that never started (reported without a start time: NEVER_ATTEMPTED, canceled while queued) is
 * not on it; one still queued is.
 */
export function plannedStack(actions: readonly ActionRow[]): string[] {
  const stack: string[] = [];
  for (const action of actions) {
    if (action.environment_id === null) continue;
    const started = action.started_at !== null || action.status === "ASSIGNED" || action.status === "RUNNING";
    if (action.kind === "ENV_ENTER" && started) stack.push(action.environment_id);
    if (action.kind === "ENV_EXIT") {
      const at = stack.lastIndexOf(action.environment_id);
      if (at >= 0) stack.splice(at, 1);
    }
  }
  return stack;
}
