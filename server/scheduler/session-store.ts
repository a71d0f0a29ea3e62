/**
 * Sessions and their actions as the server records them: issuing actions (with their per-Session
 * sequence), reading what a worker holds, and the environment stack a Session will have once its
 * issued actions have run. Runs inside the caller's transaction.
 */
import type Database from "better-sqlite3";
import type { AssignedAction, JobDefinition } from "../../lib/farm/protocol";
import { ACTION_STATUSES, TERMINAL_ACTION_STATUSES, type ActionKind, type ActionStatus, type SessionState } from "../../lib/farm/statuses";
import type { Store } from "../db/connection";

export interface SessionRow {
  id: string;
  job_id: string;
  worker_id: string;
  lease_epoch: number;
  state: SessionState;
  end_issued: number;
  probe: number;
}

export interface ActionRow {
  id: string;
  session_id: string;
  seq: number;
  kind: ActionKind;
  environment_id: string | null;
  step_id: string | null;
  task_id: number | null;
  status: ActionStatus;
  started_at: number | null;
}

export interface NewAction {
  kind: ActionKind;
  environmentId?: string;
  stepId: string;
  stepName: string;
  taskId?: number;
  parameters?: Record<string, { type: string; value: string }>;
}

/** `IN (…)` of the statuses an action is still open in (issued, not ended). */
const OPEN_STATUSES = ACTION_STATUSES.filter((status) => !TERMINAL_ACTION_STATUSES.has(status))
  .map((status) => `'${status}'`)
  .join(", ");
const ACTION_COLUMNS = "id, session_id, seq, kind, environment_id, step_id, task_id, status, started_at";

export class SessionStore {
  private readonly statements;

  private readonly sqlite: Database.Database;

  constructor(store: Store) {
    const s: Database.Database = store.sqlite;
    this.sqlite = s;
    this.statements = {
      open: s.prepare<[string, number], SessionRow>("SELECT id, job_id, worker_id, lease_epoch, state, end_issued, probe FROM sessions WHERE worker_id = ? AND state != 'ENDED' AND lease_epoch = ?"),
      unended: s.prepare<[string], { id: string; job_id: string }>("SELECT id, job_id FROM sessions WHERE worker_id = ? AND state != 'ENDED'"),
      byId: s.prepare<[string], SessionRow>("SELECT id, job_id, worker_id, lease_epoch, state, end_issued, probe FROM sessions WHERE id = ?"),
      insert: s.prepare<[string, string, string, number, string, number, number]>(
        "INSERT INTO sessions (id, job_id, worker_id, lease_epoch, state, reserved, started_at, probe) VALUES (?, ?, ?, ?, 'ACTIVE', ?, ?, ?)",
      ),
      setState: s.prepare<[SessionState, string]>("UPDATE sessions SET state = ? WHERE id = ?"),
      endIssued: s.prepare<[string]>("UPDATE sessions SET end_issued = 1 WHERE id = ?"),
      ended: s.prepare<[number, string]>("UPDATE sessions SET state = 'ENDED', ended_at = ? WHERE id = ?"),
      interrupted: s.prepare<[number, string]>("UPDATE session_actions SET status = 'INTERRUPTED', ended_at = ? WHERE id = ?"),
      // A long Session holds thousands of ended task runs: the sync path reads only what it needs,
      // filtered in SQL, so its cost does not grow with the Session's history in JavaScript.
      openActions: s.prepare<[string], ActionRow>(`SELECT ${ACTION_COLUMNS} FROM session_actions WHERE session_id = ? AND status IN (${OPEN_STATUSES}) ORDER BY seq`),
      anyOpen: s.prepare<[string], { one: number }>(`SELECT 1 AS one FROM session_actions WHERE session_id = ? AND status IN (${OPEN_STATUSES}) LIMIT 1`),
      environmentActions: s.prepare<[string], ActionRow>(`SELECT ${ACTION_COLUMNS} FROM session_actions WHERE session_id = ? AND environment_id IS NOT NULL ORDER BY seq`),
      action: s.prepare<[string], ActionRow>(`SELECT ${ACTION_COLUMNS} FROM session_actions WHERE id = ?`),
      maxSeq: s.prepare<[string], { seq: number | null }>("SELECT MAX(seq) AS seq FROM session_actions WHERE session_id = ?"),
      job: s.prepare<[string], { id: string; template_text: string; template_format: "yaml" | "json"; environment_templates: string; parameters: string }>(
        "SELECT id, template_text, template_format, environment_templates, parameters FROM jobs WHERE id = ?",
      ),
      stepName: s.prepare<[string], { name: string }>("SELECT name FROM steps WHERE id = ?"),
      taskParameters: s.prepare<[number], { parameters: string }>("SELECT parameters FROM tasks WHERE id = ?"),
    };
  }

