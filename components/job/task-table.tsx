"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, type KeyboardEvent, type MouseEvent } from "react";
import { activityText, elapsed } from "@/lib/farm/display";
import { retryText } from "@/lib/farm/retry";
import type { TaskRowView } from "@/server/queries/jobs";
import { StatusBadge } from "../ui/status";
import { useNow } from "../ui/use-now";
import { clickRow, keyDown, type Selection } from "./task-selection";
import type { TaskRows } from "./use-task-rows";

const ROW_HEIGHT = 34;
const HEADERS = ["#", "Status", "Parameters", "Worker", "Duration", "Retries", "Last message", "Progress", "Session"];

export function sessionHref(jobId: string, task: TaskRowView): string | null {
  return task.sessionId ? `/jobs/${jobId}/sessions/${task.sessionId}?task=${task.id}` : null;
}

export function parameterText(task: TaskRowView): string {
  return Object.entries(task.parameters).map(([name, p]) => `${name}=${p.value}`).join(", ") || "—";
}

interface TaskTableProps {
  jobId: string;
  label: string;
  rows: TaskRows;
  selection: Selection;
  onSelection: (selection: Selection) => void;
  onVisible: (range: { first: number; last: number }) => void;
}


/**
 * A step's tasks, virtualized (only the rows on screen exist, so 100,000 tasks scroll like 100)
 * and paged from the server as they scroll into view. One tab stop (ARIA grid); arrows, shift,
 * space, ctrl/cmd+a select; Enter opens the focused task's Session.
 */
export function TaskTable({ jobId, label, rows, selection, onSelection, onVisible }: TaskTableProps) {
  const router = useRouter();
  const scroller = useRef<HTMLDivElement>(null);
  const rowId = useId();
  const virtualizer = useVirtualizer({ count: rows.count, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;
  useEffect(() => onVisible({ first, last }), [first, last, onVisible]);

  const anyRunning = items.some((item) => {
    const row = rows.row(item.index);
    return row?.status === "RUNNING" || Boolean(row?.activity) || (row?.retryAt ?? null) !== null;
  });
  const now = useNow(anyRunning); // running tasks' durations, and environment setups, tick once a second

  const focusRow = (next: Selection) => {
    onSelection(next);
    if (next.focus !== null) virtualizer.scrollToIndex(next.focus, { align: "auto" });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "Enter" && selection.focus !== null) {
      const task = rows.row(selection.focus);
      const href = task && sessionHref(jobId, task);
      if (href) router.push(href);
      return;
    }
    const pageRows = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const next = keyDown(selection, event.key, { shift: event.shiftKey, toggle: event.ctrlKey || event.metaKey }, rows.count, pageRows);
    if (!next) return;
    event.preventDefault();
    focusRow(next);
  };

  const onRowClick = (index: number, event: MouseEvent) => {
    if ((event.target as HTMLElement).closest("a")) return;
    onSelection(clickRow(selection, index, { shift: event.shiftKey, toggle: event.ctrlKey || event.metaKey }));
  };

  return (
    <div
      className="task-grid"
      role="grid"
      aria-label={label}
      aria-multiselectable="true"
      aria-rowcount={rows.count + 1}
      aria-activedescendant={selection.focus !== null && items.some((i) => i.index === selection.focus) ? `${rowId}-${selection.focus}` : undefined}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup">
        <div role="row" aria-rowindex={1} className="task-row task-head">
          {HEADERS.map((h) => (
            <div key={h} role="columnheader">
              {h}
            </div>
          ))}
        </div>
      </div>
      <div ref={scroller} className="task-scroll">
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((item) => {
            const task = rows.row(item.index);
            const selected = selection.selected.has(item.index);
            return (
              <div
                key={item.key}
                id={`${rowId}-${item.index}`}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={selected}
                className={`task-row${selected ? " selected" : ""}${selection.focus === item.index ? " focused" : ""}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onMouseDown={(e) => e.shiftKey && e.preventDefault()}
                onClick={(e) => onRowClick(item.index, e)}
              >
                {task ? <TaskCells jobId={jobId} task={task} now={now} /> : <div role="gridcell" className="muted loading-row">Loading task {item.index + 1}…</div>}
              </div>
            );
          })}
        </div>
        {rows.count === 0 && !rows.loading && <p className="muted empty">No tasks in this view.</p>}
      </div>
    </div>
  );
}

function TaskCells({ jobId, task, now }: { jobId: string; task: TaskRowView; now: number }) {
  const href = sessionHref(jobId, task);
  const progress = task.progress === null ? null : Math.round(task.progress);
  return (
    <>
      <div role="gridcell" className="num">
        {task.index}
      </div>
      <div role="gridcell">
        <StatusBadge status={task.status} />
      </div>
      <div role="gridcell" className="params" title={parameterText(task)}>
        {parameterText(task)}
      </div>
      <div role="gridcell">{task.workerId ?? "—"}</div>
      <div role="gridcell" className="num">
        {elapsed(task.startedAt, task.endedAt, now)}
      </div>
      <div role="gridcell" className="num" title={`${task.failureCount} failed attempts, ${task.interruptionCount} interrupted`}>
        {task.failureCount} / {task.interruptionCount}
      </div>
      {task.activity ? (
        <div role="gridcell" className="message activity" title="The task waits while its Session sets up or tears down this environment">
          {activityText(task.activity, now)}
        </div>
      ) : (
        <div role="gridcell" className="message" title={task.retryAt !== null ? `Waiting out the job's retry delay (it doubles with each failure); then the next free worker takes it` : (task.statusMessage ?? undefined)}>
          {[task.retryAt !== null ? retryText(task.retryAt, now) : null, task.exitCode !== null ? `Exit code ${task.exitCode}` : null, task.statusMessage].filter(Boolean).join(" · ")}
        </div>
      )}
      <div role="gridcell">{progress === null ? "" : <progress max={100} value={progress} aria-label={`Task ${task.index} progress`}>{`${progress}%`}</progress>}</div>
      <div role="gridcell">
        {href && (
          <Link href={href} tabIndex={-1} aria-label={`Session of task ${task.index}`}>
            Session
          </Link>
        )}
      </div>
    </>
  );
}
