/**
 * Helpers for the job-creation tests: templates written as YAML text go through the real
 * validator, and job errors become `origin path: message` strings that tables can match.
 */
import { formatPath } from "../errors";
import type { EnvironmentTemplate, JobTemplate } from "../model";
import { checkTemplateText } from "../template";
import { createJob, type CreateJobInput } from "./create-job";
import type { Job, JobError } from "./types";

export function jobTemplate(yaml: string): JobTemplate {
  const checked = checkTemplateText(yaml, "yaml", "job");
  if (checked.template?.kind !== "job") throw new Error(`not a valid job template: ${JSON.stringify(checked.errors)}`);
  return checked.template.template;
}

export function environmentTemplate(yaml: string): EnvironmentTemplate {
  const checked = checkTemplateText(yaml, "yaml", "environment");
  if (checked.template?.kind !== "environment") throw new Error(`not a valid environment template: ${JSON.stringify(checked.errors)}`);
  return checked.template.template;
}

/** `origin path: message`, origin being `template`, `parameters` or `environment[i]`. */
export function describeJobError(error: JobError): string {
  const origin = error.origin.kind === "environment" ? `environment[${error.origin.index}]` : error.origin.kind;
  return `${origin} ${formatPath(error.segments)}: ${error.message}`;
}

type Input = Omit<CreateJobInput, "template"> & { template: JobTemplate | string; environments?: readonly string[] };

function toInput(input: Input): CreateJobInput {
  const { environments, template, ...rest } = input;
  return {
    ...rest,
    template: typeof template === "string" ? jobTemplate(template) : template,
    ...(environments ? { environmentTemplates: environments.map(environmentTemplate) } : {}),
  };
}

export function createOk(input: Input): Job {
  const result = createJob(toInput(input));
  if (!result.ok) throw new Error(`expected a job, got errors:\n${result.errors.map(describeJobError).join("\n")}`);
  return result.job;
}

export function createErrors(input: Input): string[] {
  const result = createJob(toInput(input));
  if (result.ok) throw new Error("expected job creation to fail, but it succeeded");
  return result.errors.map(describeJobError);
}

/** A job template with the given parameter definitions (YAML list items, indented two spaces) and one trivial step. */
export function withParameters(definitions: string, extra = ""): string {
  return `specificationVersion: jobtemplate-2023-09
${extra}name: J
parameterDefinitions:
${definitions}
steps:
- name: S
  script:
    actions:
      onRun:
        command: echo
`;
}

/** An environment template with the given parameter definitions. */
export function envWithParameters(definitions: string, name = "E"): string {
  return `specificationVersion: environment-2023-09
parameterDefinitions:
${definitions}
environment:
  name: ${name}
  variables:
    X: "1"
`;
}
