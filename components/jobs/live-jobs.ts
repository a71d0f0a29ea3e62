/**
 * How the job table takes pushed job changes: a changed job already on the page, still matching
 * the filters and still in the same place of the sort, is patched in the cache (no request);
 * anything that can add, remove or reorder rows asks for one refetch of the page. Pure; the
 * table batches changes over a short window before calling it, so a busy farm costs one
 * request per window, not one per event.
 */
import type { JobSummary } from "@/server/queries/jobs";
import type { JobView } from "./job-view";
import { jobViewInput } from "./job-view";

export interface JobPage {
  total: number;
  jobs: JobSummary[];
}

/** Whether a job belongs in a view's result, by the same rules as the SQL (LIKE is case-insensitive for ASCII). */
export function matchesView(job: JobSummary, view: JobView): boolean {
  const input = jobViewInput(view);
  if (input.statuses && !input.statuses.includes(job.status)) return false;
  if (input.submitter !== undefined && job.submitter !== input.submitter) return false;
  if (input.minPriority !== undefined && job.priority < input.minPriority) return false;
  if (input.maxPriority !== undefined && job.priority > input.maxPriority) return false;
  if (input.submittedFrom !== undefined && job.submittedAt < input.submittedFrom) return false;
  if (input.submittedTo !== undefined && job.submittedAt >= input.submittedTo) return false;
  if (input.search !== undefined && job.id !== input.search && !job.name.toLowerCase().includes(input.search.toLowerCase())) return false;
  return true;
}

function sortValue(job: JobSummary, view: JobView): unknown {
  switch (view.sort) {
    case "progress": {
      const c = job.counts;
      return (c.SUCCEEDED + c.FAILED + c.CANCELED + c.NOT_COMPATIBLE) / Math.max(job.taskCount, 1);
    }
    default:
      return job[view.sort];
  }
}

/** Fields a job keeps for life: a view that filters and sorts only by them never sees a known job move. */
const FIXED_SORTS: ReadonlySet<JobView["sort"]> = new Set(["submittedAt", "name", "submitter", "taskCount"]);

export function isFixedView(view: JobView): boolean {
  return FIXED_SORTS.has(view.sort) && view.statuses.length === 0 && view.minPriority === null && view.maxPriority === null;
}

/**
 * The page after a batch of changes, and whether the server must be asked again. `known` holds
 * ids this table has already seen (on a page or in an earlier change): in a fixed view only a
 * job never seen before (a new submission) can shift rows, so a busy farm's running jobs on
 * other pages cost nothing.
 */
export function applyJobChanges(page: JobPage, changed: readonly JobSummary[], view: JobView, known: ReadonlySet<string> = new Set()): { page: JobPage; refetch: boolean } {
  const latest = new Map(changed.map((j) => [j.id, j]));
  let refetch = false;
  const jobs = page.jobs.map((old) => {
    const next = latest.get(old.id);
    if (!next) return old;
    latest.delete(old.id);
    if (!matchesView(next, view) || sortValue(next, view) !== sortValue(old, view)) refetch = true;
    return next;
  });
  // A job not on the page that now matches may be new or may have moved in: only the server knows where.
  const fixed = isFixedView(view);
  for (const job of latest.values()) if (matchesView(job, view) && !(fixed && known.has(job.id))) refetch = true;
  return { page: { total: page.total, jobs }, refetch };
}
