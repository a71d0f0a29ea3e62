/**
 * Wakes idle workers when a delayed retry comes due. An idle worker's sync is held by the server
 * until the farm changes (worker-api.ts longPollSync, up to 20 s); a task whose retry time passes
 * changes nothing in the database, so without this its retry would wait for the next timeout.
 * In memory only: after a restart the held syncs time out and find the task anyway.
 */
export class RetryAlarm {
  /** Due times not yet rung, earliest first (few: one per failed attempt waiting). */
  private due: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(
    private readonly now: () => number,
    private readonly ring: () => void,
  ) {}

  /** Ring at `at` (a farm time, from `now`). */
  at(at: number): void {
    if (this.due.includes(at)) return;
    this.due.push(at);
    this.due.sort((a, b) => a - b);
    this.arm();
  }

  private arm(): void {
    const next = this.due[0];
    if (next === undefined || next >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = next;
    // A little after the due time, so the dispatcher's `retry_at <= now` holds when the workers sync.
    this.timer = setTimeout(() => this.fire(), Math.max(0, next - this.now()) + 50);
    this.timer.unref(); // never keeps a process (or a test run) alive
  }

  private fire(): void {
    this.timer = null;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    const rung = this.due.filter((t) => t <= now).length;
    this.due = this.due.slice(rung);
    if (rung > 0) this.ring();
    this.arm();
  }
}
