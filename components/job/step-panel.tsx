"use client";

import { useCallback, useMemo, useState } from "react";
import { statusLabel } from "@/lib/farm/display";
import { emptyCounts, TASK_STATUSES, type StatusCounts, type TaskStatus } from "@/lib/farm/statuses";
import type { StepDetail } from "@/server/queries/jobs";
import { CountsBar, StatusBadge } from "../ui/status";
import { LatestLog } from "./latest-log";
import { TargetActions } from "./target-actions";
import { clampSelection, EMPTY_SELECTION, selectAll, type Selection } from "./task-selection";
import { TaskTable, type TaskTableSort } from "./task-table";
import { useTaskRows } from "./use-task-rows";
import { WhyWaiting } from "./why-waiting";

/** Counts of the selected rows when all of them are loaded (else undefined: every action is offered). */
function selectionCounts(selection: Selection, row: ReturnType<typeof useTaskRows>["row"]): StatusCounts | undefined {
  const counts = emptyCounts();
  for (const index of selection.selected) {
    const task = row(index);
    if (!task) return undefined;
    counts[task.status] += 1;
  }
  return counts;
}

/** One step: its roll-up, actions on the whole step, the task table and actions on the selected tasks. */
export function StepPanel({ jobId, step, mayAct, waitNote }: { jobId: string; step: StepDetail; mayAct: boolean; waitNote?: string | null }) {
  const [filter, setFilter] = useState<TaskStatus | "">("");
  const statuses = useMemo(() => (filter ? [filter] : undefined), [filter]);
  const [visible, setVisible] = useState({ first: 0, last: 30 });
  const [sort, setSort] = useState<TaskTableSort>({ sort: "index", direction: "asc" });
  const rows = useTaskRows(step.id, statuses, visible, sort);
  const [rawSelection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const selection = clampSelection(rawSelection, rows.count);
  const onVisible = useCallback((range: { first: number; last: number }) => setVisible(range), []);

  const changeFilter = (next: TaskStatus | "") => {
    setFilter(next);
    setSelection(EMPTY_SELECTION);
  };
  // A selection is of row positions: a new order puts other tasks there.
  const changeSort = (next: TaskTableSort) => {
    setSort(next);
    setSelection(EMPTY_SELECTION);
  };
  const size = selection.selected.size;
  const focused = selection.focus === null ? undefined : rows.row(selection.focus);

  return (
    <section className="step-panel" aria-labelledby={`step-${step.id}`}>
      <header className="step-head">
        <h2 id={`step-${step.id}`}>
          Step {step.name} <StatusBadge status={step.status} />
        </h2>
        <CountsBar counts={step.counts} label={`Step ${step.name}`} />
        <span className="muted">
          {step.taskCount.toLocaleString("en")} task{step.taskCount === 1 ? "" : "s"}
          {step.chunked ? " (chunked)" : ""}
          {step.dependencies.length > 0 ? ` · after ${step.dependencies.join(", ")}` : ""}
        </span>
        {step.incompatibleReason && <p className="error-text">No pool can run it: {step.incompatibleReason}</p>}
        {waitNote && <p className={`step-blocked ${waitNote.startsWith("blocked") ? "error-text" : "muted"}`}>Pending: {waitNote}</p>}
      </header>
      {mayAct && <TargetActions label="Step actions" subject={`step ${step.name}`} target={() => ({ jobId, stepId: step.id })} counts={step.counts} />}
      <div className="toolbar task-toolbar">
        <label className="inline">
          Show tasks
          <select value={filter} onChange={(e) => changeFilter(e.target.value as TaskStatus | "")}>
            <option value="">All tasks</option>
            {TASK_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)} ({step.counts[s]})
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={rows.count === 0} onClick={() => setSelection(selectAll(selection, rows.count))}>
          Select all
        </button>
        <button type="button" disabled={size === 0} onClick={() => setSelection(EMPTY_SELECTION)}>
          Clear selection
        </button>
        <span className="muted" aria-live="polite">
          {size === 0 ? "No tasks selected" : `${size.toLocaleString("en")} selected`}
        </span>
        {rows.error && <span className="error-text">Could not load tasks: {rows.error}</span>}
      </div>
      {mayAct && (
        <TargetActions
          label="Selected task actions"
          subject={`${size} selected task${size === 1 ? "" : "s"} of step ${step.name}`}
          disabled={size === 0}
          counts={size === 0 ? undefined : selectionCounts(selection, rows.row)}
          target={async () =>
            // Every task of the step selected: name the step, not 100,000 ids.
            !filter && size === step.taskCount ? { jobId, stepId: step.id } : { jobId, stepId: step.id, taskIds: await rows.idsAt(selection.selected) }
          }
          onDone={() => setSelection(EMPTY_SELECTION)}
        />
      )}
      <TaskTable
        jobId={jobId}
        label={`Tasks of step ${step.name}`}
        rows={rows}
        selection={selection}
        onSelection={setSelection}
        onVisible={onVisible}
        parameterNames={step.parameterNames}
        sort={sort}
        onSort={changeSort}
      />
      {focused && focused.status !== "RUNNING" && <WhyWaiting key={focused.id} task={focused} />}
      {focused && <LatestLog jobId={jobId} task={focused} />}
    </section>
  );
}
