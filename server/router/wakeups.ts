/**
 * Farm events collapsed into wake-ups for one live view (a subscription): however many events
 * arrive while the view reads, it reads once more, not once per event; events it does not
 * `accept` never wake it. Live log follows wake on uploads; admin lists on fleet events, with a
 * settle delay and a periodic refresh (farmChanges); a worker's long poll on work to dispatch.
 * A `resync` (events may have been lost) wakes every view, whatever it accepts.
 */
import type { FarmEventBus, FarmEventName, FarmEvents } from "../store/events";

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

export function wakeups<K extends FarmEventName>(events: FarmEventBus, names: readonly K[], signal: AbortSignal | undefined, accept: (payload: FarmEvents[K]) => boolean = () => true): Wakeups {
  let pending = false;
  let wake: (() => void) | null = null;
  const onEvent = (payload: FarmEvents[K]) => {
    if (!accept(payload)) return;
    pending = true;
    wake?.();
  };
  const onResync = () => {
    pending = true;
    wake?.();
  };
  const onAbort = () => wake?.();
  const unsubscribes = [...names.map((name) => events.subscribe(name, onEvent)), events.subscribe("resync", onResync)];
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
      for (const unsubscribe of unsubscribes) unsubscribe();
      signal?.removeEventListener("abort", onAbort);
    },
  };
}
