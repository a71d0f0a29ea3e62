/**
 * Read models of Sessions, their actions and their log lines (server/queries/sessions.ts and
 * worker-timeline.ts map the rows): a job's Sessions with their actions in order, one Session
 * with what names its actions, log lines by id so a live view resumes after its last line, and
 * the Sessions and actions of a time window.
 */
import type { logLines, sessionActions, sessions } from "../db/schema";
import type { Engine } from "./engine/engine";
import { perEngine, type ReadTx } from "./repository";
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

const OF_JOB = "SELECT id, job_id, worker_id, state, started_at, ended_at FROM sessions WHERE job_id = ? ORDER BY started_at";
const OF_JOB_TASK =
  "SELECT DISTINCT s.id, s.job_id, s.worker_id, s.state, s.started_at, s.ended_at FROM sessions s JOIN session_actions a ON a.session_id = s.id WHERE s.job_id = ? AND a.task_id = ? ORDER BY s.started_at";
const ACTIONS = "SELECT * FROM session_actions WHERE session_id = ? ORDER BY seq";
const DETAIL = `SELECT s.id, s.job_id, s.worker_id, s.state, s.started_at, s.ended_at, w.name AS worker_name, j.name AS job_name
   FROM sessions s LEFT JOIN workers w ON w.id = s.worker_id LEFT JOIN jobs j ON j.id = s.job_id WHERE s.id = ?`;
const DETAIL_ACTIONS = `SELECT a.*, st.name AS step_name, t.task_index, t.parameters AS task_parameters
   FROM session_actions a LEFT JOIN steps st ON st.id = a.step_id LEFT JOIN tasks t ON t.id = a.task_id
   WHERE a.session_id = ? ORDER BY a.seq`;
const IN_WINDOW = `SELECT s.id, s.worker_id, s.job_id, j.name AS job_name, s.state, s.started_at, s.ended_at FROM sessions s JOIN jobs j ON j.id = s.job_id
     WHERE s.started_at < ? AND (s.ended_at IS NULL OR s.ended_at >= ?) AND (CAST(? AS text) IS NULL OR s.worker_id IN (SELECT id FROM workers WHERE pool_id = ?))
     ORDER BY s.started_at DESC LIMIT ?`;
const TIMED_ACTIONS = perEngine(
  (d) => `SELECT session_id, kind, status, started_at, ended_at FROM session_actions
     WHERE session_id IN ${d.jsonValues("?", "text")} AND started_at IS NOT NULL AND started_at < ? AND (ended_at IS NULL OR ended_at >= ?)
     ORDER BY session_id, seq LIMIT ?`,
);
const STATUSES_OF_SESSIONS = perEngine((d) => `SELECT DISTINCT session_id, status FROM session_actions WHERE session_id IN ${d.jsonValues("?", "text")}`);

/**
 * The statement text of one combination of log line filters: a live view reads a page on every
 * upload it follows, so neither preparing nor the plan may grow with the lines stored (the engine
 * prepares each text once per connection). `col = ? AND id > ? ORDER BY id` seeks the (col, id)
 * index and reads it in order: no sort.
 */
function logLinesStatement(engine: Engine, filters: ReadonlyArray<keyof LogLineFilter>): string {
  const columns = FILTER_COLUMNS.filter(([filter]) => filters.includes(filter)).map(([, column]) => column);
  // SQLite: unary + keeps the planner off the other filters' indexes (it has no statistics to
  // choose by). PostgreSQL has no unary + for text, and its planner chooses by statistics.
  const off = engine === "sqlite" ? "+" : "";
  const where = [...columns.map((c, i) => `${i === 0 ? "" : off}${c} = ?`), "id > ?"].join(" AND ");
  return `SELECT id, session_id, action_id, time, line FROM log_lines WHERE ${where} ORDER BY id LIMIT ?`;
}

export const sessionQueriesRepository = {
  /** A job's Sessions, or those that ran one of its tasks, in the order they started. */
  ofJob: (tx: ReadTx, jobId: string, taskId?: number): Promise<SessionRow[]> => (taskId === undefined ? tx.all<SessionRow>(OF_JOB, [jobId]) : tx.all<SessionRow>(OF_JOB_TASK, [jobId, taskId])),
  /** A Session's actions in order. */
  actions: (tx: ReadTx, sessionId: string): Promise<ActionRow[]> => tx.all<ActionRow>(ACTIONS, [sessionId]),
  detail: (tx: ReadTx, sessionId: string): Promise<SessionDetailRow | undefined> => tx.get<SessionDetailRow>(DETAIL, [sessionId]),
  /** A Session's actions in order, with what names each. */
  detailActions: (tx: ReadTx, sessionId: string): Promise<ActionDetailRow[]> => tx.all<ActionDetailRow>(DETAIL_ACTIONS, [sessionId]),
  /** Log lines in stored order after `afterId`, of the filters given (every line when none is). */
  logLines(tx: ReadTx, filter: LogLineFilter, afterId: number, limit: number): Promise<LogLineRow[]> {
    const given = FILTER_COLUMNS.filter(([name]) => filter[name] !== undefined).map(([name]) => name);
    return tx.all<LogLineRow>(logLinesStatement(tx.engine, given), [...given.map((name) => filter[name]!), afterId, limit]);
  },
  /** The statement text a combination of filters reads with (a test reads its query plan). */
  logLinesStatement,
  /** Sessions that overlap [from, to), of one pool's workers or all, the latest first, at most `limit`. */
  inWindow: (tx: ReadTx, from: number, to: number, poolId: string | null, limit: number): Promise<WindowSessionRow[]> => tx.all<WindowSessionRow>(IN_WINDOW, [to, from, poolId, poolId, limit]),
  /** The started actions of these Sessions that overlap [from, to), by Session and in order, at most `limit`. */
  timedActions: (tx: ReadTx, sessionIds: readonly string[], from: number, to: number, limit: number): Promise<TimedActionRow[]> =>
    tx.all<TimedActionRow>(TIMED_ACTIONS[tx.engine], [JSON.stringify(sessionIds), to, from, limit]),
  /** Each of these Sessions' action statuses, once each. */
  actionStatuses: (tx: ReadTx, sessionIds: readonly string[]) => tx.all<RawPick<typeof sessionActions, "session_id" | "status">>(STATUSES_OF_SESSIONS[tx.engine], [JSON.stringify(sessionIds)]),
};
