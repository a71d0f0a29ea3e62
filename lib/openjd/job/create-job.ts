/**
 * Job creation (spec §7.4 "job creation" stage): a validated job template, the environment
 * templates around it and submitted parameter values become a Job with resolved name, host
 * requirements and lazily iterable parameter spaces. Every problem is reported, none thrown.
 */
import { FEATURE_BUNDLE_1_LIMITS, BASE_LIMITS } from "../validate/context";
import { codePointLength } from "../validate/scalars";
import type { EnvironmentTemplate, JobTemplate, StepTemplate } from "../model";
import { ExprError } from "../expr/errors";
import { evaluate } from "../expr/evaluator";
import { standardLibrary } from "../expr/functions";
import { stringValue, type ExprValue } from "../expr/values";
import type { FormatEnvironment } from "../format-evaluation";
import { extendEnvironment, templateEnvironment } from "./parameter-symbols";
import type { PathSegment } from "../errors";
import { IntRangeExpr } from "../range-expr";
import { dependencyOrder } from "../step-graph";
import { checkActionNumbers, environmentActions, scriptActions } from "./action-fields";
import { mergeParameterDefinitions, mergedDefinitionProblems, type MergedDefinitions } from "./merge-parameters";
import { coerceParameterValue, defaultParameterValue, type ParameterInput, type PathContext } from "./parameter-values";
import { resolveText, type Symbols } from "./resolve-fields";
import { resolveHostRequirements, resolveParameterSpace, type ResolvedSpace, type StepProblem } from "./resolve-step";
import { hasTaskDependencies, resolveTaskGraph } from "./task-graph";
import type { TaskGraph } from "./task-graph-types";
import type { CreateJobResult, ErrorOrigin, Job, JobError, JobStep, ParameterValue } from "./types";
import { wrappingEnvironmentErrors } from "./wrapping-environments";

export interface CreateJobInput {
  template: JobTemplate;
  /** Environment templates applied around the job, outermost first. */
  environmentTemplates?: readonly EnvironmentTemplate[];
  parameterValues?: Readonly<Record<string, ParameterInput>>;
  templateDir?: string;
  workingDir?: string;
  pathFlavor?: PathContext["flavor"];
  /** TASK_DEPENDENCIES: the most task-to-task edges a job may hold (default MAX_TASK_EDGES; tests lower it). */
  maxTaskEdges?: number;
}

const TEMPLATE: ErrorOrigin = { kind: "template" };
const PARAMETERS: ErrorOrigin = { kind: "parameters" };
// eslint-disable-next-line no-control-regex -- the characters to refuse
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

export function createJob(input: CreateJobInput): CreateJobResult {
  const errors: JobError[] = [];
  const environmentTemplates = input.environmentTemplates ?? [];
  const paths: PathContext = {
    flavor: input.pathFlavor ?? "posix",
    templateDir: input.templateDir,
    workingDir: input.workingDir,
    // With EXPR, URI values (s3://…) are kept as they are instead of being joined (spec digest §4.2).
    uris: input.template.extensions.includes("EXPR"),
  };
  const merged = mergeParameterDefinitions([
    ...environmentTemplates.map((t, index) => ({ origin: { kind: "environment", index } as ErrorOrigin, definitions: t.parameterDefinitions })),
    { origin: TEMPLATE, definitions: input.template.parameterDefinitions },
  ]);
  errors.push(...merged.errors);
  errors.push(...wrappingEnvironmentErrors(environmentTemplates, input.template));
  const parameters = resolveParameters(merged, input.parameterValues ?? {}, paths, errors);
  if (errors.length > 0) return { ok: false, errors };

  const base = templateEnvironment(parameters);
  const name = resolveJobName(input.template, base, errors);
  const expr = input.template.extensions.includes("EXPR");
  const symbols = expr && name !== null ? extendEnvironment(base, new Map([["Job.Name", stringValue(name)]])) : base;
  const stepSymbols = new Map<string, Symbols>();
  // Kept only for a job with task-to-task dependencies, so the others cost nothing extra.
  const withTaskGraph = hasTaskDependencies(input.template);
  const spaces = new Map<StepTemplate, ResolvedSpace>();
  const steps = dependencyOrder(input.template.steps).map((step) => {
    const problems: StepProblem[] = [];
    const letValues = evaluateStepLets(step, symbols, problems, expr);
    const env = extendEnvironment(symbols, letValues);
    stepSymbols.set(step.name, env);
    const hostRequirements = resolveHostRequirements(step.hostRequirements, env, problems);
    const space = resolveParameterSpace(step, env, problems);
    errors.push(...problems.map((p) => ({ origin: TEMPLATE, ...p })));
    if (!space) return null;
    if (withTaskGraph) spaces.set(step, space);
    const resolved: JobStep = {
      name: step.name,
      dependencies: step.dependencies,
      stepEnvironments: step.stepEnvironments,
      hostRequirements,
      taskParameters: space.parameters.map((p) => ({
        name: p.name,
        type: p.type,
        valueCount: p.values instanceof IntRangeExpr ? Number(p.values.size) : p.values.length,
      })),
      parameterSpace: space.space,
      combination: space.combination,
      chunking: space.chunking,
      script: step.script,
      letValues,
      template: step,
    };
    if (step.description !== undefined) resolved.description = step.description;
    return resolved;
  });
  const report = (origin: ErrorOrigin) => (segments: PathSegment[], message: string) => errors.push({ origin, segments, message });
  checkActionNumbers(environmentActions(input.template.jobEnvironments), symbols, report(TEMPLATE));
  for (const step of input.template.steps) {
    checkActionNumbers([...environmentActions(step.stepEnvironments), ...scriptActions(step.script)], stepSymbols.get(step.name) ?? symbols, report(TEMPLATE));
  }
  environmentTemplates.forEach((t, index) => checkActionNumbers(environmentActions([t.environment]), base, report({ kind: "environment", index })));
  if (errors.length > 0 || name === null) return { ok: false, errors };
  let taskGraph: TaskGraph | null = null;
  if (withTaskGraph) {
    const graphSteps = input.template.steps.map((template) => {
      const space = spaces.get(template)!;
      return { template, parameters: space.parameters, combination: space.combination, chunking: space.chunking, symbols: stepSymbols.get(template.name) ?? symbols };
    });
    const resolved = resolveTaskGraph({ jobName: name, expr, steps: graphSteps }, { maxEdges: input.maxTaskEdges });
    if (!resolved.ok) return resolved;
    taskGraph = resolved.graph;
  }
  const job: Job = {
    name,
    parameterDefinitions: merged.definitions,
    parameters,
    environmentTemplates: [...environmentTemplates],
    jobEnvironments: input.template.jobEnvironments,
    steps: steps.filter((s): s is JobStep => s !== null),
    template: input.template,
    taskGraph,
  };
  if (input.template.description !== undefined) job.description = input.template.description;
  return { ok: true, job };
}

