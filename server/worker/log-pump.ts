/**
 * The log-only upload between syncs: a live log reaches the server within LOG_UPLOAD_MS of a line
 * being printed, without a sync (so the sync rate stays what the interval and the start/end
 * reports make it). Uploads start at most once per LOG_UPLOAD_MS: a line printed after a quiet
 * spell goes at once (with whatever was printed in the same turn), a line printed sooner waits
 * for the window of the last upload to end and goes with everything printed meanwhile. A wrangler
 * watching an occasional line sees it at once; a task printing without pause costs the server
 * two uploads a second. One upload at a time: the agent's cycle waits for the one in flight
 * (`settled`) and, while it runs, ships the lines itself (`hold`).
 */
export const LOG_UPLOAD_MS = 500;

export class LogPump {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private held = false;
  /** When the last upload started (0: none yet). */
  private lastStartedAt = 0;

  constructor(
    /** Uploads what is held now; null when it may not (not enrolled, or backing off after a failure). */
    private readonly upload: () => Promise<void> | null,
    /** Whether lines are still waiting after an upload. */
    private readonly pending: () => boolean,
  ) {}

  /** A line was taken: upload it (and whatever joins it) once the last upload's window has ended. */
  lineAdded(): void {
    if (this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (this.held || this.inFlight) return;
        const started = this.upload();
        if (!started) return;
        this.lastStartedAt = Date.now();
        this.inFlight = started
          .catch(() => undefined) // the next cycle ships them again and deals with the error
          .finally(() => {
            this.inFlight = null;
            if (this.pending() && !this.held) this.lineAdded();
          });
      },
      Math.max(0, this.lastStartedAt + LOG_UPLOAD_MS - Date.now()),
    );
    this.timer.unref?.();
  }

  /** Runs `work` (a cycle, which ships logs itself) after the upload in flight, with none started meanwhile. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.held = true;
    try {
      await this.inFlight;
      return await work();
    } finally {
      this.held = false;
      // A line printed while the cycle held the log, after it shipped: its timer found the log held and ended.
      if (this.pending()) this.lineAdded();
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
