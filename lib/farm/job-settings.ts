/**
 * A job's settings (priority, retries, failure limit, submitter): the defaults and limits the
 * submission service enforces (server/services/submit-job.ts) and the submit form checks while
 * the artist types (components/submit/job-settings.ts), so the two cannot drift apart.
 */
import type { JobInitialState } from "./statuses";

export const JOB_SETTING_DEFAULTS: Readonly<{ priority: number; initialState: JobInitialState; maxRetriesPerTask: number; maxFailedTasks: number; submitter: string }> = {
  priority: 50,
  initialState: "READY",
  maxRetriesPerTask: 2,
  maxFailedTasks: 100,
  submitter: "anonymous",
};

/** The whole-number settings go from 0 to these. */
export const JOB_SETTING_MAXIMA: Readonly<Record<"priority" | "maxRetriesPerTask" | "maxFailedTasks", number>> = {
  priority: 100,
  maxRetriesPerTask: 1000,
  maxFailedTasks: Number.MAX_SAFE_INTEGER,
};

const SUBMITTER = /^[^\u0000-\u001F\u007F-\u009F]{1,128}$/;

/** A submitter name: 1 to 128 characters (UTF-16 units), no control characters. */
export function isValidSubmitter(name: string): boolean {
  return SUBMITTER.test(name);
}
