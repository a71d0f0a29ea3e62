/**
 * When a live admin view should read its snapshot again: at once when it opens, then after any of
 * the named farm events. A burst (a pool drained, many workers going idle in one group commit) is
 * read once: the view waits `settleMs` after the first event and takes all that came meanwhile.
 * It also wakes every `refreshMs` without an event, for what changes without one: heartbeats
 * (thousands a second on a big farm, so never events) and the clock that slides a chart's window.
 */
import { pause } from "../services/pause";
import type { FarmEventBus, FarmEventName } from "../store/events";
import { wakeups } from "./wakeups";

export interface ChangeOptions {
  signal: AbortSignal | undefined;
  settleMs: number;
  refreshMs: number;
}

export async function* farmChanges(events: FarmEventBus, names: readonly FarmEventName[], options: ChangeOptions): AsyncGenerator<void> {
  const { signal } = options;
  const changes = wakeups(events, names, signal);
  try {
    while (!signal?.aborted) {
      changes.clear();
      yield;
      if (!(await changes.next(options.refreshMs))) break;
      if (changes.pending) await pause(options.settleMs, signal);
    }
  } finally {
    changes.close();
  }
}
