/**
 * Sessions and their logs as the portal and `loom job logs` read them: a job's Sessions with
 * their actions in order (the timeline), and log lines by id so a live view can resume after
 * the last line it has.
 */
import type Database from "better-sqlite3";
import { z } from "zod";
import type { ActionKind, ActionStatus, SessionState } from "../../lib/farm/statuses";
import { perDatabase } from "../db/per-database";
import { AppError } from "../services/errors";
import type { Farm } from "../services/farm";

export interface ActionView {
  id: string;
  seq: number;
  kind: ActionKind;
  environmentId: string | null;
  stepId: string | null;
  taskId: number | null;
  status: ActionStatus;
  exitCode: number | null;
  progress: number | null;
  statusMessage: string | null;
  failMessage: string | null;
  startedAt: number | null;
  endedAt: number | null;
}

export interface SessionView {
  id: string;
  jobId: string;
  workerId: string;
  state: SessionState;
  startedAt: number;
  endedAt: number | null;
  actions: ActionView[];
}

/** A session_actions row as stored. */
interface ActionRow {
  id: string;
  seq: number;
  kind: ActionKind;
  environment_id: string | null;
  step_id: string | null;
  task_id: number | null;
  status: ActionStatus;
  exit_code: number | null;
  progress: number | null;
  status_message: string | null;
  fail_message: string | null;
  started_at: number | null;
  ended_at: number | null;
}

function toActionView(a: ActionRow): ActionView {
  return {
    id: a.id,
    seq: a.seq,
    kind: a.kind,
    environmentId: a.environment_id,
    stepId: a.step_id,
    taskId: a.task_id,
    status: a.status,
    exitCode: a.exit_code,
    progress: a.progress,
    statusMessage: a.status_message,
    failMessage: a.fail_message,
    startedAt: a.started_at,
    endedAt: a.ended_at,
  };
}

export const listSessionsInput = z.object({ jobId: z.string().min(1), taskId: z.number().int().optional() });

export function listSessions(farm: Farm, raw: z.input<typeof listSessionsInput>): SessionView[] {
  const input = listSessionsInput.parse(raw);
  const sqlite = farm.store.sqlite;
  const sessions =
    input.taskId === undefined
      ? sqlite.prepare<[string], { id: string; job_id: string; worker_id: string; state: SessionState; started_at: number; ended_at: number | null }>("SELECT id, job_id, worker_id, state, started_at, ended_at FROM sessions WHERE job_id = ? ORDER BY started_at").all(input.jobId)
      : sqlite
          .prepare<[string, number], { id: string; job_id: string; worker_id: string; state: SessionState; started_at: number; ended_at: number | null }>(
            "SELECT DISTINCT s.id, s.job_id, s.worker_id, s.state, s.started_at, s.ended_at FROM sessions s JOIN session_actions a ON a.session_id = s.id WHERE s.job_id = ? AND a.task_id = ? ORDER BY s.started_at",
          )
          .all(input.jobId, input.taskId);
  const actions = sqlite.prepare<[string], ActionRow>("SELECT * FROM session_actions WHERE session_id = ? ORDER BY seq");
  return sessions.map((s) => ({
    id: s.id,
    jobId: s.job_id,
    workerId: s.worker_id,
    state: s.state,
    startedAt: s.started_at,
    endedAt: s.ended_at,
    actions: actions.all(s.id).map(toActionView),
  }));
}

export interface LogLineView {
  id: number;
  sessionId: string;
  actionId: string | null;
  time: number;
  line: string;
}

export const logLinesInput = z.object({
  sessionId: z.string().min(1).optional(),
  jobId: z.string().min(1).optional(),
  actionId: z.string().min(1).optional(),
  /** Lines with a larger id than this (a live view resumes from its last line). */
  afterId: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(10_000).default(1000),
});

type LogLineRow = { id: number; session_id: string; action_id: string | null; time: number; line: string };
type LogLineFilter = "sessionId" | "jobId" | "actionId";

/** Each filter's column, most selective first: the query seeks the first one given's (column, id) index. */
const FILTER_COLUMNS: ReadonlyArray<readonly [LogLineFilter, string]> = [
  ["actionId", "action_id"], // log_lines_action (action_id, id)
  ["sessionId", "session_id"], // log_lines_session_id (session_id, id)
  ["jobId", "job_id"], // log_lines_job_id (job_id, id)
];

