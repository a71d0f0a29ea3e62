/**
 * The finished-tasks chart as numbers: a rounded scale, one stacked bar per minute (succeeded
 * from the baseline, failed above), and the sentence that says the same for assistive
 * technology. Pure, so the SVG component only draws.
 */

export interface MinuteCount {
  start: number;
  succeeded: number;
  failed: number;
}

export interface BarGeometry {
  start: number;
  x: number;
  width: number;
  /** Top and height of each part, in chart units (y grows downwards, as in SVG). */
  succeeded: { y: number; height: number };
  failed: { y: number; height: number };
}

/** The smallest 1, 2 or 5 × 10^k at or above `n` (at least 1): a scale people read at a glance. */
export function niceCeiling(n: number): number {
  if (!(n > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= n) return step * magnitude;
  return 10 * magnitude;
}

export function chartBars(minutes: readonly MinuteCount[], size: { width: number; height: number; gap: number }): { max: number; bars: BarGeometry[] } {
  const max = niceCeiling(Math.max(0, ...minutes.map((m) => m.succeeded + m.failed)));
  const slot = minutes.length > 0 ? size.width / minutes.length : 0;
  const scale = size.height / max;
  const bars = minutes.map((m, i) => {
    const succeeded = m.succeeded * scale;
    const failed = m.failed * scale;
    return {
      start: m.start,
      x: i * slot + size.gap / 2,
      width: Math.max(0, slot - size.gap),
      succeeded: { y: size.height - succeeded, height: succeeded },
      failed: { y: size.height - succeeded - failed, height: failed },
    };
  });
  return { max, bars };
}

/** `14:05 UTC`: the same in the server's render and the browser's, wherever either is. */
export function minuteLabel(start: number): string {
  return `${new Date(start).toISOString().slice(11, 16)} UTC`;
}

export function chartSummary(minutes: readonly MinuteCount[]): string {
  const total = minutes.reduce((sum, m) => sum + m.succeeded + m.failed, 0);
  const failed = minutes.reduce((sum, m) => sum + m.failed, 0);
  const span = `the last ${minutes.length} minute${minutes.length === 1 ? "" : "s"}`;
  if (total === 0) return `No task finished in ${span}.`;
  const busiest = minutes.reduce((best, m) => (m.succeeded + m.failed > best.succeeded + best.failed ? m : best));
  const peak = busiest.succeeded + busiest.failed;
  return `${total} task${total === 1 ? "" : "s"} finished in ${span} (${failed} failed); the busiest minute, ${minuteLabel(busiest.start)}, had ${peak}.`;
}
