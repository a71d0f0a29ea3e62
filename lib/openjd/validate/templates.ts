/** Root documents: job templates (`jobtemplate-2023-09`) and environment templates (`environment-2023-09`). */
import type { RawError } from "../errors";
import { EXTENSION_PREREQUISITES, isKnownExtension, SUPPORTED_EXTENSIONS, type ExtensionName } from "../extensions";
import { isPlainLiteral } from "../format-string";
import type { Environment, EnvironmentTemplate, JobTemplate, Path, StepTemplate, Template } from "../model";
import { extraWrappers } from "../wrap-stack";
import { kindName, type ObjectNode, type SourceNode } from "../source-node";
import { findCycle } from "../step-graph";
import { checkUnique, child, expectList, expectObject, field, namedItems, ValidationContext } from "./context";
import { checkEnvironment, checkEnvironmentList } from "./environments";
import { readFormat } from "./format-fields";
import { checkParameterDefinitions, readDescription } from "./parameter-definitions";
import { checkStringRules } from "./scalars";
import { SymbolContext, type TaskParameterSymbol } from "./scopes";
import { checkStep, environmentFileNames, taskParameterSymbols } from "./steps";

export const JOB_TEMPLATE_VERSION = "jobtemplate-2023-09";
export const ENVIRONMENT_TEMPLATE_VERSION = "environment-2023-09";

export interface DecodeResult {
  template: Template | null;
  errors: RawError[];
}

/** Validates a parsed document of either kind, reporting every independent problem. */
export function decodeTemplate(root: SourceNode, expected?: Template["kind"]): DecodeResult {
  if (root.kind !== "object") {
    return fail([], `a template must be a mapping, got ${kindName(root)}`);
  }
  const versionNode = field(root, "specificationVersion");
  if (versionNode === undefined) return fail(["specificationVersion"], "missing required field 'specificationVersion'");
  const version = versionNode.kind === "string" ? versionNode.value : null;
  const kind = version === JOB_TEMPLATE_VERSION ? "job" : version === ENVIRONMENT_TEMPLATE_VERSION ? "environment" : null;
  if (kind === null) {
    return fail(["specificationVersion"], `unknown specificationVersion ${JSON.stringify(version ?? kindName(versionNode))}; expected '${JOB_TEMPLATE_VERSION}' or '${ENVIRONMENT_TEMPLATE_VERSION}'`);
  }
  if (expected && kind !== expected) {
    return fail(["specificationVersion"], `expected a ${expected} template ('${expected === "job" ? JOB_TEMPLATE_VERSION : ENVIRONMENT_TEMPLATE_VERSION}'), got '${version}'`);
  }
  const extensions = new ValidationContext(new Set());
  const declared = readExtensions(extensions, field(root, "extensions"));
  const ctx = new ValidationContext(new Set(declared.filter((e) => SUPPORTED_EXTENSIONS.has(e))), new Set(declared));
  ctx.sink.errors.push(...extensions.sink.errors);
  const schema = field(root, "$schema");
  if (schema !== undefined && schema.kind !== "string") ctx.error(["$schema"], `expected a string, got ${kindName(schema)}`);
  const template = kind === "job" ? checkJobTemplate(ctx, root, declared) : checkEnvironmentTemplate(ctx, root, declared);
  const errors = ctx.sink.errors;
  return { template: errors.length === 0 ? template : null, errors };
}

function fail(segments: Path, message: string): DecodeResult {
  return { template: null, errors: [{ segments, message }] };
}

