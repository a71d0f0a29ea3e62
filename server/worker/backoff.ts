/**
 * How long the agent waits after a failed cycle: exponential with jitter (so a farm of workers
 * does not retry in lock-step after a server restart), or, when the server answered and said when
 * to come back (Retry-After: a full store), that, a little later and never sooner.
 */
export class Backoff {
  /** Failed cycles in a row. */
  private failures = 0;
  private retryAfterMs: number | null = null;

  constructor(
    private readonly options: { initialMs?: number; maxMs?: number } = {},
    private readonly random: () => number = Math.random,
  ) {}

  /** Whether the last cycle failed (log uploads between cycles wait for a good one). */
  get failing(): boolean {
    return this.failures > 0;
  }

  /** Counts a failure; returns whether it is the first of a run (the one worth telling). */
  failed(retryAfterMs: number | null): boolean {
    this.failures++;
    this.retryAfterMs = retryAfterMs;
    return this.failures === 1;
  }

  /** A cycle went through; returns whether failures came before it (the server is back). */
  succeeded(): boolean {
    const recovered = this.failures > 0;
    this.failures = 0;
    return recovered;
  }

  delayMs(): number {
    if (this.retryAfterMs !== null) return Math.round(this.retryAfterMs * (1 + 0.25 * this.random()));
    const initial = this.options.initialMs ?? 1_000;
    const max = this.options.maxMs ?? 30_000;
    const base = Math.min(max, initial * 2 ** Math.min(30, Math.max(0, this.failures - 1)));
    return Math.round(base * (0.75 + 0.25 * this.random()));
  }
}
