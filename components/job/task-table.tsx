"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useRouter } from "next/navigation";
import { useEffect, useId, useMemo, useRef, type KeyboardEvent, type MouseEvent } from "react";
import type { TaskRowView } from "@/server/queries/jobs";
import type { TaskSort } from "@/server/queries/task-sort";
import { useNow } from "../ui/use-now";
import { gridTemplate, RETRIES_LEGEND, sessionHref, taskColumns, type TaskCellContext, type TaskColumn } from "./task-columns";
import { clickRow, keyDown, type Selection } from "./task-selection";
import type { TaskRows } from "./use-task-rows";

const ROW_HEIGHT = 34;

export interface TaskTableSort {
  sort: TaskSort;
  parameter?: string;
  direction: "asc" | "desc";
}

const sameColumn = (column: TaskColumn, sort: TaskTableSort) => column.sort.sort === sort.sort && column.sort.parameter === sort.parameter;

interface TaskTableProps {
  jobId: string;
  label: string;
  rows: TaskRows;
  selection: Selection;
  onSelection: (selection: Selection) => void;
  onVisible: (range: { first: number; last: number }) => void;
  /** The step's task parameter names: one column each. */
  parameterNames: readonly string[];
  sort: TaskTableSort;
  onSort: (sort: TaskTableSort) => void;
}

/**
 * A step's tasks, virtualized (only the rows on screen exist, so 100,000 tasks scroll like 100)
 * and paged from the server as they scroll into view. One tab stop (ARIA grid); arrows, shift,
 * space, ctrl/cmd+a select; Enter opens the focused task's Session. Every heading sorts (on the
 * server: the rows are paged); it scrolls sideways inside itself on narrow screens.
 */
export function TaskTable({ jobId, label, rows, selection, onSelection, onVisible, parameterNames, sort, onSort }: TaskTableProps) {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const columns = useMemo(() => taskColumns(parameterNames), [parameterNames.join("\n")]);
  const grid = gridTemplate(columns);
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
    <>
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
        <div className="task-grid-inner" style={{ minWidth: grid.minWidth }}>
          <div role="rowgroup">
            <div role="row" aria-rowindex={1} className="task-row task-head" style={{ gridTemplateColumns: grid.template }}>
              {columns.map((column) => {
                const active = sameColumn(column, sort);
                const next: TaskTableSort = { ...column.sort, direction: active && sort.direction === "asc" ? "desc" : "asc" };
                return (
                  <div key={column.key} role="columnheader" aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : "none"} className={column.className}>
                    <button
                      type="button"
                      className="sort-button"
                      tabIndex={-1}
                      title={column.legend ? `${column.legend}. Sort by ${column.header}` : `Sort by ${column.header}`}
                      onClick={() => onSort(next)}
                    >
                      {column.header}
                      <span aria-hidden="true" className="sort-mark">
                        {active ? (sort.direction === "asc" ? "▲" : "▼") : ""}
                      </span>
                    </button>
                  </div>
                );
              })}
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
                    style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, gridTemplateColumns: grid.template }}
                    onMouseDown={(e) => e.shiftKey && e.preventDefault()}
                    onClick={(e) => onRowClick(item.index, e)}
                  >
                    {task ? (
                      <TaskCells columns={columns} task={task} ctx={{ jobId, now }} />
                    ) : (
                      <div role="gridcell" className="muted loading-row">
                        Loading task {item.index + 1}…
                      </div>
                    )}
                  </div>
                );
              })}
            </div>
            {rows.count === 0 && !rows.loading && <p className="muted empty">No tasks in this view.</p>}
          </div>
        </div>
      </div>
      <p className="muted task-legend">Retries: {RETRIES_LEGEND.charAt(0).toLowerCase() + RETRIES_LEGEND.slice(1)}. Times in your time zone, UTC on hover. Click a heading to sort.</p>
    </>
  );
}

function TaskCells({ columns, task, ctx }: { columns: readonly TaskColumn[]; task: TaskRowView; ctx: TaskCellContext }) {
  return (
    <>
      {columns.map((column) => (
        <div key={column.key} role="gridcell" className={column.className} title={column.title?.(task)}>
          {column.cell(task, ctx)}
        </div>
      ))}
    </>
  );
}
