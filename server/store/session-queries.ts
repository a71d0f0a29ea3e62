/**
 * Read models of Sessions, their actions and their log lines (server/queries/sessions.ts and
 * worker-timeline.ts map the rows): a job's Sessions with their actions in order, one Session
 * with what names its actions, log lines by id so a live view resumes after its last line, and
 * the Sessions and actions of a time window.
 */
import type Database from "better-sqlite3";
import type { logLines, sessionActions, sessions } from "../db/schema";
import { repository, shapedStatements } from "./repository";
import type { Raw, RawPick } from "./rows";

export type SessionRow = RawPick<typeof sessions, "id" | "job_id" | "worker_id" | "state" | "started_at" | "ended_at">;

/** A session_actions row as stored. */
export type ActionRow = Raw<typeof sessionActions>;

/** A Session with its worker's and job's names (null when their row is gone). */
export type SessionDetailRow = SessionRow & { worker_name: string | null; job_name: string | null };

/** An action with what names it: its step, its task's index and parameters (JSON text). */
export type ActionDetailRow = ActionRow & { step_name: string | null; task_index: number | null; task_parameters: string | null };

export type LogLineRow = RawPick<typeof logLines, "id" | "session_id" | "action_id" | "time" | "line">;

/** What log lines are read by: at most one of each, any combination. */
export interface LogLineFilter {
  sessionId?: string | undefined;
  jobId?: string | undefined;
  actionId?: string | undefined;
}

/** A Session of the timeline, with its job's name. */
export type WindowSessionRow = SessionRow & { job_name: string };

export type TimedActionRow = RawPick<typeof sessionActions, "session_id" | "kind" | "status" | "ended_at"> & { started_at: number };

/** Each filter's column, most selective first: the query seeks the first one given's (column, id) index. */
const FILTER_COLUMNS: ReadonlyArray<readonly [keyof LogLineFilter, string]> = [
  ["actionId", "action_id"], // log_lines_action (action_id, id)
  ["sessionId", "session_id"], // log_lines_session_id (session_id, id)
  ["jobId", "job_id"], // log_lines_job_id (job_id, id)
];

export const sessionQueriesRepository = repository((sqlite) => {
  const ofJob = sqlite.prepare<[string], SessionRow>("SELECT id, job_id, worker_id, state, started_at, ended_at FROM sessions WHERE job_id = ? ORDER BY started_at");
  const ofJobTask = sqlite.prepare<[string, number], SessionRow>(
    "SELECT DISTINCT s.id, s.job_id, s.worker_id, s.state, s.started_at, s.ended_at FROM sessions s JOIN session_actions a ON a.session_id = s.id WHERE s.job_id = ? AND a.task_id = ? ORDER BY s.started_at",
  );
  const actions = sqlite.prepare<[string], ActionRow>("SELECT * FROM session_actions WHERE session_id = ? ORDER BY seq");
  const detail = sqlite.prepare<[string], SessionDetailRow>(
    `SELECT s.id, s.job_id, s.worker_id, s.state, s.started_at, s.ended_at, w.name AS worker_name, j.name AS job_name
     FROM sessions s LEFT JOIN workers w ON w.id = s.worker_id LEFT JOIN jobs j ON j.id = s.job_id WHERE s.id = ?`,
  );
  const detailActions = sqlite.prepare<[string], ActionDetailRow>(
    `SELECT a.*, st.name AS step_name, t.task_index, t.parameters AS task_parameters
     FROM session_actions a LEFT JOIN steps st ON st.id = a.step_id LEFT JOIN tasks t ON t.id = a.task_id
     WHERE a.session_id = ? ORDER BY a.seq`,
  );
  const inWindow = sqlite.prepare<[number, number, string | null, string | null, number], WindowSessionRow>(
    `SELECT s.id, s.worker_id, s.job_id, j.name AS job_name, s.state, s.started_at, s.ended_at FROM sessions s JOIN jobs j ON j.id = s.job_id
       WHERE s.started_at < ? AND (s.ended_at IS NULL OR s.ended_at >= ?) AND (? IS NULL OR s.worker_id IN (SELECT id FROM workers WHERE pool_id = ?))
       ORDER BY s.started_at DESC LIMIT ?`,
  );
  const timedActions = sqlite.prepare<[string, number, number, number], TimedActionRow>(
    `SELECT session_id, kind, status, started_at, ended_at FROM session_actions
       WHERE session_id IN (SELECT value FROM json_each(?)) AND started_at IS NOT NULL AND started_at < ? AND (ended_at IS NULL OR ended_at >= ?)
       ORDER BY session_id, seq LIMIT ?`,
  );
  const actionStatuses = sqlite.prepare<[string], RawPick<typeof sessionActions, "session_id" | "status">>(
    "SELECT DISTINCT session_id, status FROM session_actions WHERE session_id IN (SELECT value FROM json_each(?))",
  );

  /**
   * One statement per combination of log line filters: a live view reads a page on every upload
   * it follows, so neither preparing nor the plan may grow with the lines stored.
   * `col = ? AND id > ? ORDER BY id` seeks the (col, id) index and reads it in order: no sort.
   */
  const shaped = shapedStatements(sqlite);
  function logLinesStatement(filters: ReadonlyArray<keyof LogLineFilter>): Database.Statement<unknown[], LogLineRow> {
    const columns = FILTER_COLUMNS.filter(([filter]) => filters.includes(filter)).map(([, column]) => column);
    // Unary + keeps the planner off the other filters' indexes (it has no statistics to choose by).
    const where = [...columns.map((c, i) => `${i === 0 ? "" : "+"}${c} = ?`), "id > ?"].join(" AND ");
    return shaped<LogLineRow>(`SELECT id, session_id, action_id, time, line FROM log_lines WHERE ${where} ORDER BY id LIMIT ?`);
  }

  return {
    /** A job's Sessions, or those that ran one of its tasks, in the order they started. */
    ofJob: (jobId: string, taskId?: number): SessionRow[] => (taskId === undefined ? ofJob.all(jobId) : ofJobTask.all(jobId, taskId)),
    /** A Session's actions in order. */
    actions: (sessionId: string): ActionRow[] => actions.all(sessionId),
    detail: (sessionId: string): SessionDetailRow | undefined => detail.get(sessionId),
    /** A Session's actions in order, with what names each. */
    detailActions: (sessionId: string): ActionDetailRow[] => detailActions.all(sessionId),
    /** Log lines in stored order after `afterId`, of the filters given (every line when none is). */
    logLines(filter: LogLineFilter, afterId: number, limit: number): LogLineRow[] {
      const given = FILTER_COLUMNS.filter(([name]) => filter[name] !== undefined).map(([name]) => name);
      return logLinesStatement(given).all(...given.map((name) => filter[name]), afterId, limit);
    },
    /** The statement a combination of filters reads with (a test reads its query plan). */
    logLinesStatement,
    /** Sessions that overlap [from, to), of one pool's workers or all, the latest first, at most `limit`. */
    inWindow: (from: number, to: number, poolId: string | null, limit: number): WindowSessionRow[] => inWindow.all(to, from, poolId, poolId, limit),
    /** The started actions of these Sessions that overlap [from, to), by Session and in order, at most `limit`. */
    timedActions: (sessionIds: readonly string[], from: number, to: number, limit: number): TimedActionRow[] => timedActions.all(JSON.stringify(sessionIds), to, from, limit),
    /** Each of these Sessions' action statuses, once each. */
    actionStatuses: (sessionIds: readonly string[]) => actionStatuses.all(JSON.stringify(sessionIds)),
  };
});
