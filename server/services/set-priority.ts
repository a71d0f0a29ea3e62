/** Change a job's priority (0–100, higher first); takes effect at the next dispatch decision. */
import { jobWritesRepository } from "../store/job-writes";
import { audit, type Actor } from "./audit";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";

/** `max` is the highest priority the caller may give (artists are capped: lib/farm/access). */
export function setJobPriority(farm: Farm, jobId: string, priority: number, actor: Actor, max = 100): { priority: number } {
  if (!Number.isInteger(priority) || priority < 0 || priority > 100) throw new AppError("BAD_REQUEST", `priority must be a whole number from 0 to 100, got ${priority}`);
  if (priority > max) throw new AppError("FORBIDDEN", `you may set priorities up to ${max}; a wrangler can go higher`);
  const jobs = jobWritesRepository(farm.store);
  farm.store.transaction(() => {
    const before = jobs.priorityOf(jobId);
    if (before === undefined) throw new AppError("NOT_FOUND", `no job ${jobId}`);
    jobs.setPriority(jobId, priority);
    audit(farm, actor, { action: "job.priority", target: { kind: "job", id: jobId }, before: { priority: before }, after: { priority } });
  });
  farm.events.publish("jobs", [jobId]);
  return { priority };
}
