/**
 * Log lines from a worker (`POST /api/worker/logs`). Each line carries the Session's sequence
 * number, so a batch sent twice (a lost response, a retry after a server restart) is stored once.
 * The reply acknowledges only what is committed: the worker may then forget those lines.
 *
 * Caps (FarmSettings.logCapActionChars, logCapSessionChars), whatever the worker sends: a line
 * that would take its action or its Session past the cap is not stored but counted in
 * sessions.log_dropped, and the first such line leaves one marker line in its place (one per
 * action, one per Session: their seqs are negative, below any worker's, so the unique index on
 * (session, seq) keeps them single). The agent caps its side a little lower and says how much it
 * dropped, so a well-behaved worker never meets the server's cap.
 */
import { capReachedMarker, type CapKind } from "../../lib/farm/log-caps";
import { MAX_LOG_LINE_CHARS, type LogsRequest, type LogsResponse } from "../../lib/farm/protocol";
import { logLinesRepository, type NewLogLine } from "../store/log-lines";
import type { Tx } from "../store/repository";
import { checkSpeaksFor, type WorkerIdentity } from "./authenticate-worker";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";

interface Caps {
  action: number;
  session: number;
}

interface ActionBudget {
  id: string;
  seq: number;
  chars: number;
  before: number;
  /** Past its cap: its marker is stored, nothing more of it is. */
  closed: boolean;
}

const SESSION_MARKER_SEQ = -1;
const actionMarkerSeq = (actionSeq: number) => -2 - actionSeq;

/**
 * Stores what fits of the upload (inside ingestLogs's unit of work `tx`), in a few statements
 * whatever its size: one read of the Session (locked on PostgreSQL: a second upload to the same
 * Session waits for this one, so each counts what the other stored), one of the actions its lines
 * name, one of the seqs it has already (the upload's, and the markers that may be there); which
 * lines are stored is decided here, line by line in order, and they go in with one INSERT.
 */
async function storeLines(tx: Tx, caller: WorkerIdentity, request: LogsRequest, caps: Caps): Promise<{ through: number; jobId: string; storedCount: number }> {
  const logs = logLinesRepository;
  const found = await logs.owner(tx, request.sessionId, caller.workerId);
  if (!found) throw new AppError("NOT_FOUND", `session ${request.sessionId} is not one of worker ${caller.workerId}'s`);
  if (found.lease_epoch !== request.leaseEpoch || found.session_epoch !== request.leaseEpoch) {
    throw new AppError("LEASE_CONFLICT", `lease ${request.leaseEpoch} of worker ${caller.workerId} is no longer valid`);
  }
  // A line naming an action of another Session would show in that action's log: it counts as the Session's own.
  const named = new Set<string>();
  for (const line of request.lines) if (line.actionId !== null) named.add(line.actionId);
  const actions = new Map<string, ActionBudget>();
  for (const row of await logs.actions(tx, request.sessionId, [...named])) {
    actions.set(row.id, { id: row.id, seq: row.seq, chars: row.log_chars, before: row.log_chars, closed: false });
  }
  // Only a count within a line's length of its cap can have been refused before: then its marker tells.
  const mayBeClosed = (chars: number, cap: number) => chars + MAX_LOG_LINE_CHARS > cap;
  const markers: number[] = [];
  if (mayBeClosed(found.log_chars, caps.session)) markers.push(SESSION_MARKER_SEQ);
  for (const budget of actions.values()) if (mayBeClosed(budget.chars, caps.action)) markers.push(actionMarkerSeq(budget.seq));
  // The worker numbers a Session's lines 0, 1, … and uploads them in order: the span of this
  // upload's seqs holds the Session's lines of it sent before, and few others.
  let from = Infinity;
  let through = -1;
  for (const line of request.lines) {
    from = Math.min(from, line.seq);
    through = Math.max(through, line.seq);
  }
  /** The seqs the Session has a line of: those stored before (in the upload's span, and those markers), then those taken here. */
  const present = new Set(request.lines.length === 0 ? [] : await logs.storedSeqs(tx, request.sessionId, from, through, markers));
  for (const budget of actions.values()) budget.closed = present.has(actionMarkerSeq(budget.seq));
  const session = { chars: found.log_chars, dropped: found.log_dropped, closed: present.has(SESSION_MARKER_SEQ) };

  const rows: NewLogLine[] = [];
  /** Takes the line unless the Session has one of its seq. */
  const take = (seq: number, budget: ActionBudget | null, time: number, text: string): void => {
    if (present.has(seq)) return;
    present.add(seq);
    rows.push([seq, budget?.id ?? null, time, text]);
    session.chars += text.length;
    if (budget) budget.chars += text.length;
  };
  const marker = (kind: CapKind) => capReachedMarker(kind, kind === "action" ? caps.action : caps.session);
  const actionMarkerLength = marker("action").length;

  for (const line of request.lines) {
    const budget = line.actionId === null ? null : (actions.get(line.actionId) ?? null);
    const length = line.line.length;
    const overSession = session.closed || session.chars + length > caps.session;
    if (!overSession && (budget === null || (!budget.closed && budget.chars + length <= caps.action))) {
      take(line.seq, budget, line.time, line.line);
      continue;
    }
    // Refused: unless it is a line stored before (an upload sent again), count it and mark the cap
    // once. A refused line sent again is counted again: it left nothing to recognise it by.
    if (present.has(line.seq)) continue;
    session.dropped++;
    const actionMarkerFits = budget !== null && !overSession && session.chars + actionMarkerLength <= caps.session;
    if (actionMarkerFits) {
      if (!budget.closed) take(actionMarkerSeq(budget.seq), budget, line.time, marker("action"));
      budget.closed = true;
    } else if (!session.closed) {
      take(SESSION_MARKER_SEQ, budget, line.time, marker("Session"));
      session.closed = true;
    }
  }
  const storedCount = rows.length === 0 ? 0 : await logs.insertMany(tx, request.sessionId, found.job_id, rows);
  for (const budget of actions.values()) if (budget.chars !== budget.before) await logs.setActionChars(tx, budget.id, budget.chars);
  if (session.chars !== found.log_chars || session.dropped !== found.log_dropped) await logs.setSessionChars(tx, request.sessionId, session.chars, session.dropped);
  return { through, jobId: found.job_id, storedCount };
}

/** `caller`: the worker the request's credential belongs to (authenticate-worker.ts). */
export async function ingestLogs(farm: Farm, caller: WorkerIdentity, request: LogsRequest): Promise<LogsResponse> {
  checkSpeaksFor(caller, request.workerId);
  const caps = { action: farm.settings.logCapActionChars, session: farm.settings.logCapSessionChars };
  const { through, jobId, storedCount } = await farm.store.transaction((tx) => storeLines(tx, caller, request, caps));
  if (storedCount > 0) farm.events.publish(null, "logs", { sessionId: request.sessionId, jobId });
  return { acknowledgedThrough: through };
}
