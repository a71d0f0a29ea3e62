/**
 * The task table's columns, in one list: heading, legend, width, the server sort it asks for and
 * the cell. One column per task parameter of the step (its names as headings), so a frame and a
 * layer sort and read apart instead of sharing one cut-off cell.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { activityText, elapsed } from "@/lib/farm/display";
import { retryText } from "@/lib/farm/retry";
import type { TaskRowView } from "@/server/queries/jobs";
import type { TaskSort } from "@/server/queries/task-sort";
import { LocalTime } from "../ui/local-time";
import { StatusBadge } from "../ui/status";
import { WorkerLink } from "../ui/worker-link";

export interface TaskCellContext {
  jobId: string;
  /** For running tasks' durations and environment setups. */
  now: number;
}

export interface TaskColumn {
  key: string;
  header: string;
  /** What the column means, on hover of its heading. */
  legend?: string;
  /** Narrowest width (rem) and share of the spare width. */
  width: { min: number; grow: number };
  sort: { sort: TaskSort; parameter?: string };
  className?: string;
  title?: (task: TaskRowView) => string | undefined;
  cell: (task: TaskRowView, ctx: TaskCellContext) => ReactNode;
}

export const RETRIES_LEGEND = "Failed attempts / attempts lost to infrastructure (worker lost or drained); each counts against its own budget";

export function sessionHref(jobId: string, task: TaskRowView): string | null {
  return task.sessionId ? `/jobs/${jobId}/sessions/${task.sessionId}?task=${task.id}` : null;
}

function messageText(task: TaskRowView, now: number): string {
  return [task.retryAt !== null ? retryText(task.retryAt, now) : null, task.exitCode !== null ? `Exit code ${task.exitCode}` : null, task.statusMessage].filter(Boolean).join(" · ");
}

const RETRY_TITLE = "Waiting out the job's retry delay (it doubles with each failure); then the next free worker takes it";

export function taskColumns(parameterNames: readonly string[]): TaskColumn[] {
  return [
    { key: "index", header: "#", width: { min: 3.5, grow: 0 }, sort: { sort: "index" }, className: "num", cell: (t) => t.index },
    { key: "status", header: "Status", width: { min: 7.5, grow: 0 }, sort: { sort: "status" }, cell: (t) => <StatusBadge status={t.status} /> },
    ...parameterNames.map<TaskColumn>((name) => ({
      key: `param:${name}`,
      header: name,
      legend: `Task parameter ${name}`,
      width: { min: 5, grow: 1 },
      sort: { sort: "parameter", parameter: name },
      title: (t) => t.parameters[name]?.value,
      cell: (t) => t.parameters[name]?.value ?? "—",
    })),
    { key: "worker", header: "Worker", width: { min: 8, grow: 0.8 }, sort: { sort: "worker" }, cell: (t) => <WorkerLink id={t.workerId} name={t.workerName} /> },
    { key: "started", header: "Started", legend: "In your time zone; UTC on hover", width: { min: 9.5, grow: 0 }, sort: { sort: "startedAt" }, cell: (t) => <LocalTime ms={t.startedAt} /> },
    { key: "duration", header: "Duration", width: { min: 5.5, grow: 0 }, sort: { sort: "duration" }, className: "num", cell: (t, c) => elapsed(t.startedAt, t.endedAt, c.now) },
    {
      key: "retries",
      header: "Retries",
      legend: RETRIES_LEGEND,
      width: { min: 4.5, grow: 0 },
      sort: { sort: "retries" },
      className: "num",
      title: (t) => `${t.failureCount} failed attempts, ${t.interruptionCount} lost to infrastructure`,
      cell: (t) => `${t.failureCount} / ${t.interruptionCount}`,
    },
    {
      key: "message",
      header: "Last message",
      width: { min: 8, grow: 1.6 },
      sort: { sort: "message" },
      className: "message",
      title: (t) => (t.activity ? "The task waits while its Session sets up or tears down this environment" : t.retryAt !== null ? RETRY_TITLE : messageText(t, 0) || undefined),
      cell: (t, c) => (t.activity ? <span className="activity">{activityText(t.activity, c.now)}</span> : messageText(t, c.now)),
    },
    {
      key: "progress",
      header: "Progress",
      width: { min: 6, grow: 0 },
      sort: { sort: "progress" },
      cell: (t) => (t.progress === null ? "" : <progress max={100} value={Math.round(t.progress)} aria-label={`Task ${t.index} progress`}>{`${Math.round(t.progress)}%`}</progress>),
    },
    {
      key: "session",
      header: "Session",
      width: { min: 4.5, grow: 0 },
      sort: { sort: "session" },
      cell: (t, c) => {
        const href = sessionHref(c.jobId, t);
        return href ? (
          <Link href={href} tabIndex={-1} aria-label={`Session of task ${t.index}`}>
            Session
          </Link>
        ) : null;
      },
    },
  ];
}

/** The rows' CSS grid columns, and the width under which the table scrolls sideways inside itself. */
export function gridTemplate(columns: readonly TaskColumn[], gapRem = 0.5, paddingRem = 1.2): { template: string; minWidth: string } {
  const template = columns.map((c) => (c.width.grow > 0 ? `minmax(${c.width.min}rem, ${c.width.grow}fr)` : `${c.width.min}rem`)).join(" ");
  const min = columns.reduce((sum, c) => sum + c.width.min, 0) + gapRem * (columns.length - 1) + paddingRem;
  return { template, minWidth: `${min}rem` };
}
