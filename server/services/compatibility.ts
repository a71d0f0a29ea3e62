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
import type { ReadTx } from "../store/repository";
import type { Farm } from "../context/farm";

/** The statuses a step's tasks leave when it becomes NOT_COMPATIBLE, and when it is compatible again (the state machine's moves). */
const INCOMPATIBLE_FROM = movableTo("NOT_COMPATIBLE", "not-compatible");
const COMPATIBLE_FROM = movableTo("PENDING", "compatible-again");

/**
 * The capabilities of the workers that count: enabled, in an enabled pool, not removed (read in
 * the caller's unit `tx`; the farm argument is no longer needed and may be left out).
 */
export async function enabledWorkers(tx: ReadTx, _farm?: Farm): Promise<WorkerCapabilities[]> {
  return (await compatibilityRepository.enabledCapabilities(tx)).map((capabilities) => JSON.parse(capabilities) as WorkerCapabilities);
}

export async function refreshCompatibility(farm: Farm): Promise<void> {
  const compatibility = compatibilityRepository;
  const now = farm.now();
  const changedJobs = new Set<string>();
  await farm.store.transaction(async (tx) => {
    changedJobs.clear();
    const workers = await enabledWorkers(tx);
    for (const step of await compatibility.waitingSteps(tx)) {
      const reason = incompatibility(JSON.parse(step.host_requirements ?? "null") as HostRequirements | null, workers);
      if (reason === step.incompatible_reason) continue;
      await compatibility.setIncompatibleReason(tx, step.id, reason);
      if (reason !== null) await compatibility.moveStepTasks(tx, step.id, INCOMPATIBLE_FROM, "NOT_COMPATIBLE");
      else await compatibility.moveStepTasks(tx, step.id, COMPATIBLE_FROM, "PENDING");
      await farm.tasks.recountStep(tx, step.id);
      changedJobs.add(step.job_id);
    }
    for (const jobId of changedJobs) await farm.tasks.settleJob(tx, jobId, now);
  });
  if (changedJobs.size > 0) farm.events.publish(null, "jobs", [...changedJobs]);
}
