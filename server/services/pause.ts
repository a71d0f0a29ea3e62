/**
 * The abortable delay of long-running loops (CONVENTIONS rule 7) and live views: waits `ms`, or
 * less when the signal aborts. The timer alone never keeps the process alive.
 */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref?.();
    signal?.addEventListener("abort", done);
  });
}