function resolveParameters(merged: MergedDefinitions, values: Readonly<Record<string, ParameterInput>>, paths: PathContext, errors: JobError[]): Record<string, ParameterValue> {
  const known = new Set(merged.definitions.map((d) => d.name));
  const unknown = Object.keys(values).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    errors.push({ origin: PARAMETERS, segments: [], message: `values were given for parameters the templates do not define: ${unknown.sort().join(", ")}` });
  }
  const missing: string[] = [];
  // Entries, not assignment: `__proto__` is a valid parameter name and must stay an own key.
  const parameters: Array<[string, ParameterValue]> = [];
  for (const definition of merged.definitions) {
    const provenance = merged.provenance.get(definition.name);
    const origin = provenance?.origin ?? TEMPLATE;
    for (const problem of mergedDefinitionProblems(definition)) errors.push({ origin, segments: [...definition.path], message: problem });
    const submitted = Object.hasOwn(values, definition.name);
    const result = submitted ? coerceParameterValue(definition, values[definition.name] ?? null, paths) : defaultParameterValue(definition, paths);
    if (result === null) {
      missing.push(definition.name);
    } else if (!result.ok) {
      const defaultAt = provenance?.defaultAt ?? { origin, path: definition.path };
      const merging = (provenance?.templates ?? 1) > 1 ? ` (checked against the constraints merged from the ${provenance?.templates} templates that define it)` : "";
      errors.push(
        submitted
          ? { origin: PARAMETERS, segments: [definition.name], message: `parameter ${definition.name}: ${result.message}${merging}` }
          : { origin: defaultAt.origin, segments: [...defaultAt.path, "default"], message: `default of ${definition.name}: ${result.message}${merging}` },
      );
    } else parameters.push([definition.name, result.value]);
  }
  if (missing.length > 0) {
    errors.push({ origin: PARAMETERS, segments: [], message: `values are missing for required parameters: ${missing.sort().join(", ")}` });
  }
  return Object.fromEntries(parameters);
}

/**
 * Step-level `let` bindings (EXPR) are evaluated once, at job creation, in order; each sees the
 * ones before it, `Step.Name` and the job's values.
 */
function evaluateStepLets(step: StepTemplate, env: Symbols, problems: StepProblem[], expr: boolean): Map<string, ExprValue> {
  const values = new Map<string, ExprValue>();
  if (!expr) return values;
  values.set("Step.Name", stringValue(step.name));
  for (const binding of step.let ?? []) {
    try {
      const value = evaluate(binding.expr, {
        library: standardLibrary("template"),
        symbols: new Map([...env.symbols, ...values]),
        pathFormat: env.pathFormat,
      });
      values.set(binding.name, value);
    } catch (error) {
      if (!(error instanceof ExprError)) throw error;
      problems.push({ segments: [...binding.path], message: `let ${binding.name}: ${error.message}` });
    }
  }
  return values;
}

function resolveJobName(template: JobTemplate, symbols: FormatEnvironment, errors: JobError[]): string | null {
  const resolved = resolveText(template.name, symbols);
  if (!resolved.ok) {
    errors.push({ origin: TEMPLATE, segments: ["name"], message: resolved.message });
    return null;
  }
  const max = (template.extensions.includes("FEATURE_BUNDLE_1") ? FEATURE_BUNDLE_1_LIMITS : BASE_LIMITS).jobNameLength;
  const length = codePointLength(resolved.value);
  const problem =
    length < 1
      ? "the job name resolved to an empty string"
      : length > max
        ? `the job name resolved to ${length} characters; at most ${max} are allowed`
        : CONTROL.test(resolved.value)
          ? "the job name resolved to text with control characters"
          : null;
  if (problem) {
    errors.push({ origin: TEMPLATE, segments: ["name"], message: problem });
    return null;
  }
  return resolved.value;
}
