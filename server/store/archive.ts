/**
 * Reading a job whole for its archive file (server/services/archive-job.ts): every row as the
 * database holds it (column names, JSON columns as their text), in pages of ARCHIVE_PAGE rows so
 * the service can yield to the event loop between them.
 */
import type { logLines, sessionActions, sessions } from "../db/schema";
import { repository } from "./repository";
import type { Raw } from "./rows";

/** Rows per page (and task ids per range). */
export const ARCHIVE_PAGE = 2_000;

export const archiveRepository = repository((sqlite) => {
  const job = sqlite.prepare<[string], unknown>("SELECT * FROM jobs WHERE id = ?");
  const steps = sqlite.prepare<[string], unknown>("SELECT * FROM steps WHERE job_id = ? ORDER BY step_index");
  const tasks = sqlite.prepare<[string, number, number], unknown>("SELECT * FROM tasks WHERE job_id = ? AND id BETWEEN ? AND ? ORDER BY id");
  const jobSessions = sqlite.prepare<[string], Raw<typeof sessions>>("SELECT * FROM sessions WHERE job_id = ? ORDER BY started_at, id");
  const actions = sqlite.prepare<[string, number], Raw<typeof sessionActions>>(`SELECT * FROM session_actions WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ${ARCHIVE_PAGE}`);
  const lines = sqlite.prepare<[string, number], Raw<typeof logLines>>(`SELECT * FROM log_lines WHERE session_id = ? AND id > ? ORDER BY id LIMIT ${ARCHIVE_PAGE}`);
  return {
    /** The job's row (none when it is gone). */
    job: (jobId: string): unknown[] => job.all(jobId),
    steps: (jobId: string): unknown[] => steps.all(jobId),
    /** The job's tasks with ids in [low, high], by id. */
    tasks: (jobId: string, low: number, high: number): unknown[] => tasks.all(jobId, low, high),
    sessions: (jobId: string) => jobSessions.all(jobId),
    /** The next page of a Session's actions after `afterSeq`, by seq. */
    actionsAfter: (sessionId: string, afterSeq: number) => actions.all(sessionId, afterSeq),
    /** The next page of a Session's log lines after `afterId`, by id. */
    logLinesAfter: (sessionId: string, afterId: number) => lines.all(sessionId, afterId),
  };
});
