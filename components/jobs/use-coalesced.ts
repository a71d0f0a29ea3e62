"use client";

import { useCallback, useEffect, useRef } from "react";

/**
 * Collects pushed items and hands them over in one batch per window: a farm that finishes fifty
 * tasks a second costs the page one cache update (and at most one refetch) per window. The
 * window starts at the first item, so a lone change still shows within `windowMs`.
 */
export function useCoalesced<T>(flush: (items: T[]) => void, windowMs: number): (item: T) => void {
  const buffer = useRef<T[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestFlush = useRef(flush);
  useEffect(() => {
    latestFlush.current = flush;
  });

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  return useCallback(
    (item: T) => {
      buffer.current.push(item);
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        const items = buffer.current;
        buffer.current = [];
        latestFlush.current(items);
      }, windowMs);
    },
    [windowMs],
  );
}
