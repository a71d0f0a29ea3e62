/**
 * Log lines from a worker (`POST /api/worker/logs`). Each line carries the Session's sequence
 * number, so a batch sent twice (a lost response, a retry after a server restart) is stored once.
 * The reply acknowledges only what is committed: the worker may then forget those lines.
 */
import type { LogsRequest, LogsResponse } from "../../lib/farm/protocol";
import { perDatabase } from "../db/per-database";
import { AppError } from "./errors";
import type { Farm } from "./farm";
import type { PoolRow } from "./pools";

/** The "logs" event: lines of this Session (of this job) were stored. Live views skip others' uploads. */
export interface LogsEvent {
  sessionId: string;
  jobId: string;
}

/** Uploads are the farm's most frequent write: statements are prepared once per database handle. */
const storeLines = perDatabase((sqlite) => {
  const owner = sqlite.prepare<[string, string], { lease_epoch: number; session_epoch: number; worker_id: string; job_id: string }>(
    `SELECT w.lease_epoch, s.lease_epoch AS session_epoch, s.worker_id, s.job_id FROM sessions s JOIN workers w ON w.id = s.worker_id
     WHERE s.id = ? AND w.pool_id = ?`,
  );
  const insert = sqlite.prepare<[string, string, number, string | null, number, string]>(
    "INSERT OR IGNORE INTO log_lines (session_id, job_id, seq, action_id, time, line) VALUES (?, ?, ?, ?, ?, ?)",
  );
  return sqlite.transaction((pool: PoolRow, request: LogsRequest) => {
    const found = owner.get(request.sessionId, pool.id);
    if (!found || found.worker_id !== request.workerId) throw new AppError("NOT_FOUND", `session ${request.sessionId} is not one of worker ${request.workerId}'s`);
    if (found.lease_epoch !== request.leaseEpoch || found.session_epoch !== request.leaseEpoch) {
      throw new AppError("LEASE_CONFLICT", `lease ${request.leaseEpoch} of worker ${request.workerId} is no longer valid`);
    }
    let through = -1;
    for (const line of request.lines) {
      insert.run(request.sessionId, found.job_id, line.seq, line.actionId, line.time, line.line);
      through = Math.max(through, line.seq);
    }
    return { through, jobId: found.job_id };
  });
});

export function ingestLogs(farm: Farm, pool: PoolRow, request: LogsRequest): LogsResponse {
  const { through, jobId } = storeLines(farm.store.sqlite)(pool, request);
  if (request.lines.length > 0) farm.events.emit("logs", { sessionId: request.sessionId, jobId } satisfies LogsEvent);
  return { acknowledgedThrough: through };
}
