/**
 * NOT_COMPATIBLE: a step whose host requirements no worker of an enabled pool meets waits in
 * NOT_COMPATIBLE with the reason, and comes back (PENDING, then READY when its dependencies
 * allow) as soon as a matching worker registers or a pool is enabled. With no worker known at
 * all nothing is decided (the farm may be starting).
 */
import type { HostRequirements, WorkerCapabilities } from "../../lib/openjd";
import { movableTo } from "../../lib/farm/task-transitions";
import { incompatibility } from "../scheduler/plan";
import { compatibilityRepository } from "../store/compatibility";
import type { Farm } from "../context/farm";

/** The statuses a step's tasks leave when it becomes NOT_COMPATIBLE, and when it is compatible again (the state machine's moves). */
const INCOMPATIBLE_FROM = movableTo("NOT_COMPATIBLE", "not-compatible");
const COMPATIBLE_FROM = movableTo("PENDING", "compatible-again");

/** The capabilities of the workers that count: enabled, in an enabled pool, not removed. */
export function enabledWorkers(farm: Farm): WorkerCapabilities[] {
  return compatibilityRepository(farm.store)
    .enabledCapabilities()
    .map((capabilities) => JSON.parse(capabilities) as WorkerCapabilities);
}

export function refreshCompatibility(farm: Farm): void {
  const compatibility = compatibilityRepository(farm.store);
  const now = farm.now();
  const workers = enabledWorkers(farm);
  const steps = compatibility.waitingSteps();
  const changedJobs = new Set<string>();
  farm.store.transaction(() => {
    for (const step of steps) {
      const reason = incompatibility(JSON.parse(step.host_requirements ?? "null") as HostRequirements | null, workers);
      if (reason === step.incompatible_reason) continue;
      compatibility.setIncompatibleReason(step.id, reason);
      if (reason !== null) compatibility.moveStepTasks(step.id, INCOMPATIBLE_FROM, "NOT_COMPATIBLE");
      else compatibility.moveStepTasks(step.id, COMPATIBLE_FROM, "PENDING");
      farm.tasks.recountStep(step.id);
      changedJobs.add(step.job_id);
    }
    for (const jobId of changedJobs) farm.tasks.settleJob(jobId, now);
  });
  if (changedJobs.size > 0) farm.events.publish("jobs", [...changedJobs]);
}
