/**
 * Farm events collapsed into wake-ups for one live view (a subscription): however many events
 * arrive while the view reads, it reads once more, not once per event; events it does not
 * `accept` never wake it. Live log follows wake on uploads; admin lists on fleet events, with a
 * settle delay and a periodic refresh (farmChanges); a worker's long poll on work to dispatch.
 */
import type { EventEmitter } from "node:events";

export interface Wakeups {
  /** Called just before a read: what was announced so far is committed, so that read sees it. */
  clear(): void;
  /** Whether an accepted event arrived since the last clear(). */
  readonly pending: boolean;
  /**
   * Resolves once an event is pending (at once if one already is) or `timeoutMs` passed: true to
   * read again, false when the view is closed (its signal aborted).
   */
  next(timeoutMs?: number): Promise<boolean>;
  close(): void;
}

export function wakeups<A extends unknown[]>(events: EventEmitter, names: readonly string[], signal: AbortSignal | undefined, accept: (...args: A) => boolean = () => true): Wakeups {
  let pending = false;
  let wake: (() => void) | null = null;
  const onEvent = (...args: unknown[]) => {
    if (!accept(...(args as A))) return;
    pending = true;
    wake?.();
  };
  const onAbort = () => wake?.();
  for (const name of names) events.on(name, onEvent);
  signal?.addEventListener("abort", onAbort);
  return {
    clear: () => void (pending = false),
    get pending() {
      return pending;
    },
    async next(timeoutMs = Number.POSITIVE_INFINITY) {
      if (!pending && !signal?.aborted) {
        await new Promise<void>((resolve) => {
          const timer = Number.isFinite(timeoutMs) ? setTimeout(done, timeoutMs) : undefined;
          function done() {
            clearTimeout(timer);
            wake = null;
            resolve();
          }
          wake = done;
        });
      }
      return !signal?.aborted;
    },
    close() {
      for (const name of names) events.off(name, onEvent);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}
