/**
 * Storing a worker's log lines (server/services/ingest-logs.ts applies the caps) and the
 * per-action and per-Session character counts the caps are kept by. Uploads are the farm's most
 * frequent write: statements are prepared once per connection; run inside the caller's unit of
 * work.
 */
import type { sessionActions, sessions, workers } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

/** The Session a worker uploads to, with its worker's lease and its log counts so far. */
export type LogOwnerRow = RawPick<typeof workers, "lease_epoch"> & { session_epoch: number } & RawPick<typeof sessions, "job_id" | "log_chars" | "log_dropped">;
export type ActionLogRow = RawPick<typeof sessionActions, "seq" | "log_chars">;

export const logLinesRepository = repository((sqlite) => {
  const owner = sqlite.prepare<[string, string], LogOwnerRow>(
    `SELECT w.lease_epoch, s.lease_epoch AS session_epoch, s.job_id, s.log_chars, s.log_dropped FROM sessions s JOIN workers w ON w.id = s.worker_id
     WHERE s.id = ? AND s.worker_id = ?`,
  );
  const action = sqlite.prepare<[string, string], ActionLogRow>("SELECT seq, log_chars FROM session_actions WHERE id = ? AND session_id = ?");
  const stored = sqlite.prepare<[string, number], { one: number }>("SELECT 1 AS one FROM log_lines WHERE session_id = ? AND seq = ?");
  const insert = sqlite.prepare<[string, string, number, string | null, number, string]>("INSERT OR IGNORE INTO log_lines (session_id, job_id, seq, action_id, time, line) VALUES (?, ?, ?, ?, ?, ?)");
  const actionChars = sqlite.prepare<[number, string]>("UPDATE session_actions SET log_chars = ? WHERE id = ?");
  const sessionChars = sqlite.prepare<[number, number, string]>("UPDATE sessions SET log_chars = ?, log_dropped = ? WHERE id = ?");

  return {
    /** The Session, when it is this worker's. */
    owner: (sessionId: string, workerId: string): LogOwnerRow | undefined => owner.get(sessionId, workerId),
    /** The action, when it is one of this Session's. */
    action: (actionId: string, sessionId: string): ActionLogRow | undefined => action.get(actionId, sessionId),
    /** Whether the Session has a line of this seq. */
    has: (sessionId: string, seq: number): boolean => stored.get(sessionId, seq) !== undefined,
    /** Stores a line unless the Session has one of its seq; whether it stored it. */
    insert: (sessionId: string, jobId: string, seq: number, actionId: string | null, time: number, line: string): boolean => insert.run(sessionId, jobId, seq, actionId, time, line).changes > 0,
    setActionChars: (actionId: string, chars: number) => void actionChars.run(chars, actionId),
    setSessionChars: (sessionId: string, chars: number, dropped: number) => void sessionChars.run(chars, dropped, sessionId),
  };
});