/**
 * One prepared statement per combination of filters, per database handle: a live view reads a page
 * on every upload it follows, so neither preparing nor the plan may grow with the lines stored.
 * `col = ? AND id > ? ORDER BY id` seeks the (col, id) index and reads it in order: no sort.
 */
const logLineStatements = perDatabase(() => new Map<string, Database.Statement<unknown[], LogLineRow>>());

export function logLinesStatement(sqlite: Database.Database, filters: readonly LogLineFilter[]): Database.Statement<unknown[], LogLineRow> {
  const statements = logLineStatements(sqlite);
  const columns = FILTER_COLUMNS.filter(([filter]) => filters.includes(filter)).map(([, column]) => column);
  const key = columns.join(",");
  let statement = statements.get(key);
  if (!statement) {
    // Unary + keeps the planner off the other filters' indexes (it has no statistics to choose by).
    const where = [...columns.map((c, i) => `${i === 0 ? "" : "+"}${c} = ?`), "id > ?"].join(" AND ");
    statement = sqlite.prepare<unknown[], LogLineRow>(`SELECT id, session_id, action_id, time, line FROM log_lines WHERE ${where} ORDER BY id LIMIT ?`);
    statements.set(key, statement);
  }
  return statement;
}

/** Log lines in the order they were stored, of one Session, one action, or every Session of a job. */
export function logLines(farm: Farm, raw: z.input<typeof logLinesInput>): LogLineView[] {
  const input = logLinesInput.parse(raw);
  const given = FILTER_COLUMNS.filter(([filter]) => input[filter] !== undefined);
  return logLinesStatement(farm.store.sqlite, given.map(([filter]) => filter))
    .all(...given.map(([filter]) => input[filter]), input.afterId, input.limit)
    .map((r) => ({ id: r.id, sessionId: r.session_id, actionId: r.action_id, time: r.time, line: r.line }));
}

/** A timeline row: the action with what names it (its step, its task's parameters). */
export interface ActionDetail extends ActionView {
  stepName: string | null;
  taskIndex: number | null;
  taskParameters: Record<string, { type: string; value: string }> | null;
}

/** One Session as its page shows it: who ran it, of which job, every action in order. */
export interface SessionDetail extends Omit<SessionView, "actions"> {
  workerName: string;
  jobName: string;
  actions: ActionDetail[];
}

type ActionDetailRow = ActionRow & {
  step_name: string | null;
  task_index: number | null;
  task_parameters: string | null;
};

const sessionStatements = perDatabase((sqlite) => ({
  session: sqlite.prepare<[string], { id: string; job_id: string; worker_id: string; state: SessionState; started_at: number; ended_at: number | null; worker_name: string | null; job_name: string | null }>(
    `SELECT s.id, s.job_id, s.worker_id, s.state, s.started_at, s.ended_at, w.name AS worker_name, j.name AS job_name
     FROM sessions s LEFT JOIN workers w ON w.id = s.worker_id LEFT JOIN jobs j ON j.id = s.job_id WHERE s.id = ?`,
  ),
  actions: sqlite.prepare<[string], ActionDetailRow>(
    `SELECT a.*, st.name AS step_name, t.task_index, t.parameters AS task_parameters
     FROM session_actions a LEFT JOIN steps st ON st.id = a.step_id LEFT JOIN tasks t ON t.id = a.task_id
     WHERE a.session_id = ? ORDER BY a.seq`,
  ),
}));

/** One Session with its actions; NOT_FOUND when there is no such Session (or it is another job's). */
export function getSession(farm: Farm, sessionId: string, jobId?: string): SessionDetail {
  const statements = sessionStatements(farm.store.sqlite);
  const s = statements.session.get(sessionId);
  if (!s || (jobId !== undefined && s.job_id !== jobId)) throw new AppError("NOT_FOUND", `no Session ${sessionId}${jobId ? ` in job ${jobId}` : ""}`);
  return {
    id: s.id,
    jobId: s.job_id,
    jobName: s.job_name ?? s.job_id,
    workerId: s.worker_id,
    workerName: s.worker_name ?? s.worker_id,
    state: s.state,
    startedAt: s.started_at,
    endedAt: s.ended_at,
    actions: statements.actions.all(sessionId).map((a) => ({
      ...toActionView(a),
      stepName: a.step_name,
      taskIndex: a.task_index,
      taskParameters: a.task_parameters === null ? null : (JSON.parse(a.task_parameters) as ActionDetail["taskParameters"]),
    })),
  };
}
