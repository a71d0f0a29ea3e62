/**
 * How the portal shows farm values: pure, so the tables, graph nodes and bars agree and are
 * tested with tables of cases. Times are epoch milliseconds; `now` is passed in.
 */
import { TASK_STATUSES, type StatusCounts, type TaskStatus } from "./statuses";

/** The colour family a status is drawn in (CSS classes `tone-<tone>`). */
export type Tone = "waiting" | "ready" | "active" | "paused" | "bad" | "good" | "off";

export const STATUS_TONES: Record<TaskStatus, Tone> = {
  PENDING: "waiting",
  READY: "ready",
  ASSIGNED: "active",
  RUNNING: "active",
  SUSPENDED: "paused",
  CANCELED: "off",
  FAILED: "bad",
  SUCCEEDED: "good",
  NOT_COMPATIBLE: "bad",
};

/** Action and worker statuses that are not task statuses, in the task palette where the words mean the same. */
const OTHER_TONES: Readonly<Record<string, Tone>> = {
  IDLE: "ready",
  STARTED: "ready",
  STOPPING: "paused",
  INTERRUPTED: "paused",
  NEVER_ATTEMPTED: "paused",
  STOPPED: "off",
  NOT_RESPONDING: "bad",
  TIMEOUT: "bad",
};

/** The tone of any status the portal shows (task, action, worker, Session); unknown ones wait. */
export function toneOf(status: string): Tone {
  return STATUS_TONES[status as TaskStatus] ?? OTHER_TONES[status] ?? "waiting";
}

/** The order of the segments of a roll-up bar: finished work first, then work in flight, then waiting. */
export const BAR_ORDER: readonly TaskStatus[] = ["SUCCEEDED", "FAILED", "NOT_COMPATIBLE", "CANCELED", "RUNNING", "ASSIGNED", "READY", "SUSPENDED", "PENDING"];

export interface BarSegment {
  status: TaskStatus;
  count: number;
  /** Share of the total in percent (0–100). */
  percent: number;
}

function countOf(counts: Readonly<StatusCounts>, statuses: Iterable<TaskStatus>): number {
  let sum = 0;
  for (const status of statuses) sum += counts[status];
  return sum;
}

/** The non-empty segments of a roll-up bar, in BAR_ORDER. */
export function barSegments(counts: Readonly<StatusCounts>): BarSegment[] {
  const total = countOf(counts, TASK_STATUSES);
  if (total === 0) return [];
  return BAR_ORDER.filter((s) => counts[s] > 0).map((status) => ({ status, count: counts[status], percent: (100 * counts[status]) / total }));
}

/**
 * How a set of tasks ended so far, with the outcomes apart (issue 11: a canceled job with 40 of
 * 200 frames rendered read "100% done"): the share that succeeded, floored, and the counts of
 * the other endings. `text` is `20% succeeded`, then `· 3 failed`, `· 160 canceled`,
 * `· 2 not compatible` for those that are not 0.
 */
export function outcomeSummary(counts: Readonly<StatusCounts>): { percentSucceeded: number; text: string } {
  const total = countOf(counts, TASK_STATUSES);
  const percentSucceeded = total === 0 ? 0 : Math.floor((100 * counts.SUCCEEDED) / total);
  const others = (["FAILED", "CANCELED", "NOT_COMPATIBLE"] as const).filter((s) => counts[s] > 0).map((s) => `${counts[s].toLocaleString("en")} ${statusLabel(s).toLowerCase()}`);
  return { percentSucceeded, text: [`${percentSucceeded}% succeeded`, ...others].join(" · ") };
}

/** A duration as people read it: `850 ms`, `12.4 s`, `3 min 05 s`, `2 h 07 min`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.floor(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, "0")} s`;
  const minutes = Math.floor(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

/** How long something ran: from start to end, or to `now` while it runs; "—" before it started. */
export function elapsed(startedAt: number | null, endedAt: number | null, now: number): string {
  if (startedAt === null) return "—";
  return formatDuration((endedAt ?? now) - startedAt);
}

/** What a task waits on while its Session sets up or tears down an environment: `Entering Farm, 38 s`. */
export function activityText(activity: { kind: "ENV_ENTER" | "ENV_EXIT"; environment: string; startedAt: number | null }, now: number): string {
  const doing = `${activity.kind === "ENV_ENTER" ? "Entering" : "Exiting"} ${activity.environment}`;
  return activity.startedAt === null ? doing : `${doing}, ${elapsed(activity.startedAt, null, now)}`;
}

/** How long ago, coarse: `just now`, `42 s ago`, `5 min ago`, `3 h ago`, `2 d ago`. */
export function ago(at: number | null, now: number): string {
  if (at === null) return "never";
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 5) return "just now";
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** A timestamp in ISO form without milliseconds, in UTC (unambiguous across a studio's sites). */
export function formatTimestamp(at: number | null): string {
  if (at === null) return "—";
  return `${new Date(at).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A status in words: `NOT_COMPATIBLE` → `Not compatible`. */
export function statusLabel(status: string): string {
  const words = status.toLowerCase().replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
