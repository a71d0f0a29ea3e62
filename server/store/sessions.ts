/**
 * Sessions and their actions as the scheduler records them (server/scheduler/session-store.ts
 * and apply-updates.ts decide; this module reads and writes), inside the caller's unit of work.
 * Every worker sync runs these: statements are prepared once per connection, and issuing
 * actions uses one multi-row INSERT per shape, prepared the first time it is needed.
 */
import type Database from "better-sqlite3";
import { ACTION_STATUSES, TERMINAL_ACTION_STATUSES, type ActionKind, type ActionStatus, type SessionState } from "../../lib/farm/statuses";
import type { jobs, sessionActions, sessions } from "../db/schema";
import { repository } from "./repository";
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

export const sessionsRepository = repository((sqlite) => {
  const s = sqlite;
  const open = s.prepare<[string, number], SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE worker_id = ? AND state != 'ENDED' AND lease_epoch = ?`);
  const unended = s.prepare<[string], RawPick<typeof sessions, "id" | "job_id">>("SELECT id, job_id FROM sessions WHERE worker_id = ? AND state != 'ENDED'");
  const byId = s.prepare<[string], SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`);
  const insert = s.prepare<[string, string, string, number, string, number, number]>(
    "INSERT INTO sessions (id, job_id, worker_id, lease_epoch, state, reserved, started_at, probe) VALUES (?, ?, ?, ?, 'ACTIVE', ?, ?, ?)",
  );
  const setState = s.prepare<[SessionState, string]>("UPDATE sessions SET state = ? WHERE id = ?");
  const endIssued = s.prepare<[string]>("UPDATE sessions SET end_issued = 1 WHERE id = ?");
  const ended = s.prepare<[number, string]>("UPDATE sessions SET state = 'ENDED', ended_at = ? WHERE id = ?");
  const interrupted = s.prepare<[number, string]>("UPDATE session_actions SET status = 'INTERRUPTED', ended_at = ? WHERE id = ?");
  const report = s.prepare<[ActionStatus, number | null, number | null, string | null, string | null, number | null, number | null, string]>(
    `UPDATE session_actions SET status = ?, exit_code = COALESCE(?, exit_code), progress = COALESCE(?, progress),
     status_message = COALESCE(?, status_message), fail_message = COALESCE(?, fail_message),
     started_at = COALESCE(started_at, ?), ended_at = COALESCE(ended_at, ?) WHERE id = ?`,
  );
  // A long Session holds thousands of ended task runs: the sync path reads only what it needs,
  // filtered in SQL, so its cost does not grow with the Session's history in JavaScript.
  const openActions = s.prepare<[string], ActionRow>(`SELECT ${ACTION_COLUMNS} FROM session_actions WHERE session_id = ? AND status IN (${OPEN_STATUSES}) ORDER BY seq`);
  const anyOpen = s.prepare<[string], { one: number }>(`SELECT 1 AS one FROM session_actions WHERE session_id = ? AND status IN (${OPEN_STATUSES}) LIMIT 1`);
  const environmentActions = s.prepare<[string], ActionRow>(`SELECT ${ACTION_COLUMNS} FROM session_actions WHERE session_id = ? AND environment_id IS NOT NULL ORDER BY seq`);
  const action = s.prepare<[string], ActionRow>(`SELECT ${ACTION_COLUMNS} FROM session_actions WHERE id = ?`);
  const maxSeq = s.prepare<[string], { seq: number | null }>("SELECT MAX(seq) AS seq FROM session_actions WHERE session_id = ?");
  const jobDefinition = s.prepare<[string], JobDefinitionRow>("SELECT id, template_text, template_format, environment_templates, parameters FROM jobs WHERE id = ?");
  const stepName = s.prepare<[string], { name: string }>("SELECT name FROM steps WHERE id = ?");
  const taskParameters = s.prepare<[number], { parameters: string }>("SELECT parameters FROM tasks WHERE id = ?");

  /** Multi-row INSERTs by their number of rows. */
  const inserts = new Map<number, Database.Statement>();
  const insertActions = (rows: number): Database.Statement => {
    let statement = inserts.get(rows);
    if (!statement) {
      const row = "(?, ?, ?, ?, ?, ?, ?, ?, 'ASSIGNED')";
      statement = s.prepare(`INSERT INTO session_actions (id, session_id, seq, kind, environment_id, step_id, task_id, assigned_at, status) VALUES ${Array(rows).fill(row).join(", ")}`);
      inserts.set(rows, statement);
    }
    return statement;
  };

  return {
    /** The worker's Sessions that have not ended, under this lease. */
    openOf: (workerId: string, leaseEpoch: number): SessionRow[] => open.all(workerId, leaseEpoch),
    /** The worker's Sessions that have not ended, under any lease. */
    unendedOf: (workerId: string): Array<RawPick<typeof sessions, "id" | "job_id">> => unended.all(workerId),
    byId: (id: string): SessionRow | undefined => byId.get(id),
    insert(id: string, jobId: string, workerId: string, leaseEpoch: number, reserved: Record<string, number>, now: number, probe: boolean): void {
      insert.run(id, jobId, workerId, leaseEpoch, JSON.stringify(reserved), now, probe ? 1 : 0);
    },
    setState(sessionId: string, state: SessionState): void {
      setState.run(state, sessionId);
    },
    markEndIssued(sessionId: string): void {
      endIssued.run(sessionId);
    },
    end(sessionId: string, now: number): void {
      ended.run(now, sessionId);
    },

    action: (id: string): ActionRow | undefined => action.get(id),
    /** The Session's actions that have not ended, in order. */
    openActions: (sessionId: string): ActionRow[] => openActions.all(sessionId),
    hasOpenAction: (sessionId: string): boolean => anyOpen.get(sessionId) !== undefined,
    /** The Session's environment actions (enters and exits), in order. */
    environmentActions: (sessionId: string): ActionRow[] => environmentActions.all(sessionId),
    /** The sequence number of the Session's last action (null without any). */
    lastSeq: (sessionId: string): number | null => maxSeq.get(sessionId)?.seq ?? null,
    /** Records actions issued at `now`, ASSIGNED, numbered from `first` (ids `<session>:<seq>`), one multi-row INSERT per 64. */
    insertActions(sessionId: string, first: number, actions: readonly ActionInsert[], now: number): void {
      for (let at = 0; at < actions.length; at += ACTIONS_PER_INSERT) {
        const chunk = actions.slice(at, at + ACTIONS_PER_INSERT);
        const values: Array<string | number | null> = [];
        chunk.forEach((action, i) => values.push(`${sessionId}:${first + at + i}`, sessionId, first + at + i, action.kind, action.environmentId ?? null, action.stepId, action.taskId ?? null, now));
        insertActions(chunk.length).run(...values);
      }
    },
    /**
     * Records a worker's report of an action: its status, and each other value that is not null
     * (started_at and ended_at keep their first value).
     */
    report(
      actionId: string,
      status: ActionStatus,
      exitCode: number | null,
      progress: number | null,
      statusMessage: string | null,
      failMessage: string | null,
      startedAt: number | null,
      endedAt: number | null,
    ): void {
      report.run(status, exitCode, progress, statusMessage, failMessage, startedAt, endedAt, actionId);
    },
    /** Ends an issued action whose worker was lost or fenced. */
    interruptAction(actionId: string, now: number): void {
      interrupted.run(now, actionId);
    },

    jobDefinition: (jobId: string): JobDefinitionRow | undefined => jobDefinition.get(jobId),
    stepName: (stepId: string): string | undefined => stepName.get(stepId)?.name,
    taskParameters: (taskId: number): string | undefined => taskParameters.get(taskId)?.parameters,
  };
});
