/**
 * Sessions and their actions as the scheduler records them (server/scheduler/session-store.ts
 * and apply-updates.ts decide; this module reads and writes), inside the caller's unit of work.
 * Every worker sync runs these: they are named statements (prepared once per connection), and
 * issuing actions uses one multi-row INSERT per shape, its text built the first time it is needed.
 */
import { ACTION_STATUSES, TERMINAL_ACTION_STATUSES, type ActionKind, type ActionStatus, type SessionState } from "../../lib/farm/statuses";
import type { jobs, sessionActions, sessions } from "../db/schema";
import type { Statement, RunResult } from "./engine/engine";
import { statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

export type SessionRow = RawPick<typeof sessions, "id" | "job_id" | "worker_id" | "lease_epoch" | "state" | "end_issued" | "probe">;
export type ActionRow = RawPick<typeof sessionActions, "id" | "session_id" | "seq" | "kind" | "environment_id" | "step_id" | "task_id" | "status" | "started_at">;
/** What a worker needs of a job to run its Sessions. */
export type JobDefinitionRow = RawPick<typeof jobs, "id" | "template_text" | "template_format" | "environment_templates" | "parameters">;

/** An action to record (the scheduler's NewAction is one). */
export interface ActionInsert {
  kind: ActionKind;
  environmentId?: string;
  stepId: string;
  taskId?: number;
}

/** `IN (…)` of the statuses an action is still open in (issued, not ended). */
const OPEN_STATUSES = ACTION_STATUSES.filter((status) => !TERMINAL_ACTION_STATUSES.has(status))
  .map((status) => `'${status}'`)
  .join(", ");
const SESSION_COLUMNS = "id, job_id, worker_id, lease_epoch, state, end_issued, probe";
const ACTION_COLUMNS = "id, session_id, seq, kind, environment_id, step_id, task_id, status, started_at";
/** Actions per multi-row INSERT (a buffer of short tasks is issued at once). */
const ACTIONS_PER_INSERT = 64;

const OPEN = statement<SessionRow>("sessions.openOf", `SELECT ${SESSION_COLUMNS} FROM sessions WHERE worker_id = ? AND state != 'ENDED' AND lease_epoch = ?`);
const UNENDED = statement<RawPick<typeof sessions, "id" | "job_id">>("sessions.unendedOf", "SELECT id, job_id FROM sessions WHERE worker_id = ? AND state != 'ENDED'");
const BY_ID = statement<SessionRow>("sessions.byId", `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`);
const INSERT = statement("sessions.insert", "INSERT INTO sessions (id, job_id, worker_id, lease_epoch, state, reserved, started_at, probe) VALUES (?, ?, ?, ?, 'ACTIVE', ?, ?, ?)");
const SET_STATE = statement("sessions.setState", "UPDATE sessions SET state = ? WHERE id = ?");
const END_ISSUED = statement("sessions.markEndIssued", "UPDATE sessions SET end_issued = TRUE WHERE id = ?");
const ENDED = statement("sessions.end", "UPDATE sessions SET state = 'ENDED', ended_at = ? WHERE id = ?");
const INTERRUPTED = statement("sessions.interruptAction", "UPDATE session_actions SET status = 'INTERRUPTED', ended_at = ? WHERE id = ?");
const REPORT = statement(
  "sessions.report",
  `UPDATE session_actions SET status = ?, exit_code = COALESCE(?, exit_code), progress = COALESCE(?, progress),
   status_message = COALESCE(?, status_message), fail_message = COALESCE(?, fail_message),
   started_at = COALESCE(started_at, ?), ended_at = COALESCE(ended_at, ?) WHERE id = ?`,
);
// A long Session holds thousands of ended task runs: the sync path reads only what it needs,
// filtered in SQL, so its cost does not grow with the Session's history in JavaScript.
const OPEN_ACTIONS = statement<ActionRow>("sessions.openActions", `SELECT ${ACTION_COLUMNS} FROM session_actions WHERE session_id = ? AND status IN (${OPEN_STATUSES}) ORDER BY seq`);
const ANY_OPEN = statement<{ one: number }>("sessions.hasOpenAction", `SELECT 1 AS one FROM session_actions WHERE session_id = ? AND status IN (${OPEN_STATUSES}) LIMIT 1`);
const ENVIRONMENT_ACTIONS = statement<ActionRow>("sessions.environmentActions", `SELECT ${ACTION_COLUMNS} FROM session_actions WHERE session_id = ? AND environment_id IS NOT NULL ORDER BY seq`);
const ACTION = statement<ActionRow>("sessions.action", `SELECT ${ACTION_COLUMNS} FROM session_actions WHERE id = ?`);
const MAX_SEQ = statement<{ seq: number | null }>("sessions.lastSeq", "SELECT MAX(seq) AS seq FROM session_actions WHERE session_id = ?");
const JOB_DEFINITION = statement<JobDefinitionRow>("sessions.jobDefinition", "SELECT id, template_text, template_format, environment_templates, parameters FROM jobs WHERE id = ?");
const STEP_NAME = statement<{ name: string }>("sessions.stepName", "SELECT name FROM steps WHERE id = ?");
const TASK_PARAMETERS = statement<{ parameters: string }>("sessions.taskParameters", "SELECT parameters FROM tasks WHERE id = ?");

/** Multi-row INSERTs by their number of rows. */
const inserts = new Map<number, Statement<unknown>>();
function insertActionsStatement(rows: number): Statement<unknown> {
  let made = inserts.get(rows);
  if (!made) {
    const row = "(?, ?, ?, ?, ?, ?, ?, ?, 'ASSIGNED')";
    made = statement(
      `sessions.insertActions.${rows}`,
      `INSERT INTO session_actions (id, session_id, seq, kind, environment_id, step_id, task_id, assigned_at, status) VALUES ${Array(rows).fill(row).join(", ")}`,
    );
    inserts.set(rows, made);
  }
  return made;
}

export const sessionsRepository = {
  /** The worker's Sessions that have not ended, under this lease. */
  openOf: (tx: ReadTx, workerId: string, leaseEpoch: number): Promise<SessionRow[]> => tx.all(OPEN, [workerId, leaseEpoch]),
  /** The worker's Sessions that have not ended, under any lease. */
  unendedOf: (tx: ReadTx, workerId: string): Promise<Array<RawPick<typeof sessions, "id" | "job_id">>> => tx.all(UNENDED, [workerId]),
  byId: (tx: ReadTx, id: string): Promise<SessionRow | undefined> => tx.get(BY_ID, [id]),
  insert(tx: Tx, id: string, jobId: string, workerId: string, leaseEpoch: number, reserved: Record<string, number>, now: number, probe: boolean): Promise<RunResult> {
    return tx.run(INSERT, [id, jobId, workerId, leaseEpoch, JSON.stringify(reserved), now, probe]);
  },
  setState(tx: Tx, sessionId: string, state: SessionState): Promise<RunResult> {
    return tx.run(SET_STATE, [state, sessionId]);
  },
  markEndIssued(tx: Tx, sessionId: string): Promise<RunResult> {
    return tx.run(END_ISSUED, [sessionId]);
  },
  end(tx: Tx, sessionId: string, now: number): Promise<RunResult> {
    return tx.run(ENDED, [now, sessionId]);
  },

  action: (tx: ReadTx, id: string): Promise<ActionRow | undefined> => tx.get(ACTION, [id]),
  /** The Session's actions that have not ended, in order. */
  openActions: (tx: ReadTx, sessionId: string): Promise<ActionRow[]> => tx.all(OPEN_ACTIONS, [sessionId]),
  hasOpenAction: async (tx: ReadTx, sessionId: string): Promise<boolean> => (await tx.get(ANY_OPEN, [sessionId])) !== undefined,
  /** The Session's environment actions (enters and exits), in order. */
  environmentActions: (tx: ReadTx, sessionId: string): Promise<ActionRow[]> => tx.all(ENVIRONMENT_ACTIONS, [sessionId]),
  /** The sequence number of the Session's last action (null without any). */
  lastSeq: async (tx: ReadTx, sessionId: string): Promise<number | null> => (await tx.get(MAX_SEQ, [sessionId]))?.seq ?? null,
  /** Records actions issued at `now`, ASSIGNED, numbered from `first` (ids `<session>:<seq>`), one multi-row INSERT per 64. */
  async insertActions(tx: Tx, sessionId: string, first: number, actions: readonly ActionInsert[], now: number): Promise<void> {
    for (let at = 0; at < actions.length; at += ACTIONS_PER_INSERT) {
      const end = Math.min(at + ACTIONS_PER_INSERT, actions.length);
      const values: Array<string | number | null> = [];
      for (let i = at; i < end; i++) {
        const action = actions[i]!;
        values.push(`${sessionId}:${first + i}`, sessionId, first + i, action.kind, action.environmentId ?? null, action.stepId, action.taskId ?? null, now);
      }
      await tx.run(insertActionsStatement(end - at), values);
    }
  },
  /**
   * Records a worker's report of an action: its status, and each other value that is not null
   * (started_at and ended_at keep their first value).
   */
  report(
    tx: Tx,
    actionId: string,
    status: ActionStatus,
    exitCode: number | null,
    progress: number | null,
    statusMessage: string | null,
    failMessage: string | null,
    startedAt: number | null,
    endedAt: number | null,
  ): Promise<RunResult> {
    return tx.run(REPORT, [status, exitCode, progress, statusMessage, failMessage, startedAt, endedAt, actionId]);
  },
  /** Ends an issued action whose worker was lost or fenced. */
  interruptAction(tx: Tx, actionId: string, now: number): Promise<RunResult> {
    return tx.run(INTERRUPTED, [now, actionId]);
  },

  jobDefinition: (tx: ReadTx, jobId: string): Promise<JobDefinitionRow | undefined> => tx.get(JOB_DEFINITION, [jobId]),
  stepName: async (tx: ReadTx, stepId: string): Promise<string | undefined> => (await tx.get(STEP_NAME, [stepId]))?.name,
  taskParameters: async (tx: ReadTx, taskId: number): Promise<string | undefined> => (await tx.get(TASK_PARAMETERS, [taskId]))?.parameters,
};
