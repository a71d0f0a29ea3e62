/** Change a job's priority (0–100, higher first); takes effect at the next dispatch decision. */
import { AppError } from "./errors";
import type { Farm } from "./farm";

export function setJobPriority(farm: Farm, jobId: string, priority: number): { priority: number } {
  if (!Number.isInteger(priority) || priority < 0 || priority > 100) throw new AppError("BAD_REQUEST", `priority must be a whole number from 0 to 100, got ${priority}`);
  const changed = farm.store.sqlite.prepare("UPDATE jobs SET priority = ? WHERE id = ?").run(priority, jobId).changes;
  if (changed === 0) throw new AppError("NOT_FOUND", `no job ${jobId}`);
  farm.events.emit("jobs", [jobId]);
  return { priority };
}
