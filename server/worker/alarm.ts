/**
 * The agent's sleep between syncs (CONVENTIONS rule 7): it ends after the interval, at once
 * when the signal aborts, early when something urgent happened (`wake()`: an action or Session
 * ended), or within a short window when something the server should hear soon happened
 * (`wakeWithin(ms)`: an action started). A wake that comes while the agent is busy is kept for
 * its next sleep, so an action ending or starting mid-sync is not missed.
 *
 * The window is what keeps the batching: an action that starts and ends within it is reported
 * in one sync (its RUNNING folded into its end), and the starts of several Sessions share one.
 */
export class Alarm {
  private pending = false;
  /** The time (performance.now()) by which a sleep must end, asked for by wakeWithin. */
  private wakeBy: number | null = null;
  private sleeping: { ring: () => void; reschedule: () => void } | null = null;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  wake(): void {
    if (this.sleeping) this.sleeping.ring();
    else this.pending = true;
  }

  /** Ends the current sleep (or the next one) no later than `ms` from now. */
  wakeWithin(ms: number): void {
    const at = this.clock() + ms;
    if (this.wakeBy === null || at < this.wakeBy) this.wakeBy = at;
    this.sleeping?.reschedule();
  }

  /** `wakeable: false` (a backoff after a failure) only ends early on abort, keeping any wake for later. */
  sleep(ms: number, signal: AbortSignal, { wakeable = true }: { wakeable?: boolean } = {}): Promise<void> {
    if (signal.aborted || (wakeable && this.pending)) {
      if (wakeable) this.woken();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const end = this.clock() + ms;
      let timer: NodeJS.Timeout | null = null;
      const deadline = () => (wakeable && this.wakeBy !== null ? Math.min(end, this.wakeBy) : end);
      const arm = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(done, Math.max(0, deadline() - this.clock()));
      };
      const me = {
        ring: () => {
          this.pending = false;
          done();
        },
        reschedule: arm,
      };
      const done = () => {
        if (timer) clearTimeout(timer);
        signal.removeEventListener("abort", done);
        if (this.sleeping === me) this.sleeping = null;
        // The sync that follows a wakeable sleep carries everything asked for so far.
        if (wakeable) this.woken();
        resolve();
      };
      arm();
      signal.addEventListener("abort", done, { once: true });
      if (wakeable) this.sleeping = me;
    });
  }

  private woken(): void {
    this.pending = false;
    this.wakeBy = null;
  }
}
