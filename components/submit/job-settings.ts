/**
 * The job settings of the submit form as text, and what they submit. The server checks them
 * again (submit-job.ts checkSettings); checking here too lets the form say so while typing.
 * There is no submitter setting: a job's submitter is the signed-in user who submits it.
 */
import { JOB_SETTING_DEFAULTS, JOB_SETTING_MAXIMA, type WholeNumberSetting } from "@/lib/farm/job-settings";
import { JOB_INITIAL_STATES, type JobInitialState } from "@/lib/farm/statuses";
import type { SubmitSettings } from "@/server/services/submit-job";

export interface SettingsText {
  priority: string;
  initialState: JobInitialState;
  maxRetriesPerTask: string;
  maxFailedTasks: string;
  retryDelaySeconds: string;
  maxWorkerFailures: string;
}

/** The farm's own defaults (submit-job.ts), shown so the artist sees what they get. */
export const DEFAULT_SETTINGS: SettingsText = {
  priority: String(JOB_SETTING_DEFAULTS.priority),
  initialState: JOB_SETTING_DEFAULTS.initialState,
  maxRetriesPerTask: String(JOB_SETTING_DEFAULTS.maxRetriesPerTask),
  maxFailedTasks: String(JOB_SETTING_DEFAULTS.maxFailedTasks),
  retryDelaySeconds: String(JOB_SETTING_DEFAULTS.retryDelaySeconds),
  maxWorkerFailures: String(JOB_SETTING_DEFAULTS.maxWorkerFailures),
};

type NumberField = WholeNumberSetting;
const WORDS: Record<NumberField, string> = {
  priority: "Priority",
  maxRetriesPerTask: "Retries per task",
  maxFailedTasks: "Failed tasks",
  retryDelaySeconds: "Retry delay",
  maxWorkerFailures: "Failures per worker",
};

/**
 * The settings to submit and what is wrong with them. `maxPriority` is the caller's cap
 * (lib/farm/access maxPriorityFor: 70 for artists, 100 for wranglers and admins).
 */
export function readSettings(text: SettingsText, maxPriority: number = JOB_SETTING_MAXIMA.priority): { settings: SubmitSettings; errors: Partial<Record<keyof SettingsText, string>> } {
  const settings: SubmitSettings = { initialState: text.initialState };
  const errors: Partial<Record<keyof SettingsText, string>> = {};
  const maxima: Record<NumberField, number> = { ...JOB_SETTING_MAXIMA, priority: Math.min(maxPriority, JOB_SETTING_MAXIMA.priority) };
  for (const field of Object.keys(WORDS) as NumberField[]) {
    const max = maxima[field];
    const value = text[field].trim();
    if (!/^[0-9]+$/.test(value) || Number(value) > max) {
      const capped = field === "priority" && max < JOB_SETTING_MAXIMA.priority ? " (a wrangler can give a job a higher one)" : "";
      errors[field] = `${WORDS[field]} must be a whole number ${max === Number.MAX_SAFE_INTEGER ? "(0 or more)" : `from 0 to ${max}`}${capped}`;
    } else settings[field] = Number(value);
  }
  if (!JOB_INITIAL_STATES.includes(text.initialState)) errors.initialState = `Initial state must be one of ${JOB_INITIAL_STATES.join(", ")}`;
  return { settings, errors };
}
