/**
 * One robustness case: a mutated template goes through `checkTemplateText`, and when it is still
 * a valid template, through `createJob` with mutated parameter values; the parameter spaces of a
 * created job are probed at their ends. Outcomes record exceptions (which must never happen),
 * broken result invariants and the time taken. Shared by the vitest suite and the full run in
 * `bench/robustness.ts`.
 */
import { createJob } from "../job/create-job";
import type { ParameterInput } from "../job/parameter-values";
import type { CreateJobResult } from "../job/types";
import type { EnvironmentTemplate, JobParameterDefinition, JobTemplate } from "../model";
import { nodeFromValue } from "../source-node";
import { checkTemplateText, type CheckedTemplate } from "../template";
import { caseSeed, Random } from "./random";
import { boundaryNumber, longString, RawScalar, withBraces, withControlCharacters, withUnicode } from "./random-values";
import { mutateTemplate, type MutatedTemplate, type SeedTemplate, type TreeValue } from "./template-mutator";

export interface RobustnessCase extends MutatedTemplate {
  index: number;
  seed: number;
}

export interface CaseOutcome {
  kind: string;
  ms: number;
  /** Where an exception escaped, and what it was; null when none did. */
  exception: { stage: "check" | "createJob"; error: unknown } | null;
  /** Broken invariants of the results (errors without messages, a template with errors…). */
  problems: string[];
  valid: boolean;
  jobCreated: boolean;
}

const HOST_JOB = `specificationVersion: jobtemplate-2023-09
name: Host
steps:
- name: S
  script:
    actions:
      onRun:
        command: echo
`;

let hostJobTemplate: JobTemplate | null = null;

/** The job an environment template is tried under; parsed once, not per case. */
function hostJob(): JobTemplate {
  if (hostJobTemplate === null) {
    const host = checkTemplateText(HOST_JOB, "yaml").template;
    if (host?.kind !== "job") throw new Error("the host job template must be valid");
    hostJobTemplate = host.template;
  }
  return hostJobTemplate;
}

export function generateCase(runSeed: number, index: number, corpus: readonly SeedTemplate[], donors: readonly TreeValue[]): RobustnessCase {
  const seed = caseSeed(runSeed, index);
  const rng = new Random(seed);
  // A quarter of the cases stay close to a valid template so that job creation is reached.
  const valid = corpus.filter((t) => !t.name.includes(".invalid."));
  const gentle = valid.length > 0 && rng.chance(0.25);
  return { ...mutateTemplate(rng, rng.pick(gentle ? valid : corpus), donors, gentle), index, seed };
}

/**
 * Runs one case. Job creation gets mutated parameter values drawn from the case seed, or with
 * `values: "defaults"` none at all (pathological inputs, whose job should be created as is).
 */
export function runCase(testCase: MutatedTemplate & { seed: number }, values: "mutated" | "defaults" = "mutated"): CaseOutcome {
  const start = performance.now();
  const outcome: CaseOutcome = { kind: testCase.kind, ms: 0, exception: null, problems: [], valid: false, jobCreated: false };
  let checked: CheckedTemplate;
  try {
    checked = checkTemplateText(testCase.text, testCase.format);
  } catch (error) {
    outcome.exception = { stage: "check", error };
    outcome.ms = performance.now() - start;
    return outcome;
  }
  outcome.problems.push(...checkedProblems(checked));
  outcome.valid = checked.template !== null;
  if (checked.template !== null) {
    const rng = new Random(testCase.seed ^ 0x51ed27);
    let template: JobTemplate;
    let environments: EnvironmentTemplate[] = [];
    if (checked.template.kind === "job") template = checked.template.template;
    else {
      template = hostJob();
      environments = [checked.template.template];
    }
    try {
      const definitions = [...environments.flatMap((e) => e.parameterDefinitions), ...template.parameterDefinitions];
      const created = createJob({
        template,
        environmentTemplates: environments,
        parameterValues: values === "mutated" ? mutateParameterValues(rng, definitions) : {},
        templateDir: rng.pick(["/templates/job", "C:\\templates\\job", "relative/dir", ""]),
        workingDir: rng.pick(["/work", "D:\\work", ""]),
        pathFlavor: rng.pick(["posix", "windows"] as const),
      });
      outcome.problems.push(...jobProblems(created));
      outcome.jobCreated = created.ok;
    } catch (error) {
      outcome.exception = { stage: "createJob", error };
    }
  }
  outcome.ms = performance.now() - start;
  return outcome;
}

