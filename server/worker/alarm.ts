/**
 * The agent's sleep between syncs (CONVENTIONS rule 7): it ends after the interval, at once
 * when the signal aborts, or early when something urgent happened (`wake()`); a wake that comes
 * while the agent is busy is kept for its next sleep, so an action ending mid-sync is not missed.
 */
export class Alarm {
  private pending = false;
  private ring: (() => void) | null = null;

  wake(): void {
    if (this.ring) this.ring();
    else this.pending = true;
  }

  /** `wakeable: false` (a backoff after a failure) only ends early on abort, keeping a wake for later. */
  sleep(ms: number, signal: AbortSignal, { wakeable = true }: { wakeable?: boolean } = {}): Promise<void> {
    if (signal.aborted || (wakeable && this.pending)) {
      if (wakeable) this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const ring = () => {
        this.pending = false;
        done();
      };
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        if (this.ring === ring) this.ring = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      if (wakeable) this.ring = ring;
    });
  }
}
