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
import { logLinesRepository } from "../store/log-lines";
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

type LogLines = ReturnType<typeof logLinesRepository>;

/** Stores what fits of the upload (run inside a unit of work: ingestLogs). */
function storeLines(logs: LogLines, caller: WorkerIdentity, request: LogsRequest, caps: Caps): { through: number; jobId: string; storedCount: number } {
  const found = logs.owner(request.sessionId, caller.workerId);
  if (!found) throw new AppError("NOT_FOUND", `session ${request.sessionId} is not one of worker ${caller.workerId}'s`);
  if (found.lease_epoch !== request.leaseEpoch || found.session_epoch !== request.leaseEpoch) {
    throw new AppError("LEASE_CONFLICT", `lease ${request.leaseEpoch} of worker ${caller.workerId} is no longer valid`);
  }
  // Only a count within a line's length of its cap can have been refused before: then its marker tells.
  const closed = (chars: number, cap: number, markerSeq: number) => chars + MAX_LOG_LINE_CHARS > cap && logs.has(request.sessionId, markerSeq);
  const session = { chars: found.log_chars, dropped: found.log_dropped, closed: closed(found.log_chars, caps.session, SESSION_MARKER_SEQ) };
  let through = -1;
  let storedCount = 0;
  const actions = new Map<string, ActionBudget | null>();
  const budgetOf = (actionId: string): ActionBudget | null => {
    if (!actions.has(actionId)) {
      const row = logs.action(actionId, request.sessionId);
      const budget = row && { id: actionId, seq: row.seq, chars: row.log_chars, before: row.log_chars, closed: closed(row.log_chars, caps.action, actionMarkerSeq(row.seq)) };
      actions.set(actionId, budget ?? null);
    }
    return actions.get(actionId) ?? null;
  };
  const mark = (kind: CapKind, seq: number, budget: ActionBudget | null, time: number): void => {
    const text = capReachedMarker(kind, kind === "action" ? caps.action : caps.session);
    if (!logs.insert(request.sessionId, found.job_id, seq, budget?.id ?? null, time, text)) return;
    session.chars += text.length;
    if (budget) budget.chars += text.length;
    storedCount++;
  };

  for (const line of request.lines) {
    through = Math.max(through, line.seq);
    // A line naming an action of another Session would show in that action's log: it counts as the Session's own.
    const budget = line.actionId === null ? null : budgetOf(line.actionId);
    const length = line.line.length;
    const overSession = session.closed || session.chars + length > caps.session;
    if (!overSession && (budget === null || (!budget.closed && budget.chars + length <= caps.action))) {
      if (!logs.insert(request.sessionId, found.job_id, line.seq, budget?.id ?? null, line.time, line.line)) continue;
      session.chars += length;
      if (budget) budget.chars += length;
      storedCount++;
      continue;
    }
    // Refused: unless it is a line stored before (an upload sent again), count it and mark the cap
    // once. A refused line sent again is counted again: it left nothing to recognise it by.
    if (logs.has(request.sessionId, line.seq)) continue;
    session.dropped++;
    const actionMarkerFits = budget !== null && !overSession && session.chars + capReachedMarker("action", caps.action).length <= caps.session;
    if (actionMarkerFits) {
      if (!budget.closed) mark("action", actionMarkerSeq(budget.seq), budget, line.time);
      budget.closed = true;
    } else if (!session.closed) {
      mark("Session", SESSION_MARKER_SEQ, budget, line.time);
      session.closed = true;
    }
  }
  for (const budget of actions.values()) if (budget && budget.chars !== budget.before) logs.setActionChars(budget.id, budget.chars);
  if (session.chars !== found.log_chars || session.dropped !== found.log_dropped) logs.setSessionChars(request.sessionId, session.chars, session.dropped);
  return { through, jobId: found.job_id, storedCount };
}

/** `caller`: the worker the request's credential belongs to (authenticate-worker.ts). */
export function ingestLogs(farm: Farm, caller: WorkerIdentity, request: LogsRequest): LogsResponse {
  checkSpeaksFor(caller, request.workerId);
  const caps = { action: farm.settings.logCapActionChars, session: farm.settings.logCapSessionChars };
  const logs = logLinesRepository(farm.store);
  const { through, jobId, storedCount } = farm.store.transaction(() => storeLines(logs, caller, request, caps));
  if (storedCount > 0) farm.events.publish("logs", { sessionId: request.sessionId, jobId });
  return { acknowledgedThrough: through };
}
