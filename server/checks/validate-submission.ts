/**
 * Everything a submission is checked for, without writing: settings, template syntax and schema,
 * environment templates, then job creation with lib/openjd exactly as `loom check` / `loom run`
 * do. All independent problems come back together, located. Pure (lib/openjd and node:path), so
 * a check thread loads it without the database layer (server/checks/check-thread.ts).
 */
import { resolve } from "node:path";
import { JOB_INITIAL_STATES, type JobInitialState } from "../../lib/farm/statuses";
import { isValidSubmitter, JOB_SETTING_DEFAULTS, JOB_SETTING_MAXIMA } from "../../lib/farm/job-settings";
import {
  checkTemplateText,
  createJob,
  type DocumentFormat,
  type EnvironmentTemplate,
  type Job,
  locateErrors,
  locateJobErrors,
  type ParameterInput,
  type ParsedSource,
  type TemplateError,
} from "../../lib/openjd";
import type { Actor } from "../services/audit";

export const DEFAULT_MAX_TASK_COUNT = 1_000_000;

export interface TemplateText {
  text: string;
  format: DocumentFormat;
}

export interface SubmitSettings {
  /** 0–100, higher dispatches first; default 50. */
  priority?: number;
  /** SUSPENDED: the job is held and its tasks are SUSPENDED until a wrangler resumes it. */
  initialState?: JobInitialState;
  maxRetriesPerTask?: number;
  maxFailedTasks?: number;
  /** Seconds before the first retry of a failed task; each further failure doubles it (lib/farm/retry.ts). */
  retryDelaySeconds?: number;
  /** Failed attempts on one worker after which it gets no more of the job (0: never). */
  maxWorkerFailures?: number;
  submitter?: string;
}

/** What a check thread needs of a submission (plain data: it crosses to the thread by structured clone). */
export interface SubmissionText {
  template: TemplateText;
  /** Applied around the job, outermost first. */
  environmentTemplates?: readonly TemplateText[];
  parameterValues: Readonly<Record<string, ParameterInput>>;
  /** Folder the template came from (relative PATH defaults join it); null when it has none (an uploaded zip). */
  templateDir: string | null;
  /** The submitter's folder: relative PATH values join it. */
  workingDir: string;
  settings?: SubmitSettings;
  /** Jobs with more tasks (chunks count as one) are refused. */
  maxTaskCount?: number;
  /** The highest priority the submitter may give (artists are capped: lib/farm/access). */
  maxPriority?: number;
}

export interface SubmitJobInput extends SubmissionText {
  now: number;
  ids?: { jobId: () => string };
  /** Who submits: the job's owner (their name is its submitter), and the audit row's actor. */
  owner?: { userId: string; name: string; actor: Actor };
}

export type SubmitErrorOrigin = "template" | "environment" | "parameters" | "settings";
export interface SubmitError extends TemplateError {
  origin: SubmitErrorOrigin;
}

export interface ResolvedSettings {
  priority: number;
  initialState: JobInitialState;
  maxRetriesPerTask: number;
  maxFailedTasks: number;
  retryDelaySeconds: number;
  maxWorkerFailures: number;
  submitter: string;
}

export interface ValidSubmission {
  ok: true;
  job: Job;
  settings: ResolvedSettings;
  taskCount: number;
}

export type Refused = { ok: false; errors: SubmitError[] };

/** Only the fields a thread needs (the owner's actor and the id generator stay behind). */
export function submissionText(input: SubmissionText): SubmissionText {
  const { template, environmentTemplates, parameterValues, templateDir, workingDir, settings, maxTaskCount, maxPriority } = input;
  return { template, environmentTemplates, parameterValues, templateDir, workingDir, settings, maxTaskCount, maxPriority };
}