function readExtensions(ctx: ValidationContext, node: SourceNode | undefined): ExtensionName[] {
  if (node === undefined) return [];
  const items = expectList(ctx, node, ["extensions"]) ?? [];
  const names: ExtensionName[] = [];
  items.forEach((item, i) => {
    const path = ["extensions", i];
    if (item.kind !== "string") return ctx.error(path, `expected an extension name, got ${kindName(item)}`);
    if (!/^[A-Z_0-9]{3,128}$/.test(item.value)) return ctx.error(path, `'${item.value}' is not a valid extension name`);
    if (!isKnownExtension(item.value)) return ctx.error(path, `unknown extension '${item.value}'`);
    if (names.includes(item.value)) return ctx.error(path, `extension '${item.value}' is listed twice`);
    if (!SUPPORTED_EXTENSIONS.has(item.value)) ctx.error(path, `extension '${item.value}' is not supported yet`);
    names.push(item.value);
  });
  items.forEach((item, i) => {
    const needs = item.kind === "string" && isKnownExtension(item.value) ? EXTENSION_PREREQUISITES[item.value] : undefined;
    if (needs !== undefined && !names.includes(needs)) ctx.error(["extensions", i], `extension '${item.kind === "string" ? item.value : ""}' requires extension ${needs} (add it to 'extensions')`);
  });
  return names;
}

function checkJobTemplate(ctx: ValidationContext, root: ObjectNode, extensions: ExtensionName[]): Template | null {
  expectObject(ctx, root, [], {
    required: ["specificationVersion", "name", "steps"],
    optional: ["$schema", "extensions", "description", "parameterDefinitions", "jobEnvironments"],
  });
  const { definitions, symbols } = checkParameterDefinitions(ctx, field(root, "parameterDefinitions"), ["parameterDefinitions"], ctx.limits.jobParameters);
  const nameNode = field(root, "name");
  const jobSymbols = SymbolContext.forJob(ctx.has("EXPR"), symbols);
  const name = nameNode && readFormat(ctx, nameNode, ["name"], jobSymbols.withoutJobName().template(), { min: 1 });
  if (name && isPlainLiteral(name)) checkStringRules(ctx, name.raw, ["name"], { max: ctx.limits.jobNameLength, control: "all" });
  const description = readDescription(ctx, root, []);
  const jobEnvironmentsNode = field(root, "jobEnvironments");
  const jobEnvironments = checkEnvironmentList(ctx, jobEnvironmentsNode, ["jobEnvironments"], jobSymbols);
  const steps = checkSteps(ctx, field(root, "steps"), jobSymbols.withEnvironmentFiles(environmentFileNames(jobEnvironmentsNode)));
  checkStepEnvironmentNames(ctx, root);
  checkWrappingEnvironments(ctx, jobEnvironments, steps);
  if (!name) return null;
  const template: JobTemplate = {
    specificationVersion: JOB_TEMPLATE_VERSION,
    extensions,
    name,
    parameterDefinitions: definitions,
    jobEnvironments,
    steps,
  };
  if (description !== undefined) template.description = description;
  return { kind: "job", template };
}

function checkSteps(ctx: ValidationContext, node: SourceNode | undefined, symbols: Parameters<typeof checkStep>[3]): StepTemplate[] {
  if (node === undefined) return [];
  const items = expectList(ctx, node, ["steps"]) ?? [];
  const steps: StepTemplate[] = [];
  const named: Array<{ name: string; path: Path; dependencies: WrittenDependency[] }> = [];
  const catalogue = new Map<string, TaskParameterSymbol[]>();
  items.forEach((item, i) => {
    const nameNode = item.kind === "object" ? field(item, "name") : undefined;
    if (nameNode?.kind !== "string") return;
    named.push({ name: nameNode.value, path: ["steps", i], dependencies: readWrittenDependencies(item) });
    if (!catalogue.has(nameNode.value)) catalogue.set(nameNode.value, taskParameterSymbols(field(item as ObjectNode, "parameterSpace")));
  });
  items.forEach((item, i) => {
    const step = checkStep(ctx, item, ["steps", i], symbols, catalogue);
    if (step) steps.push(step);
  });
  checkUnique(ctx, named, "step name");
  const names = new Set(named.map((s) => s.name));
  for (const step of named) {
    const seen = new Set<string>();
    step.dependencies.forEach(({ name: dep, subspace }, j) => {
      const path = [...step.path, "dependencies", j, "dependsOn"];
      // With a subspace a step may wait for some of its own tasks (TASK_DEPENDENCIES); without one it would wait for itself.
      const selfHint = ctx.has("TASK_DEPENDENCIES") ? " without a 'dependsOnSubspace': a step cannot wait for all of itself" : "";
      if (dep === step.name && !subspace) ctx.error(path, `step '${step.name}' cannot depend on itself${selfHint}`);
      else if (!names.has(dep)) ctx.error(path, `unknown step '${dep}'`);
      if (seen.has(dep)) ctx.error(path, `duplicate dependency on '${dep}'`);
      seen.add(dep);
    });
  }
  const cycle = findCycle(named.map((s) => ({ name: s.name, dependencies: s.dependencies.map((d) => d.name).filter((d) => d !== s.name) })));
  if (cycle) ctx.error(["steps"], `step dependencies form a cycle: ${describeCycle(cycle)}`);
  return steps;
}

