/**
 * Big changes (a 1,000,000-task job written, canceled, deleted) run as a series of short units
 * of work with a turn of the event loop between them, so the server keeps answering while they
 * run: on SQLite the statements are synchronous and a unit holds the one connection, so one long
 * unit would hold every request (and on PostgreSQL, its locks).
 */
import type { ReadTx, Tx } from "../store/repository";

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

/** Opens one unit of work per call: `(fn) => farm.store.transaction(fn)`, or `farm.store.read(fn)` for a walk that only reads. */
export type Transaction<X extends ReadTx> = <T>(fn: (tx: X) => Promise<T>) => Promise<T>;

export interface SliceHooks<X extends ReadTx> {
  /**
   * Runs first in each slice's unit: where a caller that keeps its progress in variables notes
   * it, to put it back with `tx.onRollback` (on PostgreSQL a unit that deadlocks runs again from
   * the start, and must redo the same chunks, not the next ones).
   */
  start?: (tx: X) => void;
  /** Runs last in each slice's unit (settling what the slice changed). */
  end?: (tx: X) => Promise<void>;
}

/**
 * Calls `step` (one chunk of work; false when nothing is left) inside units of about SLICE_MS
 * each, one unit per slice, yielding between them. The first slice's unit is opened before the
 * returned promise is first awaited (on SQLite it takes the connection at once when it is free).
 */
export async function inSlices<X extends ReadTx = Tx>(transaction: Transaction<X>, step: (tx: X) => Promise<boolean>, hooks: SliceHooks<X> = {}): Promise<void> {
  const { start, end } = hooks;
  for (;;) {
    const more = await transaction(async (tx) => {
      start?.(tx);
      const started = performance.now();
      let left: boolean;
      do left = await step(tx);
      while (left && performance.now() - started < SLICE_MS);
      if (end) await end(tx);
      return left;
    });
    if (!more) return;
    await yieldToEventLoop();
  }
}
