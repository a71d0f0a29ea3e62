/**
 * Deleting jobs (server/services/delete-job-rows.ts) and choosing the ones retention deletes
 * (server/services/purge-jobs.ts). A job goes children first, in chunks of DELETE_CHUNK rows
 * (a few milliseconds each): deleting the job row alone would cascade through a million rows
 * in one statement.
 */
import type { jobs } from "../db/schema";
import { countSumSql } from "../db/status-counts";
import { CREATING_MARKER } from "./job-writes";
import { repository } from "./repository";
import type { RawPick } from "./rows";

/** Rows per chunk DELETE. */
const DELETE_CHUNK = 500;

/**
 * Finished: SUCCEEDED, FAILED or CANCELED, with no task that could still run, no Session still
 * open, not being created, and ended (or, never having ended, submitted) before the cutoff.
 */
const FINISHED = `status IN ('SUCCEEDED', 'FAILED', 'CANCELED')
  AND ${countSumSql(["READY", "ASSIGNED", "RUNNING", "NOT_COMPATIBLE", "SUSPENDED"])} = 0
  AND COALESCE(ended_at, submitted_at) < ?
  AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.job_id = jobs.id AND s.state != 'ENDED')
  AND NOT EXISTS (SELECT 1 FROM server_state WHERE key = '${CREATING_MARKER}' || jobs.id)`;

export type RetentionCandidate = RawPick<typeof jobs, "id" | "name" | "task_count">;

export const jobDeletionRepository = repository((sqlite) => {
  const sessionIds = sqlite.prepare<[string], string>("SELECT id FROM sessions WHERE job_id = ?").pluck();
  const logLines = sqlite.prepare<[string]>(`DELETE FROM log_lines WHERE id IN (SELECT id FROM log_lines WHERE session_id = ? LIMIT ${DELETE_CHUNK})`);
  const actions = sqlite.prepare<[string]>(`DELETE FROM session_actions WHERE id IN (SELECT id FROM session_actions WHERE session_id = ? LIMIT ${DELETE_CHUNK})`);
  const session = sqlite.prepare<[string]>("DELETE FROM sessions WHERE id = ?");
  const tasks = sqlite.prepare<[string]>(`DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE job_id = ? LIMIT ${DELETE_CHUNK})`);
  const requests = sqlite.prepare<[string]>("DELETE FROM requests WHERE job_id = ?");
  const job = sqlite.prepare<[string]>("DELETE FROM jobs WHERE id = ?");
  const finished = sqlite.prepare<[number], RetentionCandidate>(`SELECT id, name, task_count FROM jobs WHERE ${FINISHED} ORDER BY seq`);
  const stillFinished = sqlite.prepare<[number, string], RawPick<typeof jobs, "id">>(`SELECT id FROM jobs WHERE ${FINISHED} AND id = ?`);
  const lowestLine = sqlite.prepare<[string], { id: number | null }>("SELECT MIN(id) AS id FROM log_lines WHERE job_id = ?");
  const highestLine = sqlite.prepare<[string], { id: number | null }>("SELECT MAX(id) AS id FROM log_lines WHERE job_id = ?");
  const countLines = sqlite.prepare<[string, number, number], { n: number }>("SELECT COUNT(*) AS n FROM log_lines WHERE job_id = ? AND id BETWEEN ? AND ?");
  return {
    sessionIdsOfJob: (jobId: string): string[] => sessionIds.all(jobId),
    /** Each deletes a chunk of rows and returns how many it deleted (0: none left). */
    deleteLogLinesChunk: (sessionId: string): number => logLines.run(sessionId).changes,
    deleteActionsChunk: (sessionId: string): number => actions.run(sessionId).changes,
    deleteSession: (sessionId: string): number => session.run(sessionId).changes,
    deleteTasksChunk: (jobId: string): number => tasks.run(jobId).changes,
    /** The job row, and the requests that point at it. */
    deleteJob(jobId: string): void {
      requests.run(jobId);
      job.run(jobId);
    },
    /** Finished jobs that ended before the cutoff, oldest first. */
    finishedBefore: (cutoff: number): RetentionCandidate[] => finished.all(cutoff),
    isFinishedBefore: (jobId: string, cutoff: number): boolean => stillFinished.get(cutoff, jobId) !== undefined,
    /** The lowest and highest log line id of a job, or null when it has none. */
    logLineBounds(jobId: string): { low: number; high: number } | null {
      const low = lowestLine.get(jobId)?.id ?? null;
      const high = highestLine.get(jobId)?.id ?? null;
      return low === null || high === null ? null : { low, high };
    },
    /** A job's log lines with ids in [low, high] (a range of its index, so a count never reads millions at once). */
    countLogLines: (jobId: string, low: number, high: number): number => countLines.get(jobId, low, high)?.n ?? 0,
  };
});
