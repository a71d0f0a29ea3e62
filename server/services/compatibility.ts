/**
 * NOT_COMPATIBLE: a step whose host requirements no worker of an enabled pool meets waits in
 * NOT_COMPATIBLE with the reason, and comes back (PENDING, then READY when its dependencies
 * allow) as soon as a matching worker registers or a pool is enabled. With no worker known at
 * all nothing is decided (the farm may be starting).
 */
import type { HostRequirements, WorkerCapabilities } from "../../lib/openjd";
import { movableTo } from "../../lib/farm/task-transitions";
import { countSumSql } from "../db/status-counts";
import { incompatibility } from "../scheduler/plan";
import type { Farm } from "./farm";

/** The statuses a step's tasks leave when it becomes NOT_COMPATIBLE, and when it is compatible again (the state machine's moves). */
const INCOMPATIBLE_FROM = inList(movableTo("NOT_COMPATIBLE", "not-compatible"));
const COMPATIBLE_FROM = inList(movableTo("PENDING", "compatible-again"));

function inList(statuses: readonly string[]): string {
  return statuses.map((status) => `'${status}'`).join(", ");
}

export function refreshCompatibility(farm: Farm): void {
  const sqlite = farm.store.sqlite;
  const now = farm.now();
  const workers = sqlite
    .prepare<[], { capabilities: string }>("SELECT w.capabilities FROM workers w JOIN pools p ON p.id = w.pool_id WHERE p.enabled = 1 AND w.disabled = 0 AND w.removed_at IS NULL")
    .all()
    .map((w) => JSON.parse(w.capabilities) as WorkerCapabilities);
  const steps = sqlite
    .prepare<[], { id: string; job_id: string; host_requirements: string | null; incompatible_reason: string | null }>(
      `SELECT s.id, s.job_id, s.host_requirements, s.incompatible_reason FROM steps s JOIN jobs j ON j.id = s.job_id
       WHERE j.canceled = 0 AND (s.host_requirements IS NOT NULL AND s.host_requirements != 'null')
         AND ${countSumSql(["READY", "PENDING", "NOT_COMPATIBLE", "SUSPENDED"], "s")} > 0`,
    )
    .all();
  const changedJobs = new Set<string>();
  farm.store.transaction(() => {
    for (const step of steps) {
      const reason = incompatibility(JSON.parse(step.host_requirements ?? "null") as HostRequirements | null, workers);
      if (reason === step.incompatible_reason) continue;
      sqlite.prepare("UPDATE steps SET incompatible_reason = ? WHERE id = ?").run(reason, step.id);
      if (reason !== null) sqlite.prepare(`UPDATE tasks SET status = 'NOT_COMPATIBLE' WHERE step_id = ? AND status IN (${INCOMPATIBLE_FROM})`).run(step.id);
      else sqlite.prepare(`UPDATE tasks SET status = 'PENDING' WHERE step_id = ? AND status IN (${COMPATIBLE_FROM})`).run(step.id);
      farm.tasks.recountStep(step.id);
      changedJobs.add(step.job_id);
    }
    for (const jobId of changedJobs) farm.tasks.settleJob(jobId, now);
  });
  if (changedJobs.size > 0) farm.events.publish("jobs", [...changedJobs]);
}
