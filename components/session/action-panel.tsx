"use client";

/** The action in focus: its name and status, the last `openjd_status` text, the `openjd_progress` bar, and why it failed. */
import type { ActionReport } from "@/components/logs/action-report";
import { StatusBadge } from "@/components/ui/status";
import { elapsed } from "@/lib/farm/display";
import type { ActionDetail } from "@/server/queries/sessions";
import { actionLabel } from "./timeline";

export function ActionPanel({ action, report, now }: { action: ActionDetail; report: ActionReport; now: number }) {
  const label = actionLabel(action);
  const progress = report.progress;
  // Without a value a progress bar is indeterminate and animates: only an action that runs and
  // has not reported yet may look busy; a finished or waiting one shows where it stopped.
  const running = action.status === "RUNNING";
  return (
    <section className="action-panel" aria-label="Action status">
      <div className="action-panel-head">
        <h2>{label}</h2>
        <StatusBadge status={action.status} />
        <span className="muted">{elapsed(action.startedAt, action.endedAt, now)}</span>
        {action.exitCode !== null ? <span className="muted">exit code {action.exitCode}</span> : null}
      </div>
      <p className="action-status-text" aria-label="Status message">
        {report.status ?? <span className="muted">No status message</span>}
      </p>
      <div className="action-progress">
        <progress
          max={100}
          value={progress ?? (running ? undefined : 0)}
          className={running ? undefined : "static"}
          aria-label={`Progress of ${label}`}
          aria-valuetext={progress === null ? "not reported" : `${formatPercent(progress)}`}
        />
        <span>{progress === null ? "no progress reported" : formatPercent(progress)}</span>
      </div>
      {action.failMessage ? <p className="error-text">{action.failMessage}</p> : null}
    </section>
  );
}

function formatPercent(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)}%`;
}
