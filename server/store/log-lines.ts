/**
 * Storing a worker's log lines (server/services/ingest-logs.ts applies the caps) and the
 * per-action and per-Session character counts the caps are kept by. Uploads are the farm's most
 * frequent write: a few named statements per upload whatever its size (the lines go in as one
 * JSON array bound as text, unpacked by the engine), prepared once per connection; run inside
 * the caller's unit of work.
 */
import type { RunResult } from "./engine/engine";
import type { sessionActions, sessions, workers } from "../db/schema";
import { perEngine, statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

/** The Session a worker uploads to, with its worker's lease and its log counts so far. */
export type LogOwnerRow = RawPick<typeof workers, "lease_epoch"> & { session_epoch: number } & RawPick<typeof sessions, "job_id" | "log_chars" | "log_dropped">;
export type ActionLogRow = RawPick<typeof sessionActions, "id" | "seq" | "log_chars">;
/** A line to store: its seq, its action (one of the Session's, or null), its time and its text. */
export type NewLogLine = readonly [seq: number, actionId: string | null, time: number, line: string];

// On PostgreSQL the Session row stays locked until the unit ends, so two uploads to one Session
// (a worker retrying one whose answer it did not get) take turns: each counts what the other
// stored. FOR NO KEY UPDATE is the lock the unit's UPDATE of the counts takes anyway, only taken
// first; it does not hold up inserts that reference the Session (their foreign key checks take
// FOR KEY SHARE), nor the worker's row (OF s). SQLite's units take turns on its one connection.
const OWNER = perEngine((d) =>
  statement<LogOwnerRow>(
    `log-lines.owner@${d.engine}`,
    `SELECT w.lease_epoch, s.lease_epoch AS session_epoch, s.job_id, s.log_chars, s.log_dropped FROM sessions s JOIN workers w ON w.id = s.worker_id
   WHERE s.id = ? AND s.worker_id = ?${d.engine === "postgres" ? " FOR NO KEY UPDATE OF s" : ""}`,
  ),
);
const ACTIONS = perEngine((d) =>
  statement<ActionLogRow>(`log-lines.actions@${d.engine}`, `SELECT id, seq, log_chars FROM session_actions WHERE session_id = ? AND id IN ${d.jsonValues("?", "text")}`),
);
// Two ranges of the unique index (session, seq): the upload's seqs (a worker numbers its lines
// 0, 1, … and uploads them in order, so this is the upload's lines sent before), and the markers'.
const STORED_SEQS = statement<{ seq: number }>(
  "log-lines.storedSeqs",
  "SELECT seq FROM log_lines WHERE session_id = ? AND seq BETWEEN ? AND ? UNION ALL SELECT seq FROM log_lines WHERE session_id = ? AND seq BETWEEN ? AND ?",
);
// PostgreSQL numbers a line (log_lines.id, a sequence) when its upload inserts it, not when the
// upload commits: two uploads to two Sessions of one job may commit out of id order, and a reader
// of the whole job's lines after an id (`loom job logs --follow`) would step over the lines of the
// one that committed last. So uploads take the job's log lock shared as they insert (they do
// not wait for each other), and such a reader takes it exclusively for its read: it waits for the
// uploads in flight and holds new ones back until it has read, and every line it did not see gets
// a larger id than every line it saw. One Session's uploads take turns on its row (OWNER), so a
// reader of one Session needs no lock. The two-key form keeps these apart from leader.ts's lock.
const JOB_LOG_LOCK_SPACE = 0x4c6f67; // "Log"
const JOB_LOG_EXCLUSIVE = statement("log-lines.jobLogExclusive", `SELECT pg_advisory_xact_lock(${JOB_LOG_LOCK_SPACE}, hashtext(CAST(? AS text))) AS locked`);
// Each element is [seq, actionId, time, line]. SQLite needs the WHERE before an upsert on INSERT … SELECT.
const INSERT_MANY = perEngine((d) =>
  statement(
    `log-lines.insertMany@${d.engine}`,
    d.engine === "sqlite"
      ? `INSERT INTO log_lines (session_id, job_id, seq, action_id, time, line)
   SELECT ?, ?, value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?) WHERE true ON CONFLICT DO NOTHING`
      : // The job's log lock, shared (JOB_LOG_LOCK_SPACE), is taken before any line is numbered: no row comes out of the join before it.
        `WITH held AS (SELECT pg_advisory_xact_lock_shared(${JOB_LOG_LOCK_SPACE}, hashtext(CAST(? AS text))) AS locked)
   INSERT INTO log_lines (session_id, job_id, seq, action_id, time, line)
   SELECT CAST(? AS text), CAST(? AS text), CAST(e.value ->> 0 AS bigint), e.value ->> 1, CAST(e.value ->> 2 AS bigint), e.value ->> 3
   FROM held CROSS JOIN json_array_elements(CAST(? AS json)) AS e(value) ON CONFLICT DO NOTHING`,
  ),
);
const ACTION_CHARS = statement("log-lines.setActionChars", "UPDATE session_actions SET log_chars = ? WHERE id = ?");
const SESSION_CHARS = statement("log-lines.setSessionChars", "UPDATE sessions SET log_chars = ?, log_dropped = ? WHERE id = ?");

/** Lines per INSERT: a whole upload (the protocol's most). */
const INSERT_CHUNK = 5_000;

// JSON.stringify writes a lone surrogate (not text a worker's UTF-8 decoder makes, but a request
// may carry one) as an escape PostgreSQL's json refuses; bound as text it became U+FFFD, as it does here.
const LONE_SURROGATE = /\p{Cs}/gu;
function rowsJson(tx: Tx, rows: readonly NewLogLine[]): string {
  const json = JSON.stringify(rows);
  if (tx.engine === "sqlite" || !json.includes("\\ud")) return json;
  return JSON.stringify(rows.map(([seq, actionId, time, line]) => [seq, actionId, time, line.replace(LONE_SURROGATE, "\ufffd")]));
}

export const logLinesRepository = {
  /** The Session, when it is this worker's; on PostgreSQL its row stays locked until the unit ends. */
  owner: (tx: Tx, sessionId: string, workerId: string): Promise<LogOwnerRow | undefined> => tx.get(OWNER[tx.engine], [sessionId, workerId]),
  /** Those of the actions that are this Session's. */
  actions: (tx: ReadTx, sessionId: string, actionIds: readonly string[]): Promise<ActionLogRow[]> =>
    actionIds.length === 0 ? Promise.resolve([]) : tx.all(ACTIONS[tx.engine], [sessionId, JSON.stringify(actionIds)]),
  /** The seqs the Session has a line of between `from` and `to`, and among `markers` (negative seqs); only those of the markers. */
  storedSeqs: async (tx: ReadTx, sessionId: string, from: number, to: number, markers: readonly number[]): Promise<number[]> => {
    const [markersFrom, markersTo] = markers.length === 0 ? [0, -1] : [Math.min(...markers), Math.max(...markers)];
    const wanted = new Set(markers);
    const seqs = (await tx.all(STORED_SEQS, [sessionId, from, to, sessionId, markersFrom, markersTo])).map((row) => row.seq);
    return seqs.filter((seq) => seq >= 0 || wanted.has(seq));
  },
  /** Stores the lines whose seq the Session has no line of yet; how many it stored. */
  insertMany: async (tx: Tx, sessionId: string, jobId: string, lines: readonly NewLogLine[]): Promise<number> => {
    let stored = 0;
    for (let from = 0; from < lines.length; from += INSERT_CHUNK) {
      const chunk = from === 0 && lines.length <= INSERT_CHUNK ? lines : lines.slice(from, from + INSERT_CHUNK);
      const values = [sessionId, jobId, rowsJson(tx, chunk)];
      stored += (await tx.run(INSERT_MANY[tx.engine], tx.engine === "postgres" ? [jobId, ...values] : values)).changes;
    }
    return stored;
  },
  /**
   * Before reading a whole job's lines after an id on PostgreSQL, in a read-committed unit: waits
   * for the job's uploads in flight and holds new ones back until the unit ends (JOB_LOG_LOCK_SPACE).
   */
  holdJobUploads: async (tx: Tx, jobId: string): Promise<void> => {
    if (tx.engine === "postgres") await tx.get(JOB_LOG_EXCLUSIVE, [jobId]);
  },
  setActionChars: (tx: Tx, actionId: string, chars: number): Promise<RunResult> => tx.run(ACTION_CHARS, [chars, actionId]),
  setSessionChars: (tx: Tx, sessionId: string, chars: number, dropped: number): Promise<RunResult> => tx.run(SESSION_CHARS, [chars, dropped, sessionId]),
};
