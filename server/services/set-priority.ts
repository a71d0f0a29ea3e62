/** Change a job's priority (0–100, higher first); takes effect at the next dispatch decision. */
import { audit, type Actor } from "./audit";
import { AppError } from "./errors";
import type { Farm } from "./farm";

/** `max` is the highest priority the caller may give (artists are capped: lib/farm/access). */
export function setJobPriority(farm: Farm, jobId: string, priority: number, actor: Actor, max = 100): { priority: number } {
  if (!Number.isInteger(priority) || priority < 0 || priority > 100) throw new AppError("BAD_REQUEST", `priority must be a whole number from 0 to 100, got ${priority}`);
  if (priority > max) throw new AppError("FORBIDDEN", `you may set priorities up to ${max}; a wrangler can go higher`);
  const sqlite = farm.store.sqlite;
  farm.store.transaction(() => {
    const before = sqlite.prepare<[string], { priority: number }>("SELECT priority FROM jobs WHERE id = ?").get(jobId);
    if (!before) throw new AppError("NOT_FOUND", `no job ${jobId}`);
    sqlite.prepare("UPDATE jobs SET priority = ? WHERE id = ?").run(priority, jobId);
    audit(farm, actor, { action: "job.priority", target: { kind: "job", id: jobId }, before: { priority: before.priority }, after: { priority } });
  });
  farm.events.publish("jobs", [jobId]);
  return { priority };
}
