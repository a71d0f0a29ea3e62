/**
 * The environments a step's tasks run in, as a Session stack (outermost first): environment
 * templates, then job environments, then the step's environments. The server plans Sessions
 * with these ids and the worker finds the environments by them, so both use this one function.
 */
import type { Environment } from "../model";
import type { Job, JobStep } from "./types";

export interface StackEntry {
  /** `template:<index>:<name>`, `job:<name>` or `step:<step>:<name>`. */
  id: string;
  environment: Environment;
  /** The step whose environment this is; null for job environments and external environment templates. */
  step: JobStep | null;
  /** The document defining the environment declares REDACTED_ENV_VARS (then openjd_redacted_env also sets the variable). */
  redactedEnvVars: boolean;
}

/**
 * The environment's own name in a stack id. `stepName` (the step the action was planned for)
 * tells a step environment's name apart when the step's name holds a colon.
 */
export function environmentNameOf(id: string, stepName?: string | null): string {
  if (id.startsWith("job:")) return id.slice("job:".length);
  if (id.startsWith("template:")) return id.slice(id.indexOf(":", "template:".length) + 1);
  if (stepName && id.startsWith(`step:${stepName}:`)) return id.slice(`step:${stepName}:`.length);
  return id.split(":").at(-1) ?? id;
}

export function stackFor(job: Job, step: JobStep): StackEntry[] {
  const jobRedaction = job.template.extensions.includes("REDACTED_ENV_VARS");
  return [
    ...job.environmentTemplates.map((t, i) => ({
      id: `template:${i}:${t.environment.name}`,
      environment: t.environment,
      step: null,
      redactedEnvVars: t.extensions.includes("REDACTED_ENV_VARS"),
    })),
    ...job.jobEnvironments.map((environment) => ({ id: `job:${environment.name}`, environment, step: null, redactedEnvVars: jobRedaction })),
    ...step.stepEnvironments.map((environment) => ({ id: `step:${step.name}:${environment.name}`, environment, step, redactedEnvVars: jobRedaction })),
  ];
}
