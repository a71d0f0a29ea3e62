"use client";

import { useEffect, useRef, useState } from "react";
import { afterMs, Batcher } from "../logs/line-store";

/**
 * Collects pushed items and hands them over in one batch per window: a farm that finishes fifty
 * tasks a second costs the page one cache update (and at most one refetch) per window. The
 * window starts at the first item, so a lone change still shows within `windowMs`. The latest
 * `flush` is called, so it need not be memoized.
 */
export function useCoalesced<T>(flush: (items: T[]) => void, windowMs: number): (item: T) => void {
  const latestFlush = useRef(flush);
  useEffect(() => {
    latestFlush.current = flush;
  });
  const [batcher] = useState(() => new Batcher<T>((items) => latestFlush.current(items), afterMs(windowMs)));
  useEffect(() => () => batcher.dispose(), [batcher]);
  const [push] = useState(() => (item: T) => batcher.push(item));
  return push;
}
