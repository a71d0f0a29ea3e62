/**
 * What an admin's drain or disable has done to a worker so far, in words. The server's semantics
 * (server/services/drain-worker.ts, sync-worker.ts): a drained worker gets no new work; AFTER_TASK
 * lets the running task finish, NOW cancels it; the worker then exits its environments and stays
 * connected, IDLE, until undrained. So "draining" while it still holds work, "drained" after.
 */
import type { DrainMode, WorkerStatus } from "@/lib/farm/statuses";
import type { Tone } from "@/lib/farm/display";

export interface DrainState {
  label: string;
  tone: Tone | null;
}

export function drainState(worker: { drain: DrainMode | null; disabled: boolean; status: WorkerStatus; sessionId: string | null }): DrainState {
  const holdsWork = worker.sessionId !== null || worker.status === "RUNNING" || worker.status === "STOPPING";
  const gone = worker.status === "NOT_RESPONDING" || worker.status === "STOPPED";
  if (worker.drain === null && !worker.disabled) return { label: "Accepting work", tone: null };
  const why = worker.disabled ? "Disabled" : worker.drain === "NOW" ? "Drained now" : "Drained after task";
  if (holdsWork && !gone) {
    if (worker.disabled || worker.drain === "NOW") return { label: `${why}: canceling its task`, tone: "paused" };
    return { label: "Draining: finishing its task", tone: "paused" };
  }
  return { label: why, tone: "off" };
}