function checkedProblems(checked: CheckedTemplate): string[] {
  const problems: string[] = [];
  if (checked.template !== null && checked.errors.length > 0) problems.push("a template came back together with errors");
  if (checked.template === null && checked.errors.length === 0) problems.push("no template and no errors");
  for (const error of checked.errors) {
    if (typeof error.path !== "string" || typeof error.message !== "string") problems.push(`malformed error ${JSON.stringify(error)}`);
    else if (error.path === "" && error.message.trim() === "") problems.push("an error with neither path nor message");
    for (const at of [error.line, error.column]) {
      if (at !== null && (typeof at !== "number" || !Number.isInteger(at) || at < 1)) problems.push(`bad line/column ${String(at)} in "${error.message}"`);
    }
  }
  return problems;
}

function jobProblems(created: CreateJobResult): string[] {
  if (!created.ok) {
    if (created.errors.length === 0) return ["job creation failed without errors"];
    return created.errors.flatMap((e) => (typeof e.message === "string" && e.message.trim() !== "" && Array.isArray(e.segments) ? [] : [`malformed job error ${JSON.stringify(e)}`]));
  }
  const problems: string[] = [];
  for (const step of created.job.steps) {
    const space = step.parameterSpace;
    if (!(space.count >= 1)) problems.push(`step ${step.name} has ${space.count} tasks`);
    // Both ends of the space, without walking it: counts can exceed 10^48.
    for (const index of [0, Math.min(space.count, Number.MAX_SAFE_INTEGER) - 1]) {
      if (index >= 0 && !space.contains(space.at(index))) problems.push(`step ${step.name}: task ${index} is not in its own space`);
    }
  }
  return problems;
}

/** Submitted values: mostly plausible, often of the wrong type, at a boundary or hostile. */
export function mutateParameterValues(rng: Random, definitions: readonly JobParameterDefinition[]): Record<string, ParameterInput> {
  const values: Record<string, ParameterInput> = {};
  for (const definition of definitions) {
    if (rng.chance(0.35)) continue;
    values[definition.name] = parameterValue(rng, definition);
  }
  if (rng.chance(0.05)) values[rng.pick(["Unknown", "", "__proto__", "constructor"])] = "x";
  return values;
}

function parameterValue(rng: Random, definition: JobParameterDefinition): ParameterInput {
  const given = definition.default;
  // List defaults (EXPR) fall back to an empty JSON list: mutations of it are still plausible input.
  const fallback = given === undefined ? "1" : Array.isArray(given) ? "[]" : typeof given === "object" ? given.text : String(given);
  const choice = rng.int(12);
  switch (choice) {
    case 0:
    case 1:
      return fallback;
    case 2: {
      const value = boundaryNumber(rng);
      return value instanceof RawScalar ? value.text : (value as ParameterInput);
    }
    case 3:
      // eslint-disable-next-line no-loss-of-precision -- 1e309 overflows to Infinity, as a written literal in a template would
      return rng.pick([Number.NaN, Number.POSITIVE_INFINITY, -0, 1e309, 2 ** 63, -(2 ** 63), 0.1 + 0.2, 5e-324]);
    case 4:
      return rng.pick([true, false, null]);
    case 5:
      return longString(rng, rng.pick([1025, 5000, 100_000]));
    case 6:
      return withControlCharacters(rng, fallback);
    case 7:
      return withUnicode(rng, fallback);
    case 8:
      return withBraces(rng, fallback);
    case 9:
      return rng.pick(["", " ", "../../etc/passwd", "C:\\x\\y", "\\\\server\\share", "/", "~", "a\u0000b", "1-9999999999", "1e3", "0x10"]);
    case 10:
      return nodeFromValue(rng.pick<unknown>([[fallback], { value: fallback }, [], {}, [[1n]]]));
    default:
      return `${fallback}${rng.pick(["0", ".5", "-", "e5", " "])}`;
  }
}