/** A cycle of thousands of steps would make an unreadable message: show its ends and its length. */
function describeCycle(cycle: readonly string[]): string {
  if (cycle.length <= 12) return cycle.join(" -> ");
  return `${cycle.slice(0, 6).join(" -> ")} -> … -> ${cycle.slice(-3).join(" -> ")} (${cycle.length - 1} steps)`;
}

interface WrittenDependency {
  name: string;
  /** A `dependsOnSubspace` is written (whether or not it is valid). */
  subspace: boolean;
}

function readWrittenDependencies(step: SourceNode): WrittenDependency[] {
  const deps = step.kind === "object" ? field(step, "dependencies") : undefined;
  if (deps?.kind !== "array") return [];
  return deps.items.flatMap((d) => {
    const target = d.kind === "object" ? field(d, "dependsOn") : undefined;
    return target?.kind === "string" ? [{ name: target.value, subspace: field(d as ObjectNode, "dependsOnSubspace") !== undefined }] : [];
  });
}

/** A step environment must not reuse a job environment's name (both are active in one Session). */
function checkStepEnvironmentNames(ctx: ValidationContext, root: ObjectNode): void {
  // Names as written, so that a problem elsewhere in a step or environment does not hide a clash.
  const listed = (node: SourceNode | undefined, path: Path) => namedItems(node?.kind === "array" ? node.items : [], path);
  const jobEnvNames = new Set(listed(field(root, "jobEnvironments"), ["jobEnvironments"]).map((env) => env.name));
  for (const step of listed(field(root, "steps"), ["steps"])) {
    for (const env of listed(field(step.node, "stepEnvironments"), child(step.path, "stepEnvironments"))) {
      if (jobEnvNames.has(env.name)) {
        ctx.error(child(env.path, "name"), `step environment '${env.name}' has the same name as a job environment`);
      }
    }
  }
}

/**
 * RFC 0008: a Session stack has at most one wrapping environment. Within one job template the
 * stacks are the job environments plus each step's; environment templates add to them at job
 * creation, where the same rule is checked again over the whole stack.
 */
function checkWrappingEnvironments(ctx: ValidationContext, jobEnvironments: readonly Environment[], steps: readonly StepTemplate[]): void {
  const stepStacks = steps.map((step) => ({ name: step.name, environments: step.stepEnvironments }));
  for (const { item, message } of extraWrappers(jobEnvironments, stepStacks, (env) => env)) ctx.error(item.path, message);
}

function checkEnvironmentTemplate(ctx: ValidationContext, root: ObjectNode, extensions: ExtensionName[]): Template | null {
  expectObject(ctx, root, [], { required: ["specificationVersion", "environment"], optional: ["$schema", "extensions", "parameterDefinitions"] });
  const { definitions, symbols } = checkParameterDefinitions(ctx, field(root, "parameterDefinitions"), ["parameterDefinitions"], ctx.limits.environmentTemplateParameters);
  const envNode = field(root, "environment");
  const environment = envNode && checkEnvironment(ctx, envNode, ["environment"], SymbolContext.forJob(ctx.has("EXPR"), symbols));
  if (!environment) return null;
  const template: EnvironmentTemplate = { specificationVersion: ENVIRONMENT_TEMPLATE_VERSION, extensions, parameterDefinitions: definitions, environment };
  return { kind: "environment", template };
}
