/** A status as a coloured badge, and a task-count roll-up as a segmented bar with its legend. */
import { barSegments, outcomeSummary, STATUS_TONES, statusLabel, toneOf } from "@/lib/farm/display";
import type { StatusCounts } from "@/lib/farm/statuses";

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge tone-${toneOf(status)}`}>{statusLabel(status)}</span>;
}

/** Per-status counts as one bar; the accessible name says the same in words. */
export function CountsBar({ counts, label }: { counts: StatusCounts; label?: string }) {
  const segments = barSegments(counts);
  const words = segments.map((s) => `${s.count} ${statusLabel(s.status).toLowerCase()}`).join(", ") || "no tasks";
  return (
    <div className="counts-bar" role="img" aria-label={`${label ? `${label}: ` : ""}${outcomeSummary(counts).text}; ${words}`} title={words}>
      {segments.map((s) => (
        <span key={s.status} className={`segment tone-${STATUS_TONES[s.status]}`} style={{ width: `${s.percent}%` }} />
      ))}
    </div>
  );
}