export function validateSubmission(input: SubmissionText): ValidSubmission | Refused {
  const settings = checkSettings(input.settings ?? {}, input.maxPriority ?? JOB_SETTING_MAXIMA.priority);
  const checked = checkTemplateText(input.template.text, input.template.format, "job");
  const errors: SubmitError[] = checked.errors.map((e) => ({ ...e, origin: "template" as const }));
  if (checked.template && checked.template.kind !== "job") {
    errors.push({ path: "", line: 1, column: 1, message: "this is an environment template; submit a job template", origin: "template" });
  }
  const environments: EnvironmentTemplate[] = [];
  const environmentSources: ParsedSource[] = [];
  (input.environmentTemplates ?? []).forEach((env, index) => {
    const checkedEnv = checkTemplateText(env.text, env.format, "environment");
    environmentSources.push(checkedEnv.source);
    const prefix = (path: string) => `environments[${index}]${path ? `.${path}` : ""}`;
    errors.push(...checkedEnv.errors.map((e) => ({ ...e, path: prefix(e.path), origin: "environment" as const })));
    if (checkedEnv.template?.kind === "environment") environments.push(checkedEnv.template.template);
    else if (checkedEnv.template) errors.push({ path: prefix(""), line: 1, column: 1, message: "this is a job template; an environment template was expected", origin: "environment" });
  });
  const fail = (more: SubmitError[]) => ({ ok: false as const, errors: [...settings.errors, ...errors, ...more] });
  if (errors.length > 0 || checked.template?.kind !== "job") return fail([]);

  const created = createJob({
    template: checked.template.template,
    environmentTemplates: environments,
    parameterValues: input.parameterValues,
    ...(input.templateDir !== null ? { templateDir: resolve(input.templateDir) } : {}),
    workingDir: resolve(input.workingDir),
  });
  if (!created.ok) {
    const located = locateJobErrors(created.errors, { template: checked.source, environments: environmentSources, parametersLabel: "parameters" });
    return fail(located.map((e, i) => ({ ...e, origin: created.errors[i]!.origin.kind })));
  }
  const taskCount = created.job.steps.reduce((sum, step) => sum + step.parameterSpace.count, 0);
  const max = input.maxTaskCount ?? DEFAULT_MAX_TASK_COUNT;
  if (taskCount > max) {
    const [where] = locateErrors(checked.source, [{ segments: ["steps"], message: "" }]);
    const message = `the job has ${taskCount.toLocaleString("en-US")} tasks; this farm accepts at most ${max.toLocaleString("en-US")} per job (split it into several jobs or chunk its frames)`;
    return fail([{ path: "steps", line: where?.line ?? null, column: where?.column ?? null, message, origin: "template" }]);
  }
  if (settings.value === null) return fail([]);
  return { ok: true, job: created.job, settings: settings.value, taskCount };
}

function checkSettings(settings: SubmitSettings, maxPriority: number): { value: ResolvedSettings | null; errors: SubmitError[] } {
  const errors: SubmitError[] = [];
  const problem = (field: string, message: string) => errors.push({ path: `settings.${field}`, line: null, column: null, message, origin: "settings" });
  const whole = (field: keyof SubmitSettings, value: number | undefined, fallback: number, max: number): number => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 0 || value > max) problem(field, `${field} must be a whole number from 0 to ${max}, got ${value}`);
    return value;
  };
  const resolved: ResolvedSettings = {
    priority: whole("priority", settings.priority, JOB_SETTING_DEFAULTS.priority, JOB_SETTING_MAXIMA.priority),
    initialState: settings.initialState ?? JOB_SETTING_DEFAULTS.initialState,
    maxRetriesPerTask: whole("maxRetriesPerTask", settings.maxRetriesPerTask, JOB_SETTING_DEFAULTS.maxRetriesPerTask, JOB_SETTING_MAXIMA.maxRetriesPerTask),
    maxFailedTasks: whole("maxFailedTasks", settings.maxFailedTasks, JOB_SETTING_DEFAULTS.maxFailedTasks, JOB_SETTING_MAXIMA.maxFailedTasks),
    retryDelaySeconds: whole("retryDelaySeconds", settings.retryDelaySeconds, JOB_SETTING_DEFAULTS.retryDelaySeconds, JOB_SETTING_MAXIMA.retryDelaySeconds),
    maxWorkerFailures: whole("maxWorkerFailures", settings.maxWorkerFailures, JOB_SETTING_DEFAULTS.maxWorkerFailures, JOB_SETTING_MAXIMA.maxWorkerFailures),
    submitter: settings.submitter ?? JOB_SETTING_DEFAULTS.submitter,
  };
  if (resolved.priority > maxPriority && resolved.priority <= JOB_SETTING_MAXIMA.priority) {
    problem("priority", `you may give priorities up to ${maxPriority}; a wrangler can set it higher`);
  }
  if (!JOB_INITIAL_STATES.includes(resolved.initialState)) {
    problem("initialState", `initialState must be one of ${JOB_INITIAL_STATES.join(", ")}, got ${JSON.stringify(resolved.initialState)}`);
  }
  if (!isValidSubmitter(resolved.submitter)) problem("submitter", "submitter must be 1 to 128 characters without control characters");
  return { value: errors.length === 0 ? resolved : null, errors };
}
