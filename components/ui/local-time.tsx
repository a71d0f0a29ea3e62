"use client";

import { useSyncExternalStore } from "react";
import { formatTimestamp } from "@/lib/farm/display";

const never = () => () => {};

/** False on the server and while hydrating, true after: what differs between the two renders waits for it. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/** `2024-05-01 14:03:07` in the browser's time zone. */
function localText(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * A moment in the browser's time zone, with the ISO UTC time on hover. The server does not know
 * the browser's zone, so it (and the hydrating render) shows UTC, marked so; the local time
 * replaces it right after hydration, without a mismatch.
 */
export function LocalTime({ ms }: { ms: number | null }) {
  const hydrated = useHydrated();
  if (ms === null) return <>—</>;
  const iso = new Date(ms).toISOString();
  return (
    <time dateTime={iso} title={`${iso.slice(0, 19)}Z (UTC)`}>
      {hydrated ? localText(ms) : formatTimestamp(ms)}
    </time>
  );
}