  /** The worker's Sessions that have not ended, under its current lease. */
  openSessions(workerId: string, leaseEpoch: number): SessionRow[] {
    return this.statements.open.all(workerId, leaseEpoch);
  }

  /** The worker's Sessions that have not ended, under any lease (the worker is being fenced). */
  unendedSessions(workerId: string): Array<{ id: string; job_id: string }> {
    return this.statements.unended.all(workerId);
  }

  session(id: string): SessionRow | undefined {
    return this.statements.byId.get(id);
  }

  action(id: string): ActionRow | undefined {
    return this.statements.action.get(id);
  }

  /** The Session's actions that have not ended (issued or running), in order. */
  openActions(sessionId: string): ActionRow[] {
    return this.statements.openActions.all(sessionId);
  }

  /** The Session's environment actions (enters and exits), in order: what its stack is made of. */
  environmentActions(sessionId: string): ActionRow[] {
    return this.statements.environmentActions.all(sessionId);
  }

  /** The sequence number of the Session's last action (-1 without any). */
  lastSeq(sessionId: string): number {
    return this.statements.maxSeq.get(sessionId)?.seq ?? -1;
  }

  start(id: string, jobId: string, workerId: string, leaseEpoch: number, reserved: Record<string, number>, now: number, probe: boolean): void {
    this.statements.insert.run(id, jobId, workerId, leaseEpoch, JSON.stringify(reserved), now, probe ? 1 : 0);
  }

  setState(sessionId: string, state: SessionState): void {
    this.statements.setState.run(state, sessionId);
  }

  markEndIssued(sessionId: string): void {
    this.statements.endIssued.run(sessionId);
  }

  /** Ends the Session when its end was issued and every action has ended. */
  settle(session: SessionRow, now: number): boolean {
    if (!session.end_issued && session.state !== "ENDED") return false;
    if (this.statements.anyOpen.get(session.id)) return false;
    this.end(session.id, now);
    return true;
  }

  end(sessionId: string, now: number): void {
    this.statements.ended.run(now, sessionId);
  }

  /** Ends an issued action whose worker was lost or fenced. */
  interruptAction(actionId: string, now: number): void {
    this.statements.interrupted.run(now, actionId);
  }

  stepName(stepId: string): string | undefined {
    return this.statements.stepName.get(stepId)?.name;
  }

  /** Records new actions at the end of the Session (assigned at `now`); returns them as the worker receives them. */
  issue(sessionId: string, actions: readonly NewAction[], now: number): AssignedAction[] {
    const first = this.lastSeq(sessionId) + 1;
    // One multi-row INSERT per 64 actions (a buffer of short tasks is issued at once).
    for (let at = 0; at < actions.length; at += 64) {
      const chunk = actions.slice(at, at + 64);
      const values: Array<string | number | null> = [];
      chunk.forEach((action, i) => values.push(`${sessionId}:${first + at + i}`, sessionId, first + at + i, action.kind, action.environmentId ?? null, action.stepId, action.taskId ?? null, now));
      this.insertActions(chunk.length).run(...values);
    }
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

  private readonly inserts = new Map<number, Database.Statement>();

  private insertActions(rows: number): Database.Statement {
    const cached = this.inserts.get(rows);
    if (cached) return cached;
    const row = "(?, ?, ?, ?, ?, ?, ?, ?, 'ASSIGNED')";
    const statement = this.sqlite.prepare(`INSERT INTO session_actions (id, session_id, seq, kind, environment_id, step_id, task_id, assigned_at, status) VALUES ${Array(rows).fill(row).join(", ")}`);
    this.inserts.set(rows, statement);
    return statement;
  }

  /** An issued action as the worker receives it (to send it again). */
  describe(action: ActionRow): AssignedAction {
    const stepName = action.step_id ? this.stepName(action.step_id) : undefined;
    const parameters = action.task_id !== null ? (JSON.parse(this.statements.taskParameters.get(action.task_id)?.parameters ?? "{}") as AssignedAction["parameters"]) : undefined;
    return {
      actionId: action.id,
      kind: action.kind,
      ...(stepName !== undefined ? { stepName } : {}),
      ...(action.environment_id !== null ? { environmentId: action.environment_id } : {}),
      ...(parameters ? { parameters } : {}),
    };
  }

  jobDefinition(jobId: string): JobDefinition {
    const row = this.statements.job.get(jobId);
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
