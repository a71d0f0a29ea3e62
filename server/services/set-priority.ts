/** Change a job's priority (0–100, higher first); takes effect at the next dispatch decision. */
import { jobWritesRepository } from "../store/job-writes";
import { audit, type Actor } from "./audit";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";

/** `max` is the highest priority the caller may give (artists are capped: lib/farm/access). */
export async function setJobPriority(farm: Farm, jobId: string, priority: number, actor: Actor, max = 100): Promise<{ priority: number }> {
  if (!Number.isInteger(priority) || priority < 0 || priority > 100) throw new AppError("BAD_REQUEST", `priority must be a whole number from 0 to 100, got ${priority}`);
  if (priority > max) throw new AppError("FORBIDDEN", `you may set priorities up to ${max}; a wrangler can go higher`);
  await farm.store.transaction(async (tx) => {
    const before = await jobWritesRepository.priorityOf(tx, jobId);
    if (before === undefined) throw new AppError("NOT_FOUND", `no job ${jobId}`);
    await jobWritesRepository.setPriority(tx, jobId, priority);
    await audit(tx, farm, actor, { action: "job.priority", target: { kind: "job", id: jobId }, before: { priority: before }, after: { priority } });
  });
  farm.events.publish(null, "jobs", [jobId]);
  return { priority };
}
