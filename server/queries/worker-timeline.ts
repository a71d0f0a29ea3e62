/**
 * The Workers page's timeline (issue 11 point 8): each worker's Sessions over a window, each
 * split into environment setup, task runs and teardown from its actions' start and end times.
 * Bounded: a window of at most MAX_WINDOW_MS, at most MAX_SESSIONS Sessions (the latest) and
 * MAX_ACTIONS actions; consecutive actions of one kind and outcome are drawn as one segment, so
 * a Session of 5,000 short tasks is a handful of segments.
 */
import { z } from "zod";
import type { ActionKind, ActionStatus, SessionState, WorkerStatus } from "../../lib/farm/statuses";
import type { Farm } from "../context/farm";
import { sessionQueriesRepository } from "../store/session-queries";
import { workerQueriesRepository } from "../store/worker-queries";

export const MAX_WINDOW_MS = 24 * 3_600_000;
export const MAX_SESSIONS = 2_000;
export const MAX_ACTIONS = 50_000;
const MERGE_GAP_MS = 2_000;

export const workerTimelineInput = z
  .object({ from: z.number().int().nonnegative(), to: z.number().int().nonnegative(), poolId: z.string().min(1).max(100).optional() })
  .refine((w) => w.to > w.from, { message: "the window ends before it starts (to must be after from)", path: ["to"] })
  .refine((w) => w.to - w.from <= MAX_WINDOW_MS, { message: `the window is longer than ${MAX_WINDOW_MS / 3_600_000} hours`, path: ["to"] });

export type SessionOutcome = "RUNNING" | "SUCCEEDED" | "FAILED" | "CANCELED";

export interface TimelineSegment {
  kind: ActionKind;
  status: ActionStatus;
  /** Clipped to the window; endedAt null while it runs. */
  startedAt: number;
  endedAt: number | null;
  /** Actions merged into it. */
  count: number;
}

export interface TimelineSession {
  id: string;
  jobId: string;
  jobName: string;
  state: SessionState;
  startedAt: number;
  endedAt: number | null;
  outcome: SessionOutcome;
  /** Time inside the window spent entering environments, running tasks, exiting environments. */
  setupMs: number;
  taskMs: number;
  teardownMs: number;
  segments: TimelineSegment[];
}

export interface TimelineWorker {
  id: string;
  name: string;
  poolName: string;
  status: WorkerStatus;
  sessions: TimelineSession[];
}

export interface WorkerTimeline {
  from: number;
  to: number;
  workers: TimelineWorker[];
  /** More Sessions or actions fell in the window than are shown (the latest are). */
  truncated: boolean;
}

export interface TimedAction {
  kind: ActionKind;
  status: ActionStatus;
  startedAt: number;
  endedAt: number | null;
}

/** Segments of a Session's started actions (in order) inside [from, to), and the time of each kind. */
export function sessionSegments(actions: readonly TimedAction[], from: number, to: number, now: number): { segments: TimelineSegment[]; setupMs: number; taskMs: number; teardownMs: number } {
  const segments: TimelineSegment[] = [];
  const spent: Record<ActionKind, number> = { ENV_ENTER: 0, TASK_RUN: 0, ENV_EXIT: 0 };
  for (const action of actions) {
    const start = Math.max(action.startedAt, from);
    const end = action.endedAt === null ? null : Math.min(action.endedAt, to);
    if (start >= to || (end !== null && end < from)) continue;
    spent[action.kind] += Math.max(0, (end ?? Math.min(now, to)) - start);
    const last = segments.at(-1);
    // Only back to back (a sync apart at most): an idle gap inside a Session stays visible.
    if (last && last.kind === action.kind && last.status === action.status && last.endedAt !== null && start - last.endedAt <= MERGE_GAP_MS) {
      last.endedAt = end;
      last.count += 1;
    } else segments.push({ kind: action.kind, status: action.status, startedAt: start, endedAt: end, count: 1 });
  }
  return { segments, setupMs: spent.ENV_ENTER, taskMs: spent.TASK_RUN, teardownMs: spent.ENV_EXIT };
}

const FAILED_ACTION: ReadonlySet<ActionStatus> = new Set(["FAILED", "TIMEOUT"]);
const STOPPED_ACTION: ReadonlySet<ActionStatus> = new Set(["CANCELED", "INTERRUPTED"]);

/** A Session's colour on the timeline: running, or how its actions ended (a failure outweighs a cancel). */
export function sessionOutcome(state: SessionState, statuses: readonly ActionStatus[]): SessionOutcome {
  if (statuses.some((s) => FAILED_ACTION.has(s))) return "FAILED";
  if (statuses.some((s) => STOPPED_ACTION.has(s))) return "CANCELED";
  return state === "ENDED" ? "SUCCEEDED" : "RUNNING";
}

export async function workerTimeline(farm: Farm, raw: z.input<typeof workerTimelineInput>): Promise<WorkerTimeline> {
  const { from, to, poolId } = workerTimelineInput.parse(raw);
  const now = farm.now();
  // One snapshot: the Sessions, their actions and their workers.
  const { shown, actions, actionStatuses, workerRows, sessionsTruncated } = await farm.store.read(
    async (tx) => {
      const sessions = await sessionQueriesRepository.inWindow(tx, from, to, poolId ?? null, MAX_SESSIONS + 1);
      const shown = sessions.slice(0, MAX_SESSIONS);
      const ids = shown.map((s) => s.id);
      return {
        shown,
        sessionsTruncated: sessions.length > MAX_SESSIONS,
        actions: await sessionQueriesRepository.timedActions(tx, ids, from, to, MAX_ACTIONS + 1),
        actionStatuses: await sessionQueriesRepository.actionStatuses(tx, ids),
        workerRows: await workerQueriesRepository.timeline(tx, [...new Set(shown.map((s) => s.worker_id))], poolId ?? null),
      };
    },
    { consistent: true },
  );
  const truncated = sessionsTruncated || actions.length > MAX_ACTIONS;
  const bySession = new Map<string, TimedAction[]>();
  for (const a of actions.slice(0, MAX_ACTIONS)) {
    let list = bySession.get(a.session_id);
    if (!list) bySession.set(a.session_id, (list = []));
    list.push({ kind: a.kind, status: a.status, startedAt: a.started_at, endedAt: a.ended_at });
  }
  // Outcomes over all of a Session's actions, not only those in the window.
  const statuses = new Map<string, ActionStatus[]>();
  for (const row of actionStatuses) {
    statuses.set(row.session_id, [...(statuses.get(row.session_id) ?? []), row.status]);
  }
  const workers = workerRows.map((w): TimelineWorker => ({ id: w.id, name: w.name, poolName: w.pool_name, status: w.status, sessions: [] }));
  const byWorker = new Map(workers.map((w) => [w.id, w]));
  for (const s of [...shown].reverse()) {
    const parts = sessionSegments(bySession.get(s.id) ?? [], from, to, now);
    byWorker.get(s.worker_id)?.sessions.push({
      id: s.id,
      jobId: s.job_id,
      jobName: s.job_name,
      state: s.state,
      startedAt: s.started_at,
      endedAt: s.ended_at,
      outcome: sessionOutcome(s.state, statuses.get(s.id) ?? []),
      ...parts,
    });
  }
  return { from, to, workers, truncated };
}
