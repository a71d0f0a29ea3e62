/**
 * Session log lines waiting for the server. A line stays here until the server acknowledges its
 * seq, so a failed upload is simply sent again (the server ignores seqs it already stored).
 * Nothing is ever dropped for lack of room: past `highWaterMark` unacknowledged lines the
 * shipper reports itself backed up and the agent ships before it does anything else.
 */
import { MAX_LOG_LINE_CHARS, type LogsRequest } from "../../lib/farm/protocol";

export type LogLine = LogsRequest["lines"][number];

class SessionLines {
  private lines: LogLine[] = [];
  /** Index of the first line still held; lines before it are acknowledged. */
  private head = 0;

  get size(): number {
    return this.lines.length - this.head;
  }

  push(line: LogLine): void {
    this.lines.push(line);
  }

  first(max: number): LogLine[] {
    return this.lines.slice(this.head, this.head + max);
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

export class LogShipper {
  private readonly sessions = new Map<string, SessionLines>();
  private total = 0;

  constructor(private readonly highWaterMark = 200_000) {}

  add(sessionId: string, line: LogLine): void {
    let held = this.sessions.get(sessionId);
    if (!held) this.sessions.set(sessionId, (held = new SessionLines()));
    held.push(line.line.length > MAX_LOG_LINE_CHARS ? { ...line, line: line.line.slice(0, MAX_LOG_LINE_CHARS) } : line);
    this.total++;
  }

  /** The oldest unacknowledged lines of a Session, in seq order (the same ones again until acknowledged). */
  takeBatch(sessionId: string, max: number): LogLine[] {
    return this.sessions.get(sessionId)?.first(max) ?? [];
  }

  acknowledge(sessionId: string, through: number): void {
    const held = this.sessions.get(sessionId);
    if (!held) return;
    const before = held.size;
    held.acknowledge(through);
    this.total -= before - held.size;
    if (held.size === 0) this.sessions.delete(sessionId);
  }

  /** Sessions with lines to ship, oldest first. */
  sessionIds(): string[] {
    return [...this.sessions.keys()];
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
    this.total = 0;
  }
}
