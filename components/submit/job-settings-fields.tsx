"use client";

import type { WholeNumberSetting } from "@/lib/farm/job-settings";
import { JOB_INITIAL_STATES } from "@/lib/farm/statuses";
import type { SettingsText } from "./job-settings";

interface Props {
  value: SettingsText;
  /** The caller's priority cap (artists: 70). */
  maxPriority: number;
  errors: Partial<Record<keyof SettingsText, string>>;
  onChange: (value: SettingsText) => void;
}

const NUMBERS: Array<{ key: WholeNumberSetting; label: string; hint: string }> = [
  { key: "priority", label: "Priority", hint: "Higher runs first" },
  { key: "maxRetriesPerTask", label: "Max retries per task", hint: "A failed task runs again up to this many times" },
  { key: "maxFailedTasks", label: "Max failed tasks", hint: "The job stops dispatching after this many failed tasks" },
  { key: "retryDelaySeconds", label: "Retry delay (s)", hint: "A failed task waits this long before its retry, twice as long after each further failure (at most 1 h)" },
  { key: "maxWorkerFailures", label: "Max failures per worker", hint: "A worker on which this many attempts failed gets no more of this job (0: never)" },
];

const STATE_WORDS: Record<(typeof JOB_INITIAL_STATES)[number], string> = { READY: "Ready: start when workers are free", SUSPENDED: "Suspended: hold until resumed" };

export function JobSettingsFields({ value, maxPriority, errors, onChange }: Props) {
  const set = (patch: Partial<SettingsText>) => onChange({ ...value, ...patch });
  const described = (key: keyof SettingsText) => [`setting-${key}-hint`, errors[key] ? `setting-${key}-error` : null].filter(Boolean).join(" ");
  return (
    <fieldset className="param-group settings-grid">
      <legend>Job settings</legend>
      {NUMBERS.map(({ key, label, hint }) => (
        <div className="param-field" key={key}>
          <label htmlFor={`setting-${key}`}>{label}</label>
          <input
            id={`setting-${key}`}
            type="number"
            min={0}
            max={key === "priority" ? maxPriority : undefined}
            step={1}
            value={value[key]}
            aria-describedby={described(key)}
            aria-invalid={errors[key] ? true : undefined}
            onChange={(e) => set({ [key]: e.target.value })}
          />
          <p id={`setting-${key}-hint`} className="field-note muted">
            {key === "priority" ? `0–${maxPriority}; ${hint.toLowerCase()}` : hint}
          </p>
          {errors[key] ? (
            <p id={`setting-${key}-error`} className="field-note error-text">
              {errors[key]}
            </p>
          ) : null}
        </div>
      ))}
      <div className="param-field">
        <label htmlFor="setting-initialState">Initial state</label>
        <select
          id="setting-initialState"
          value={value.initialState}
          aria-describedby={described("initialState")}
          onChange={(e) => set({ initialState: e.target.value as SettingsText["initialState"] })}
        >
          {JOB_INITIAL_STATES.map((s) => (
            <option key={s} value={s}>
              {STATE_WORDS[s]}
            </option>
          ))}
        </select>
        <p id="setting-initialState-hint" className="field-note muted">
          Suspended jobs wait for a wrangler or you to resume them
        </p>
      </div>
    </fieldset>
  );
}
