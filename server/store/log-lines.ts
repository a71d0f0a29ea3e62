/**
 * Storing a worker's log lines (server/services/ingest-logs.ts applies the caps) and the
 * per-action and per-Session character counts the caps are kept by. Uploads are the farm's most
 * frequent write: named statements, prepared once per connection; run inside the caller's unit
 * of work.
 */
import type { RunResult } from "./engine/engine";
import type { sessionActions, sessions, workers } from "../db/schema";
import { statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

/** The Session a worker uploads to, with its worker's lease and its log counts so far. */
export type LogOwnerRow = RawPick<typeof workers, "lease_epoch"> & { session_epoch: number } & RawPick<typeof sessions, "job_id" | "log_chars" | "log_dropped">;
export type ActionLogRow = RawPick<typeof sessionActions, "seq" | "log_chars">;

const OWNER = statement<LogOwnerRow>(
  "log-lines.owner",
  `SELECT w.lease_epoch, s.lease_epoch AS session_epoch, s.job_id, s.log_chars, s.log_dropped FROM sessions s JOIN workers w ON w.id = s.worker_id
   WHERE s.id = ? AND s.worker_id = ?`,
);
const ACTION = statement<ActionLogRow>("log-lines.action", "SELECT seq, log_chars FROM session_actions WHERE id = ? AND session_id = ?");
const STORED = statement<{ one: number }>("log-lines.has", "SELECT 1 AS one FROM log_lines WHERE session_id = ? AND seq = ?");
const INSERT = statement("log-lines.insert", "INSERT OR IGNORE INTO log_lines (session_id, job_id, seq, action_id, time, line) VALUES (?, ?, ?, ?, ?, ?)");
const ACTION_CHARS = statement("log-lines.setActionChars", "UPDATE session_actions SET log_chars = ? WHERE id = ?");
const SESSION_CHARS = statement("log-lines.setSessionChars", "UPDATE sessions SET log_chars = ?, log_dropped = ? WHERE id = ?");

export const logLinesRepository = {
  /** The Session, when it is this worker's. */
  owner: (tx: ReadTx, sessionId: string, workerId: string): Promise<LogOwnerRow | undefined> => tx.get(OWNER, [sessionId, workerId]),
  /** The action, when it is one of this Session's. */
  action: (tx: ReadTx, actionId: string, sessionId: string): Promise<ActionLogRow | undefined> => tx.get(ACTION, [actionId, sessionId]),
  /** Whether the Session has a line of this seq. */
  has: async (tx: ReadTx, sessionId: string, seq: number): Promise<boolean> => (await tx.get(STORED, [sessionId, seq])) !== undefined,
  /** Stores a line unless the Session has one of its seq; whether it stored it. */
  insert: async (tx: Tx, sessionId: string, jobId: string, seq: number, actionId: string | null, time: number, line: string): Promise<boolean> =>
    (await tx.run(INSERT, [sessionId, jobId, seq, actionId, time, line])).changes > 0,
  setActionChars: (tx: Tx, actionId: string, chars: number): Promise<RunResult> => tx.run(ACTION_CHARS, [chars, actionId]),
  setSessionChars: (tx: Tx, sessionId: string, chars: number, dropped: number): Promise<RunResult> => tx.run(SESSION_CHARS, [chars, dropped, sessionId]),
};
