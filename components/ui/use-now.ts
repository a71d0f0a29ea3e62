"use client";
/**
 * The wall clock for relative times and running durations ("12 s ago", a growing bar), shared:
 * one timer per period however many components show it, running only while one of them is
 * `active`. It reads no data, so it is not polling: the data itself is pushed by subscriptions.
 */
import { useCallback, useSyncExternalStore } from "react";
import { useRenderTime } from "./render-time";

interface Ticker {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
}

const tickers = new Map<number, Ticker>();

function ticker(periodMs: number): Ticker {
  let t = tickers.get(periodMs);
  if (!t) {
    t = { now: Date.now(), listeners: new Set(), timer: null };
    tickers.set(periodMs, t);
  }
  return t;
}

function subscribe(t: Ticker, periodMs: number, listener: () => void): () => void {
  t.listeners.add(listener);
  if (!t.timer) {
    t.now = Date.now();
    t.timer = setInterval(() => {
      t.now = Date.now();
      for (const l of t.listeners) l();
    }, periodMs);
  }
  return () => {
    t.listeners.delete(listener);
    if (t.listeners.size === 0 && t.timer) {
      clearInterval(t.timer);
      t.timer = null;
    }
  };
}

/**
 * The current time in ms, re-read every `periodMs` while `active` (then frozen: nothing runs).
 * On the server and while the browser hydrates it is the page's render time (render-time.tsx),
 * so both draw the same text; React then re-renders with the browser's clock.
 */
export function useNow(active = true, periodMs = 1_000): number {
  const t = ticker(periodMs);
  const renderedAt = useRenderTime();
  const listen = useCallback((listener: () => void) => (active ? subscribe(t, periodMs, listener) : () => {}), [t, periodMs, active]);
  return useSyncExternalStore(
    listen,
    () => t.now,
    () => renderedAt ?? t.now,
  );
}
