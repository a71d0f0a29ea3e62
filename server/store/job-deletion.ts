/**
 * Deleting jobs (server/services/delete-job-rows.ts) and choosing the ones retention deletes
 * (server/services/purge-jobs.ts). A job goes children first, in chunks of DELETE_CHUNK rows
 * (a few milliseconds each): deleting the job row alone would cascade through a million rows
 * in one statement.
 */
import type { jobs } from "../db/schema";
import { countSumSql } from "../db/status-counts";
import { CREATING_MARKER } from "./job-writes";
import type { RunResult } from "./engine/engine";
import { perEngine, type ReadTx, type Tx } from "./repository";
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

const SESSION_IDS = "SELECT id FROM sessions WHERE job_id = ?";
const LOG_LINES = `DELETE FROM log_lines WHERE id IN (SELECT id FROM log_lines WHERE session_id = ? LIMIT ${DELETE_CHUNK})`;
const ACTIONS = `DELETE FROM session_actions WHERE id IN (SELECT id FROM session_actions WHERE session_id = ? LIMIT ${DELETE_CHUNK})`;
const SESSION = "DELETE FROM sessions WHERE id = ?";
const TASKS = `DELETE FROM tasks WHERE id IN (SELECT id FROM tasks WHERE job_id = ? LIMIT ${DELETE_CHUNK})`;
// Edges and groups have no id of their own: a chunk is picked by SQLite's rowid, PostgreSQL's ctid.
const chunkOf = (table: string) =>
  perEngine((d) =>
    d.engine === "sqlite"
      ? `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE job_id = ? LIMIT ${DELETE_CHUNK})`
      : `DELETE FROM ${table} WHERE ctid = ANY (ARRAY (SELECT ctid FROM ${table} WHERE job_id = ? LIMIT ${DELETE_CHUNK}))`,
  );
const EDGES = chunkOf("task_edges");
const GROUPS = chunkOf("task_groups");
const REQUESTS = "DELETE FROM requests WHERE job_id = ?";
const JOB = "DELETE FROM jobs WHERE id = ?";
const FINISHED_BEFORE = `SELECT id, name, task_count FROM jobs WHERE ${FINISHED} ORDER BY seq`;
const STILL_FINISHED = `SELECT id FROM jobs WHERE ${FINISHED} AND id = ?`;
const LOWEST_LINE = "SELECT MIN(id) AS id FROM log_lines WHERE job_id = ?";
const HIGHEST_LINE = "SELECT MAX(id) AS id FROM log_lines WHERE job_id = ?";
const COUNT_LINES = "SELECT COUNT(*) AS n FROM log_lines WHERE job_id = ? AND id BETWEEN ? AND ?";

const changes = async (running: Promise<RunResult>): Promise<number> => (await running).changes;

export const jobDeletionRepository = {
  sessionIdsOfJob: async (tx: ReadTx, jobId: string): Promise<string[]> => (await tx.all<{ id: string }>(SESSION_IDS, [jobId])).map((row) => row.id),
  /** Each deletes a chunk of rows and returns how many it deleted (0: none left). */
  deleteLogLinesChunk: (tx: Tx, sessionId: string): Promise<number> => changes(tx.run(LOG_LINES, [sessionId])),
  deleteActionsChunk: (tx: Tx, sessionId: string): Promise<number> => changes(tx.run(ACTIONS, [sessionId])),
  deleteSession: (tx: Tx, sessionId: string): Promise<number> => changes(tx.run(SESSION, [sessionId])),
  deleteTasksChunk: (tx: Tx, jobId: string): Promise<number> => changes(tx.run(TASKS, [jobId])),
  deleteEdgesChunk: (tx: Tx, jobId: string): Promise<number> => changes(tx.run(EDGES[tx.engine], [jobId])),
  deleteGroupsChunk: (tx: Tx, jobId: string): Promise<number> => changes(tx.run(GROUPS[tx.engine], [jobId])),
  /** The job row, and the requests that point at it. */
  async deleteJob(tx: Tx, jobId: string): Promise<void> {
    await tx.run(REQUESTS, [jobId]);
    await tx.run(JOB, [jobId]);
  },
  /** Finished jobs that ended before the cutoff, oldest first. */
  finishedBefore: (tx: ReadTx, cutoff: number): Promise<RetentionCandidate[]> => tx.all<RetentionCandidate>(FINISHED_BEFORE, [cutoff]),
  isFinishedBefore: async (tx: ReadTx, jobId: string, cutoff: number): Promise<boolean> => (await tx.get<RawPick<typeof jobs, "id">>(STILL_FINISHED, [cutoff, jobId])) !== undefined,
  /** The lowest and highest log line id of a job, or null when it has none. */
  async logLineBounds(tx: ReadTx, jobId: string): Promise<{ low: number; high: number } | null> {
    const low = (await tx.get<{ id: number | null }>(LOWEST_LINE, [jobId]))?.id ?? null;
    const high = (await tx.get<{ id: number | null }>(HIGHEST_LINE, [jobId]))?.id ?? null;
    return low === null || high === null ? null : { low, high };
  },
  /** A job's log lines with ids in [low, high] (a range of its index, so a count never reads millions at once). */
  countLogLines: async (tx: ReadTx, jobId: string, low: number, high: number): Promise<number> => (await tx.get<{ n: number }>(COUNT_LINES, [jobId, low, high]))?.n ?? 0,
};
