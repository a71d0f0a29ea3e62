/**
 * When a live admin view should read its snapshot again: at once when it opens, then after any of
 * the named farm events. A burst (a pool drained, many workers going idle in one group commit) is
 * read once: the view waits `settleMs` after the first event and takes all that came meanwhile.
 * It also wakes every `refreshMs` without an event, for what changes without one: heartbeats
 * (thousands a second on a big farm, so never events) and the clock that slides a chart's window.
 */
import type { EventEmitter } from "node:events";

export interface ChangeOptions {
  signal: AbortSignal | undefined;
  settleMs: number;
  refreshMs: number;
}

export async function* farmChanges(events: EventEmitter, names: readonly string[], options: ChangeOptions): AsyncGenerator<void> {
  const { signal } = options;
  let pending = false;
  let wake: (() => void) | null = null;
  const onEvent = () => {
    pending = true;
    wake?.();
  };
  const onAbort = () => wake?.();
  for (const name of names) events.on(name, onEvent);
  signal?.addEventListener("abort", onAbort);
  const sleep = (ms: number, untilEvent: boolean) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = untilEvent ? done : () => signal?.aborted && done();
      if (signal?.aborted) done();
    });
  try {
    while (!signal?.aborted) {
      pending = false;
      yield;
      if (!pending) await sleep(options.refreshMs, true);
      if (pending && !signal?.aborted) await sleep(options.settleMs, false);
    }
  } finally {
    for (const name of names) events.off(name, onEvent);
    signal?.removeEventListener("abort", onAbort);
  }
}
