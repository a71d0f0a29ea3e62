/** A status as a coloured badge, and a task-count roll-up as a segmented bar with its legend. */
import { barSegments, percentDone, STATUS_TONES, statusLabel } from "@/lib/farm/display";
import type { StatusCounts, TaskStatus } from "@/lib/farm/statuses";

export function StatusBadge({ status }: { status: string }) {
  const tone = STATUS_TONES[status as TaskStatus] ?? toneOf(status);
  return <span className={`badge tone-${tone}`}>{statusLabel(status)}</span>;
}

/** Action and worker statuses share the task palette where the words mean the same. */
function toneOf(status: string): string {
  switch (status) {
    case "IDLE":
    case "STARTED":
      return "ready";
    case "STOPPING":
    case "INTERRUPTED":
    case "NEVER_ATTEMPTED":
      return "paused";
    case "STOPPED":
      return "off";
    case "NOT_RESPONDING":
    case "TIMEOUT":
      return "bad";
    default:
      return "waiting";
  }
}

/** Per-status counts as one bar; the accessible name says the same in words. */
export function CountsBar({ counts, label }: { counts: StatusCounts; label?: string }) {
  const segments = barSegments(counts);
  const words = segments.map((s) => `${s.count} ${statusLabel(s.status).toLowerCase()}`).join(", ") || "no tasks";
  return (
    <div className="counts-bar" role="img" aria-label={`${label ? `${label}: ` : ""}${percentDone(counts)}% done; ${words}`} title={words}>
      {segments.map((s) => (
        <span key={s.status} className={`segment tone-${STATUS_TONES[s.status]}`} style={{ width: `${s.percent}%` }} />
      ))}
    </div>
  );
}
