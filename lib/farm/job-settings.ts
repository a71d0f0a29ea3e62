/**
 * A job's settings (priority, retries, failure limit, submitter): the defaults and limits the
 * submission service enforces (server/services/submit-job.ts) and the submit form checks while
 * the artist types (components/submit/job-settings.ts), so the two cannot drift apart.
 */
import type { JobInitialState } from "./statuses";

export const JOB_SETTING_DEFAULTS: Readonly<{
  priority: number;
  initialState: JobInitialState;
  maxRetriesPerTask: number;
  maxFailedTasks: number;
  retryDelaySeconds: number;
  maxWorkerFailures: number;
  submitter: string;
}> = {
  priority: 50,
  initialState: "READY",
  maxRetriesPerTask: 2,
  maxFailedTasks: 100,
  // A retry 5 s, 10 s, 20 s… after a failure (lib/farm/retry.ts): long enough for a flaky licence
  // or mount to come back, short enough that an artist watching a retry does not wait long.
  retryDelaySeconds: 5,
  // Flamenco's blocklist threshold: three failures of one job on one worker keep it away.
  maxWorkerFailures: 3,
  submitter: "anonymous",
};

export type WholeNumberSetting = "priority" | "maxRetriesPerTask" | "maxFailedTasks" | "retryDelaySeconds" | "maxWorkerFailures";

/** The whole-number settings go from 0 to these. */
export const JOB_SETTING_MAXIMA: Readonly<Record<WholeNumberSetting, number>> = {
  priority: 100,
  maxRetriesPerTask: 1000,
  maxFailedTasks: Number.MAX_SAFE_INTEGER,
  /** One hour: the delay doubles from it, up to MAX_RETRY_DELAY_SECONDS. */
  retryDelaySeconds: 3600,
  maxWorkerFailures: 1000,
};

// eslint-disable-next-line no-control-regex -- submitter names exclude control characters
const SUBMITTER = /^[^\u0000-\u001F\u007F-\u009F]{1,128}$/;

/** A submitter name: 1 to 128 characters (UTF-16 units), no control characters. */
export function isValidSubmitter(name: string): boolean {
  return SUBMITTER.test(name);
}
