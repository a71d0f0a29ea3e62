/**
 * Big changes (a 1,000,000-task job written, canceled, deleted) run as a series of short
 * transactions with a turn of the event loop between them, so the server keeps answering while
 * they run: better-sqlite3 is synchronous, and one long transaction holds every request.
 */

/**
 * How long one slice may hold the event loop: far under the 200 ms the server promises, so a
 * slice slowed several times over on a busy machine still keeps the promise.
 */
export const SLICE_MS = 20;

/**
 * Lets timers and I/O (other requests, worker syncs) run before going on. Two hops: an immediate
 * queued from an I/O callback (a check thread's message, a request) runs before the loop polls
 * again, so one hop alone let two slices run back to back with no request answered between.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

export type Transaction = <T>(fn: () => T) => T;

/**
 * Calls `step` (one chunk of work; false when nothing is left) inside transactions of about
 * SLICE_MS each, with `endSlice` last in each, yielding between them. The first slice runs
 * before the returned promise is first awaited, so a small change is complete at once.
 */
export async function inSlices(transaction: Transaction, step: () => boolean, endSlice?: () => void): Promise<void> {
  for (;;) {
    const more = transaction(() => {
      const started = performance.now();
      let left: boolean;
      do left = step();
      while (left && performance.now() - started < SLICE_MS);
      endSlice?.();
      return left;
    });
    if (!more) return;
    await yieldToEventLoop();
  }
}
