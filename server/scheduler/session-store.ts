/**
 * Sessions and their actions as the server records them: issuing actions (with their per-Session
 * sequence), reading what a worker holds, and the environment stack a Session will have once its
 * issued actions have run. Runs inside the caller's unit of work (its tx passed down); its
 * statements are server/store/sessions.ts's.
 */
import type { AssignedAction, JobDefinition } from "../../lib/farm/protocol";
import type { ActionKind, SessionState } from "../../lib/farm/statuses";
import type { ReadTx, Tx } from "../store/engine/engine";
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
  /** The worker's Sessions that have not ended, under its current lease. */
  openSessions(tx: ReadTx, workerId: string, leaseEpoch: number): Promise<SessionRow[]> {
    return sessionsRepository.openOf(tx, workerId, leaseEpoch);
  }

  /** The worker's Sessions that have not ended, under any lease (the worker is being fenced). */
  unendedSessions(tx: ReadTx, workerId: string): Promise<Array<{ id: string; job_id: string }>> {
    return sessionsRepository.unendedOf(tx, workerId);
  }

  session(tx: ReadTx, id: string): Promise<SessionRow | undefined> {
    return sessionsRepository.byId(tx, id);
  }

  action(tx: ReadTx, id: string): Promise<ActionRow | undefined> {
    return sessionsRepository.action(tx, id);
  }

  /** The Session's actions that have not ended (issued or running), in order. */
  openActions(tx: ReadTx, sessionId: string): Promise<ActionRow[]> {
    return sessionsRepository.openActions(tx, sessionId);
  }

  /** The Session's environment actions (enters and exits), in order: what its stack is made of. */
  environmentActions(tx: ReadTx, sessionId: string): Promise<ActionRow[]> {
    return sessionsRepository.environmentActions(tx, sessionId);
  }

  /** The sequence number of the Session's last action (-1 without any). */
  async lastSeq(tx: ReadTx, sessionId: string): Promise<number> {
    return (await sessionsRepository.lastSeq(tx, sessionId)) ?? -1;
  }

  async start(tx: Tx, id: string, jobId: string, workerId: string, leaseEpoch: number, reserved: Record<string, number>, now: number, probe: boolean): Promise<void> {
    await sessionsRepository.insert(tx, id, jobId, workerId, leaseEpoch, reserved, now, probe);
  }

  async setState(tx: Tx, sessionId: string, state: SessionState): Promise<void> {
    await sessionsRepository.setState(tx, sessionId, state);
  }

  async markEndIssued(tx: Tx, sessionId: string): Promise<void> {
    await sessionsRepository.markEndIssued(tx, sessionId);
  }

  /** Ends the Session when its end was issued and every action has ended. */
  async settle(tx: Tx, session: SessionRow, now: number): Promise<boolean> {
    if (!session.end_issued && session.state !== "ENDED") return false;
    if (await sessionsRepository.hasOpenAction(tx, session.id)) return false;
    await this.end(tx, session.id, now);
    return true;
  }

  async end(tx: Tx, sessionId: string, now: number): Promise<void> {
    await sessionsRepository.end(tx, sessionId, now);
  }

  /** Ends an issued action whose worker was lost or fenced. */
  async interruptAction(tx: Tx, actionId: string, now: number): Promise<void> {
    await sessionsRepository.interruptAction(tx, actionId, now);
  }

  stepName(tx: ReadTx, stepId: string): Promise<string | undefined> {
    return sessionsRepository.stepName(tx, stepId);
  }

  /** Records new actions at the end of the Session (assigned at `now`); returns them as the worker receives them. */
  async issue(tx: Tx, sessionId: string, actions: readonly NewAction[], now: number): Promise<AssignedAction[]> {
    const first = (await this.lastSeq(tx, sessionId)) + 1;
    await sessionsRepository.insertActions(tx, sessionId, first, actions, now);
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
  async describe(tx: ReadTx, action: ActionRow): Promise<AssignedAction> {
    const stepName = action.step_id ? await this.stepName(tx, action.step_id) : undefined;
    const parameters = action.task_id !== null ? (JSON.parse((await sessionsRepository.taskParameters(tx, action.task_id)) ?? "{}") as AssignedAction["parameters"]) : undefined;
    return {
      actionId: action.id,
      kind: action.kind,
      ...(stepName !== undefined ? { stepName } : {}),
      ...(action.environment_id !== null ? { environmentId: action.environment_id } : {}),
      ...(parameters ? { parameters } : {}),
    };
  }

  async jobDefinition(tx: ReadTx, jobId: string): Promise<JobDefinition> {
    const row = await sessionsRepository.jobDefinition(tx, jobId);
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
