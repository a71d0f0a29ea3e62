/**
 * The job settings of the submit form as text, and what they submit. The server checks them
 * again (submit-job.ts checkSettings); checking here too lets the form say so while typing.
 */
import { isValidSubmitter, JOB_SETTING_DEFAULTS, JOB_SETTING_MAXIMA } from "@/lib/farm/job-settings";
import { JOB_INITIAL_STATES, type JobInitialState } from "@/lib/farm/statuses";
import type { SubmitSettings } from "@/server/services/submit-job";

export interface SettingsText {
  priority: string;
  initialState: JobInitialState;
  maxRetriesPerTask: string;
  maxFailedTasks: string;
  submitter: string;
}

/** The farm's own defaults (submit-job.ts), shown so the artist sees what they get. */
export const DEFAULT_SETTINGS: SettingsText = {
  priority: String(JOB_SETTING_DEFAULTS.priority),
  initialState: JOB_SETTING_DEFAULTS.initialState,
  maxRetriesPerTask: String(JOB_SETTING_DEFAULTS.maxRetriesPerTask),
  maxFailedTasks: String(JOB_SETTING_DEFAULTS.maxFailedTasks),
  submitter: "", // empty: the farm's default submitter
};

type NumberField = "priority" | "maxRetriesPerTask" | "maxFailedTasks";
const LIMITS: Record<NumberField, { max: number; words: string }> = {
  priority: { max: JOB_SETTING_MAXIMA.priority, words: "Priority" },
  maxRetriesPerTask: { max: JOB_SETTING_MAXIMA.maxRetriesPerTask, words: "Retries per task" },
  maxFailedTasks: { max: JOB_SETTING_MAXIMA.maxFailedTasks, words: "Failed tasks" },
};

export function readSettings(text: SettingsText): { settings: SubmitSettings; errors: Partial<Record<keyof SettingsText, string>> } {
  const settings: SubmitSettings = { initialState: text.initialState };
  const errors: Partial<Record<keyof SettingsText, string>> = {};
  for (const field of Object.keys(LIMITS) as NumberField[]) {
    const { max, words } = LIMITS[field];
    const value = text[field].trim();
    if (!/^[0-9]+$/.test(value) || Number(value) > max) {
      errors[field] = `${words} must be a whole number ${max === Number.MAX_SAFE_INTEGER ? "(0 or more)" : `from 0 to ${max}`}`;
    } else settings[field] = Number(value);
  }
  if (!JOB_INITIAL_STATES.includes(text.initialState)) errors.initialState = `Initial state must be one of ${JOB_INITIAL_STATES.join(", ")}`;
  const submitter = text.submitter.trim();
  if (submitter !== "") {
    if (!isValidSubmitter(submitter)) errors.submitter = "Submitter must be at most 128 characters, without control characters";
    else settings.submitter = submitter;
  }
  return { settings, errors };
}
