/**
 * Reading a job whole for its archive file (server/services/archive-job.ts): every row as the
 * database holds it (column names, JSON columns as their text), in pages of ARCHIVE_PAGE rows so
 * the service can yield to the event loop between them.
 */
import type { logLines, sessionActions, sessions } from "../db/schema";
import type { ReadTx } from "./repository";
import type { Raw } from "./rows";

/** Rows per page (and task ids per range). */
export const ARCHIVE_PAGE = 2_000;

const JOB = "SELECT * FROM jobs WHERE id = ?";
const STEPS = "SELECT * FROM steps WHERE job_id = ? ORDER BY step_index";
const TASKS = "SELECT * FROM tasks WHERE job_id = ? AND id BETWEEN ? AND ? ORDER BY id";
const SESSIONS = "SELECT * FROM sessions WHERE job_id = ? ORDER BY started_at, id";
const ACTIONS = `SELECT * FROM session_actions WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ${ARCHIVE_PAGE}`;
const LINES = `SELECT * FROM log_lines WHERE session_id = ? AND id > ? ORDER BY id LIMIT ${ARCHIVE_PAGE}`;

export const archiveRepository = {
  /** The job's row (none when it is gone). */
  job: (tx: ReadTx, jobId: string): Promise<unknown[]> => tx.all<unknown>(JOB, [jobId]),
  steps: (tx: ReadTx, jobId: string): Promise<unknown[]> => tx.all<unknown>(STEPS, [jobId]),
  /** The job's tasks with ids in [low, high], by id. */
  tasks: (tx: ReadTx, jobId: string, low: number, high: number): Promise<unknown[]> => tx.all<unknown>(TASKS, [jobId, low, high]),
  sessions: (tx: ReadTx, jobId: string) => tx.all<Raw<typeof sessions>>(SESSIONS, [jobId]),
  /** The next page of a Session's actions after `afterSeq`, by seq. */
  actionsAfter: (tx: ReadTx, sessionId: string, afterSeq: number) => tx.all<Raw<typeof sessionActions>>(ACTIONS, [sessionId, afterSeq]),
  /** The next page of a Session's log lines after `afterId`, by id. */
  logLinesAfter: (tx: ReadTx, sessionId: string, afterId: number) => tx.all<Raw<typeof logLines>>(LINES, [sessionId, afterId]),
};
