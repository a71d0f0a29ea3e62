/**
 * RFC 0008's one-wrapper rule over whole Session stacks, known once the environment templates
 * are: they are entered first, then the job environments, then each step's environments. A
 * stack with two wrapping environments must be refused before anything is entered.
 */
import type { EnvironmentTemplate, JobTemplate, Environment } from "../model";
import { extraWrappers } from "../wrap-stack";
import type { ErrorOrigin, JobError } from "./types";

interface Placed {
  environment: Environment;
  origin: ErrorOrigin;
}

export function wrappingEnvironmentErrors(environmentTemplates: readonly EnvironmentTemplate[], template: JobTemplate): JobError[] {
  const inTemplate = (environment: Environment): Placed => ({ environment, origin: { kind: "template" } });
  const outer = [...environmentTemplates.map((t, index): Placed => ({ environment: t.environment, origin: { kind: "environment", index } })), ...template.jobEnvironments.map(inTemplate)];
  const steps = template.steps.map((step) => ({ name: step.name, environments: step.stepEnvironments.map(inTemplate) }));
  return extraWrappers(outer, steps, (placed) => placed.environment).map(({ item, message }) => ({
    origin: item.origin,
    segments: [...item.environment.path],
    message,
  }));
}
