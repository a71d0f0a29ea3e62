/**
 * Session log lines waiting for the server. A line stays here until the server acknowledges its
 * seq, so a failed upload is simply sent again (the server ignores seqs it already stored). Past
 * `highWaterMark` unacknowledged lines the shipper reports itself backed up and the agent ships
 * before it does anything else.
 *
 * The log caps (RegisterResponse.logLimits) bound what it holds whatever a task prints: past an
 * action's cap, or its Session's, the action's lines are only counted, and when the action ends
 * one marker line says how many were dropped. The shipper numbers the lines itself (seq 0, 1, …
 * per Session, in the order they came), so dropped lines leave no gap and the marker takes the
 * next number. It stops a little below each cap (lib/farm/log-caps.ts markerRoom), so its
 * markers fit under the server's caps too.
 */
import { droppedLinesMarker, markerRoom, type CapKind } from "../../lib/farm/log-caps";
import { MAX_LOG_LINE_CHARS, type LogLimits, type LogsRequest } from "../../lib/farm/protocol";
import { countWithin } from "./body-budget";

export type LogLine = LogsRequest["lines"][number];

/** No caps until the server gives them (its own defaults are 64 Mi and 256 Mi characters). */
const UNLIMITED: LogLimits = { actionChars: Number.MAX_SAFE_INTEGER, sessionChars: Number.MAX_SAFE_INTEGER };

class SessionLines {
  private lines: LogLine[] = [];
  /** Index of the first line still held; lines before it are acknowledged. */
  private head = 0;
  /** The seq of the next line. */
  next = 0;
  /** Characters taken for this Session (held or shipped). */
  chars = 0;
  /** Lines of this Session dropped for its cap, whatever their action. */
  capped = false;

  get size(): number {
    return this.lines.length - this.head;
  }

  push(line: LogLine): void {
    this.lines.push(line);
  }

  /** The oldest held lines: at most `max` of them and, past the first, at most `maxBytes` of JSON. */
  first(max: number, maxBytes: number): LogLine[] {
    return this.lines.slice(this.head, this.head + countWithin(this.lines, max, maxBytes, this.head));
  }

  /** Drops every line with seq ≤ through (lines are held in seq order). */
  acknowledge(through: number): void {
    while (this.head < this.lines.length && (this.lines[this.head] as LogLine).seq <= through) this.head++;
    // Compact now and then instead of shifting the array on every acknowledgement.
    if (this.head > 1024 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.head = 0;
    }
  }
}

interface ActionLines {
  sessionId: string;
  chars: number;
  /** Why its lines are dropped, once they are. */
  capped: CapKind | null;
  droppedLines: number;
  droppedChars: number;
  lastTime: number;
}

export class LogShipper {
  private readonly sessions = new Map<string, SessionLines>();
  private readonly actions = new Map<string, ActionLines>();
  private limits: LogLimits = UNLIMITED;
  private total = 0;

  /** Called when a line is taken to ship (the agent uploads it soon, without waiting for a sync). */
  onLine: (() => void) | null = null;

  constructor(private readonly highWaterMark = 200_000) {}

  /** The server's caps, from its registration answer. */
  setLimits(limits: LogLimits): void {
    this.limits = limits;
  }

  /** Takes a line of the Session (its seq is the shipper's to give); past a cap it is only counted. */
  add(sessionId: string, line: LogLine): void {
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = new SessionLines()));
    const text = line.line.length > MAX_LOG_LINE_CHARS ? line.line.slice(0, MAX_LOG_LINE_CHARS) : line.line;
    const action = line.actionId === null ? null : this.action(sessionId, line.actionId);
    const over = this.over(session, action, text.length);
    if (over) {
      if (over === "Session") session.capped = true;
      if (action) {
        action.capped ??= over;
        action.droppedLines++;
        action.droppedChars += text.length;
        action.lastTime = line.time;
      }
      return;
    }
    session.chars += text.length;
    if (action) action.chars += text.length;
    this.push(session, { ...line, seq: session.next++, line: text });
  }

  /** The action's final update was made: says what it dropped, if anything. */
  actionEnded(actionId: string): void {
    const action = this.actions.get(actionId);
    this.actions.delete(actionId);
    const session = action && this.sessions.get(action.sessionId);
    if (!action?.capped || !session) return;
    const cap = action.capped === "action" ? this.limits.actionChars : this.limits.sessionChars;
    const text = droppedLinesMarker(action.droppedLines, action.droppedChars, action.capped, cap);
    // After the Session's cap, markers use its room; when that is spent too, the count is all that is left.
    if (session.chars + text.length > this.limits.sessionChars) return;
    session.chars += text.length;
    this.push(session, { seq: session.next++, actionId, time: action.lastTime, line: text });
  }

  /** The oldest unacknowledged lines of a Session, in seq order (the same ones again until acknowledged). */
  takeBatch(sessionId: string, max: number, maxBytes = Number.POSITIVE_INFINITY): LogLine[] {
    return this.sessions.get(sessionId)?.first(max, maxBytes) ?? [];
  }

  acknowledge(sessionId: string, through: number): void {
    const held = this.sessions.get(sessionId);
    if (!held) return;
    const before = held.size;
    held.acknowledge(through);
    this.total -= before - held.size;
  }

  /** Forgets the counts of Sessions that are over (not in `held`) and have nothing left to ship. */
  retain(held: readonly string[]): void {
    const keep = new Set(held);
    for (const [sessionId, session] of this.sessions) if (!keep.has(sessionId) && session.size === 0) this.sessions.delete(sessionId);
    for (const [actionId, action] of this.actions) if (!this.sessions.has(action.sessionId)) this.actions.delete(actionId);
  }

  /** Sessions with lines to ship, oldest first. */
  sessionIds(): string[] {
    return [...this.sessions].filter(([, s]) => s.size > 0).map(([id]) => id);
  }

  get pending(): number {
    return this.total;
  }

  isBackedUp(): boolean {
    return this.total > this.highWaterMark;
  }

  /** Forgets lines the server will never take (a lease the server fenced off). */
  clear(): void {
    this.sessions.clear();
    this.actions.clear();
    this.total = 0;
  }

  private action(sessionId: string, actionId: string): ActionLines {
    let action = this.actions.get(actionId);
    if (!action) this.actions.set(actionId, (action = { sessionId, chars: 0, capped: null, droppedLines: 0, droppedChars: 0, lastTime: 0 }));
    return action;
  }

  /** Which cap a line of this length would pass (the Session's first), or null when it fits. */
  private over(session: SessionLines, action: ActionLines | null, length: number): CapKind | null {
    const { actionChars, sessionChars } = this.limits;
    if (session.capped || session.chars + length > sessionChars - markerRoom("Session", sessionChars)) return "Session";
    if (action && (action.capped || action.chars + length > actionChars - markerRoom("action", actionChars))) return action.capped ?? "action";
    return null;
  }

  private push(session: SessionLines, line: LogLine): void {
    session.push(line);
    this.total++;
    this.onLine?.();
  }
}
