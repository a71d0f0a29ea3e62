"use client";

import { ago, formatTimestamp } from "@/lib/farm/display";
import { useNow } from "@/components/ui/use-now";

/** "12 s ago", kept current; the exact time on hover and for assistive technology. */
export function Ago({ at }: { at: number | null }) {
  const now = useNow();
  if (at === null) return <span className="muted">never</span>;
  return (
    <time dateTime={new Date(at).toISOString()} title={formatTimestamp(at)} suppressHydrationWarning>
      {ago(at, now)}
    </time>
  );
}
