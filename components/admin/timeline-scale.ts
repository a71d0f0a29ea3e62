/**
 * The worker timeline's geometry, pure: the windows offered, where a span sits on the track (as
 * percentages of the window, so rows need no measuring), and tick marks at round times.
 */
export const TIMELINE_WINDOWS = [
  { label: "15 min", ms: 15 * 60_000 },
  { label: "1 hour", ms: 3_600_000 },
  { label: "6 hours", ms: 6 * 3_600_000 },
  { label: "24 hours", ms: 24 * 3_600_000 },
] as const;

/** Narrowest a span is drawn (a 200 ms task in a day's window still shows, and can be hovered). */
const MIN_WIDTH_PERCENT = 0.25;

/** A span's left edge and width in percent of [from, to); a running span (endedAt null) reaches `now`. */
export function spanBox(startedAt: number, endedAt: number | null, from: number, to: number, now: number): { left: number; width: number } {
  const length = to - from;
  const start = Math.min(Math.max(startedAt, from), to);
  const end = Math.min(Math.max(endedAt ?? now, start), to);
  const left = ((start - from) / length) * 100;
  const width = Math.max(MIN_WIDTH_PERCENT, ((end - start) / length) * 100);
  return { left: Math.min(left, 100 - MIN_WIDTH_PERCENT), width: Math.min(width, 100 - Math.min(left, 100 - MIN_WIDTH_PERCENT)) };
}

const TICK_STEPS_MS = [60_000, 5 * 60_000, 10 * 60_000, 15 * 60_000, 30 * 60_000, 3_600_000, 2 * 3_600_000, 3 * 3_600_000, 6 * 3_600_000];

/** Ticks at round multiples of a step that gives at most `most` of them over the window. */
export function timelineTicks(from: number, to: number, most = 8): Array<{ at: number; percent: number }> {
  const step = TICK_STEPS_MS.find((s) => (to - from) / s <= most) ?? TICK_STEPS_MS[TICK_STEPS_MS.length - 1]!;
  const ticks: Array<{ at: number; percent: number }> = [];
  for (let at = Math.ceil(from / step) * step; at < to; at += step) ticks.push({ at, percent: ((at - from) / (to - from)) * 100 });
  return ticks;
}
