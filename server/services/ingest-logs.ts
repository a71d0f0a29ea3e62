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

/** Stores what fits of the upload (inside ingestLogs's unit of work `tx`). */
async function storeLines(tx: Tx, caller: WorkerIdentity, request: LogsRequest, caps: Caps): Promise<{ through: number; jobId: string; storedCount: number }> {
  const logs = logLinesRepository;
  const found = await logs.owner(tx, request.sessionId, caller.workerId);
  if (!found) throw new AppError("NOT_FOUND", `session ${request.sessionId} is not one of worker ${caller.workerId}'s`);
  if (found.lease_epoch !== request.leaseEpoch || found.session_epoch !== request.leaseEpoch) {
    throw new AppError("LEASE_CONFLICT", `lease ${request.leaseEpoch} of worker ${caller.workerId} is no longer valid`);
  }
  // Only a count within a line's length of its cap can have been refused before: then its marker tells.
  const closed = async (chars: number, cap: number, markerSeq: number) => chars + MAX_LOG_LINE_CHARS > cap && (await logs.has(tx, request.sessionId, markerSeq));
  const session = { chars: found.log_chars, dropped: found.log_dropped, closed: await closed(found.log_chars, caps.session, SESSION_MARKER_SEQ) };
  let through = -1;
  let storedCount = 0;
  const actions = new Map<string, ActionBudget | null>();
  const budgetOf = async (actionId: string): Promise<ActionBudget | null> => {
    if (!actions.has(actionId)) {
      const row = await logs.action(tx, actionId, request.sessionId);
      const budget = row && { id: actionId, seq: row.seq, chars: row.log_chars, before: row.log_chars, closed: await closed(row.log_chars, caps.action, actionMarkerSeq(row.seq)) };
      actions.set(actionId, budget ?? null);
    }
    return actions.get(actionId) ?? null;
  };
  const mark = async (kind: CapKind, seq: number, budget: ActionBudget | null, time: number): Promise<void> => {
    const text = capReachedMarker(kind, kind === "action" ? caps.action : caps.session);
    if (!(await logs.insert(tx, request.sessionId, found.job_id, seq, budget?.id ?? null, time, text))) return;
    session.chars += text.length;
    if (budget) budget.chars += text.length;
    storedCount++;
  };

  for (const line of request.lines) {
    through = Math.max(through, line.seq);
    // A line naming an action of another Session would show in that action's log: it counts as the Session's own.
    const budget = line.actionId === null ? null : await budgetOf(line.actionId);
    const length = line.line.length;
    const overSession = session.closed || session.chars + length > caps.session;
    if (!overSession && (budget === null || (!budget.closed && budget.chars + length <= caps.action))) {
      if (!(await logs.insert(tx, request.sessionId, found.job_id, line.seq, budget?.id ?? null, line.time, line.line))) continue;
      session.chars += length;
      if (budget) budget.chars += length;
      storedCount++;
      continue;
    }
    // Refused: unless it is a line stored before (an upload sent again), count it and mark the cap
    // once. A refused line sent again is counted again: it left nothing to recognise it by.
    if (await logs.has(tx, request.sessionId, line.seq)) continue;
    session.dropped++;
    const actionMarkerFits = budget !== null && !overSession && session.chars + capReachedMarker("action", caps.action).length <= caps.session;
    if (actionMarkerFits) {
      if (!budget.closed) await mark("action", actionMarkerSeq(budget.seq), budget, line.time);
      budget.closed = true;
    } else if (!session.closed) {
      await mark("Session", SESSION_MARKER_SEQ, budget, line.time);
      session.closed = true;
    }
  }
  for (const budget of actions.values()) if (budget && budget.chars !== budget.before) await logs.setActionChars(tx, budget.id, budget.chars);
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
