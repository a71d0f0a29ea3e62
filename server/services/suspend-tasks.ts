/**
 * Suspend and resume. Suspending stops dispatch of the target's waiting tasks and cancels the
 * running ones (they come back as SUSPENDED and run again after resume); resuming makes them
 * PENDING again, and READY as their dependencies allow. Both are idempotent. The job's switch
 * flips first, then its tasks move in chunks (task-target.ts).
 */
import type { TaskStatus } from "../../lib/farm/statuses";
import { movableTo } from "../../lib/farm/task-transitions";
import type { AuditAction } from "../../lib/farm/audit-actions";
import { jobWritesRepository } from "../store/job-writes";
import type { AlsoSet } from "../store/task-moves";
import { audit, type Actor } from "./audit";
import type { Farm } from "../context/farm";
import { withJobLock } from "./job-lock";
import { describeTarget, moveTasks, resolveTarget, type TaskTarget } from "./task-target";

interface Switch {
  suspended: boolean;
  from: readonly TaskStatus[];
  to: TaskStatus;
  /** Suspended tasks leave their worker and Session. */
  also: AlsoSet;
  action: AuditAction;
}

const SUSPEND: Switch = { suspended: true, from: movableTo("SUSPENDED", "suspend"), to: "SUSPENDED", also: "unassign", action: "job.suspend" };
const RESUME: Switch = { suspended: false, from: movableTo("PENDING", "resume"), to: "PENDING", also: "nothing", action: "job.resume" };

function flip(farm: Farm, target: TaskTarget, actor: Actor, how: Switch): Promise<{ changed: number }> {
  return withJobLock(farm, target.jobId, async () => {
    const resolved = await farm.store.transaction(async (tx) => {
      const found = await resolveTarget(tx, farm, target);
      if (!target.stepId && !target.taskIds) await jobWritesRepository.setSuspended(tx, target.jobId, how.suspended);
      return found;
    });
    const changed = await moveTasks(farm, resolved, how.from, how.to, how.also);
    await farm.store.transaction((tx) => audit(tx, farm, actor, { action: how.action, target: { kind: "job", id: target.jobId }, after: { ...describeTarget(target), changed } }));
    farm.events.publish(null, "jobs", [target.jobId]);
    return { changed };
  });
}

export function suspendTasks(farm: Farm, target: TaskTarget, actor: Actor): Promise<{ changed: number }> {
  return flip(farm, target, actor, SUSPEND);
}

export function resumeTasks(farm: Farm, target: TaskTarget, actor: Actor): Promise<{ changed: number }> {
  return flip(farm, target, actor, RESUME);
}
