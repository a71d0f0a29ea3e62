/**
 * The job settings of the submit form as text, and what they submit. The server checks them
 * again (submit-job.ts checkSettings); checking here too lets the form say so while typing.
 */
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
export const DEFAULT_SETTINGS: SettingsText = { priority: "50", initialState: "READY", maxRetriesPerTask: "2", maxFailedTasks: "100", submitter: "" };

type NumberField = "priority" | "maxRetriesPerTask" | "maxFailedTasks";
const LIMITS: Record<NumberField, { max: number; words: string }> = {
  priority: { max: 100, words: "Priority" },
  maxRetriesPerTask: { max: 1000, words: "Retries per task" },
  maxFailedTasks: { max: Number.MAX_SAFE_INTEGER, words: "Failed tasks" },
};

const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

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
    if ([...submitter].length > 128 || CONTROL.test(submitter)) errors.submitter = "Submitter must be at most 128 characters, without control characters";
    else settings.submitter = submitter;
  }
  return { settings, errors };
}
