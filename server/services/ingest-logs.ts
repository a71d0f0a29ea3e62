/**
 * Log lines from a worker (`POST /api/worker/logs`). Each line carries the Session's sequence
 * number, so a batch sent twice (a lost response, a retry after a server restart) is stored once.
 * The reply acknowledges only what is committed: the worker may then forget those lines.
 */
import type { LogsRequest, LogsResponse } from "../../lib/farm/protocol";
import { AppError } from "./errors";
import type { Farm } from "./farm";
import type { PoolRow } from "./pools";

export function ingestLogs(farm: Farm, pool: PoolRow, request: LogsRequest): LogsResponse {
  const sqlite = farm.store.sqlite;
  const acknowledged = sqlite.transaction(() => {
    const owner = sqlite
      .prepare<[string, string], { lease_epoch: number; session_epoch: number; worker_id: string }>(
        `SELECT w.lease_epoch, s.lease_epoch AS session_epoch, s.worker_id FROM sessions s JOIN workers w ON w.id = s.worker_id
         WHERE s.id = ? AND w.pool_id = ?`,
      )
      .get(request.sessionId, pool.id);
    if (!owner || owner.worker_id !== request.workerId) throw new AppError("NOT_FOUND", `session ${request.sessionId} is not one of worker ${request.workerId}'s`);
    if (owner.lease_epoch !== request.leaseEpoch || owner.session_epoch !== request.leaseEpoch) {
      throw new AppError("LEASE_CONFLICT", `lease ${request.leaseEpoch} of worker ${request.workerId} is no longer valid`);
    }
    const insert = sqlite.prepare("INSERT OR IGNORE INTO log_lines (session_id, seq, action_id, time, line) VALUES (?, ?, ?, ?, ?)");
    let through = -1;
    for (const line of request.lines) {
      insert.run(request.sessionId, line.seq, line.actionId, line.time, line.line);
      through = Math.max(through, line.seq);
    }
    return through;
  })();
  if (request.lines.length > 0) farm.events.emit("logs", request.sessionId);
  return { acknowledgedThrough: acknowledged };
}
