/**
 * Which wrangler actions would change anything, from a target's task counts (the services'
 * from-states, mirrored): buttons that would do nothing are disabled instead of answering
 * "0 tasks changed". Pure.
 */
import type { StatusCounts, TaskStatus } from "@/lib/farm/statuses";

export const WRANGLER_ACTIONS = ["cancel", "suspend", "resume", "requeue", "retryFailed"] as const;
export type WranglerAction = (typeof WRANGLER_ACTIONS)[number];

/** The statuses each action moves tasks out of (server/services: cancel-tasks, suspend-tasks, requeue-tasks). */
export const FROM_STATUSES: Record<WranglerAction, readonly TaskStatus[]> = {
  cancel: ["PENDING", "READY", "ASSIGNED", "RUNNING", "SUSPENDED", "NOT_COMPATIBLE"],
  suspend: ["PENDING", "READY", "ASSIGNED", "RUNNING"],
  resume: ["SUSPENDED"],
  requeue: ["READY", "ASSIGNED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELED", "NOT_COMPATIBLE"],
  retryFailed: ["FAILED"],
};

/** Every action when the counts are unknown (a selection not yet loaded). */
export function allowedActions(counts: Readonly<StatusCounts> | undefined): Set<WranglerAction> {
  if (!counts) return new Set(WRANGLER_ACTIONS);
  return new Set(WRANGLER_ACTIONS.filter((action) => FROM_STATUSES[action].some((status) => counts[status] > 0)));
}
