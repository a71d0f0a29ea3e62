/**
 * Chunked changes of one job (creating it, wrangler actions, archiving) run one after another:
 * each is several units of work, and between two slices of one, another would otherwise see half
 * of it (units taking turns on SQLite, or being transactions of their own on PostgreSQL, keep
 * each slice whole, not the change). A change of a job that has none in flight starts at once
 * (synchronously up to its first await: on SQLite its first unit takes its turn then).
 */
import type { Farm } from "../context/farm";

const inFlight = new WeakMap<Farm, Map<string, Promise<void>>>();

export function withJobLock<T>(farm: Farm, jobId: string, change: () => Promise<T>): Promise<T> {
  let jobs = inFlight.get(farm);
  if (!jobs) inFlight.set(farm, (jobs = new Map()));
  const before = jobs.get(jobId);
  const run = before ? before.then(change) : change();
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  jobs.set(jobId, settled);
  void settled.then(() => {
    if (jobs.get(jobId) === settled) jobs.delete(jobId);
  });
  return run;
}
