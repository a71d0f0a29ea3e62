/** Job creation for one step: host requirements and the parameter space, resolved and re-checked. */
import { checkAttributeValue, checkCapabilityName, type AmountRequirement, type AttributeRequirement, type HostRequirements } from "../capabilities";
import { defaultCombination, parseCombination, type CombinationNode } from "../combination-expr";
import type { PathSegment } from "../errors";
import type { HostRequirementsTemplate, StepTemplate, TaskParameterDefinition } from "../model";
import { parseFloatText, parseIntText, type Parsed } from "../numbers";
import { StepParameterSpace, type SpaceParameter } from "../parameter-space";
import { IntRangeExpr } from "../range-expr";
import { codePointLength } from "../validate/scalars";
import { MAX_RANGE_VALUES, MAX_TASK_STRING_LENGTH, rangeExpressionTarget, rangeItemType } from "../validate/task-parameters";
import { STRING } from "../expr/types";
import { toText } from "../expr/values";
import { isTypedField } from "../format-evaluation";
import { resolveFloatField, resolveIntField, resolveItems, resolveText, resolveValue, type Symbols } from "./resolve-fields";
import type { ChunkingInfo } from "./types";

export interface StepProblem {
  segments: PathSegment[];
  message: string;
}

export function resolveHostRequirements(template: HostRequirementsTemplate | undefined, symbols: Symbols, problems: StepProblem[]): HostRequirements | null {
  if (!template) return null;
  const report = (segments: readonly PathSegment[], message: string) => problems.push({ segments: [...segments], message });
  const amounts: AmountRequirement[] = [];
  const attributes: AttributeRequirement[] = [];
  const seen = { amount: new Set<string>(), attr: new Set<string>() };
  const resolveName = (format: Parameters<typeof resolveText>[0], path: readonly PathSegment[], kind: "amount" | "attr") => {
    const name = resolveText(format, symbols);
    if (!name.ok) return report(path, name.message);
    const problem = checkCapabilityName(name.value, kind);
    if (problem) return report(path, `resolved name '${name.value}': ${problem}`);
    const key = name.value.toLowerCase();
    if (seen[kind].has(key)) return report(path, `duplicate ${kind === "amount" ? "amount" : "attribute"} requirement '${name.value}' after resolution`);
    seen[kind].add(key);
    return name.value;
  };
  for (const amount of template.amounts) {
    const name = resolveName(amount.name, [...amount.path, "name"], "amount");
    const min = amount.min && resolveFloatField(amount.min, symbols);
    const max = amount.max && resolveFloatField(amount.max, symbols);
    if (min && !min.ok) report(amount.min?.path ?? amount.path, min.message);
    if (max && !max.ok) report(amount.max?.path ?? amount.path, max.message);
    const minValue = min?.ok ? min.value?.value : undefined;
    const maxValue = max?.ok ? max.value?.value : undefined;
    if (minValue !== undefined && minValue < 0) report(amount.min?.path ?? amount.path, `min resolved to ${minValue}; it must be zero or greater`);
    if (maxValue !== undefined && maxValue <= 0) report(amount.max?.path ?? amount.path, `max resolved to ${maxValue}; it must be greater than zero`);
    if (minValue !== undefined && maxValue !== undefined && minValue > maxValue) {
      report(amount.max?.path ?? amount.path, `max (${maxValue}) must be greater than or equal to min (${minValue})`);
    }
    if (typeof name === "string") {
      const requirement: AmountRequirement = { name };
      if (minValue !== undefined) requirement.min = minValue;
      if (maxValue !== undefined) requirement.max = maxValue;
      amounts.push(requirement);
    }
  }
  for (const attribute of template.attributes) {
    const name = resolveName(attribute.name, [...attribute.path, "name"], "attr");
    const values = (list: typeof attribute.anyOf, key: "anyOf" | "allOf") =>
      list?.flatMap((format, i) => {
        const resolved = resolveItems(format, symbols, STRING);
        if (!resolved.ok) return (report([...attribute.path, key, i], resolved.message), []);
        for (const value of resolved.value) {
          const problem = typeof name === "string" ? checkAttributeValue(name, value) : null;
          if (problem) report([...attribute.path, key, i], `resolved value: ${problem}`);
        }
        return resolved.value;
      });
    const anyOf = values(attribute.anyOf, "anyOf");
    const allOf = values(attribute.allOf, "allOf");
    if (typeof name === "string") {
      const requirement: AttributeRequirement = { name };
      if (anyOf) requirement.anyOf = anyOf;
      if (allOf) requirement.allOf = allOf;
      attributes.push(requirement);
    }
  }
  return { amounts, attributes };
}

export interface ResolvedSpace {
  space: StepParameterSpace;
  chunking: ChunkingInfo | null;
  parameters: SpaceParameter[];
  /** The combination in effect (the written one, or the default product); null without a parameter space. */
  combination: CombinationNode | null;
}

export function resolveParameterSpace(step: StepTemplate, symbols: Symbols, problems: StepProblem[]): ResolvedSpace | null {
  const definition = step.parameterSpace;
  if (!definition) return { space: StepParameterSpace.empty(), chunking: null, parameters: [], combination: null };
  const before = problems.length;
  const parameters: SpaceParameter[] = [];
  let chunking: ChunkingInfo | null = null;
  for (const task of definition.taskParameterDefinitions) {
    const values = resolveRange(task, symbols, problems);
    if (values === null) continue;
    const parameter: SpaceParameter = { name: task.name, type: task.type, values };
    if (task.chunks) {
      const resolvedCount = resolveIntField(task.chunks.defaultTaskCount, symbols);
      const count: Parsed<bigint> = !resolvedCount.ok
        ? resolvedCount
        : resolvedCount.value === null
          ? { ok: false, message: "defaultTaskCount resolved to null; it is required" }
          : { ok: true, value: resolvedCount.value };
      const resolvedTarget = task.chunks.targetRuntimeSeconds ? resolveIntField(task.chunks.targetRuntimeSeconds, symbols) : { ok: true as const, value: 0n };
      const target: Parsed<bigint> = resolvedTarget.ok ? { ok: true, value: resolvedTarget.value ?? 0n } : resolvedTarget;
      if (!count.ok) problems.push({ segments: [...task.chunks.defaultTaskCount.path], message: count.message });
      else if (count.value < 1n) problems.push({ segments: [...task.chunks.defaultTaskCount.path], message: `defaultTaskCount resolved to ${count.value}; it must be at least 1` });
      if (!target.ok) problems.push({ segments: [...(task.chunks.targetRuntimeSeconds?.path ?? task.path)], message: target.message });
      else if (target.value < 0n)
        problems.push({ segments: [...(task.chunks.targetRuntimeSeconds?.path ?? task.path)], message: `targetRuntimeSeconds resolved to ${target.value}; it must be zero or greater` });
      if (count.ok && count.value >= 1n && target.ok && target.value >= 0n) {
        chunking = {
          parameter: task.name,
          // Any size above the value count means "one chunk"; clamp so the number stays exact.
          defaultTaskCount: Number(count.value > BigInt(Number.MAX_SAFE_INTEGER) ? BigInt(Number.MAX_SAFE_INTEGER) : count.value),
          targetRuntimeSeconds: Number(target.value),
          rangeConstraint: task.chunks.rangeConstraint,
        };
        parameter.chunks = chunking;
      }
    }
    parameters.push(parameter);
  }
  if (problems.length > before) return null;
  const combination = definition.combination === undefined ? undefined : parseCombination(definition.combination);
  if (combination && !combination.ok) {
    problems.push({ segments: [...definition.path, "combination"], message: combination.message });
    return null;
  }
  const created = StepParameterSpace.create(parameters, combination?.node);
  if (!created.ok) {
    problems.push({ segments: [...definition.path, ...(definition.combination === undefined ? [] : ["combination"])], message: created.message });
    return null;
  }
  return { space: created.space, chunking, parameters, combination: combination?.node ?? defaultCombination(parameters.map((p) => p.name)) };
}

function resolveRange(task: TaskParameterDefinition, symbols: Symbols, problems: StepProblem[]): readonly string[] | IntRangeExpr | null {
  const range = task.range;
  const isInt = task.type === "INT" || task.type === "CHUNK[INT]";
  const fail = (path: readonly PathSegment[], message: string) => (problems.push({ segments: [...path], message }), null);
  if (range.kind === "expression") {
    if (isTypedField(range.format)) {
      // EXPR: the whole range is one expression yielding a range expression or a list.
      const value = resolveValue(range.format, symbols, rangeExpressionTarget(task.type));
      if (!value.ok) return fail(range.path, value.message);
      if (value.value?.kind === "range_expr") return checkRangeSize(value.value.value, range.path, problems);
      if (value.value?.kind === "int") return [value.value.value.toString()];
      if (value.value?.kind !== "list") return fail(range.path, "the range expression must produce a list of values");
      return checkCount(checkItems(task, value.value.items.map(toText), range.path, problems), range.path, problems);
    }
    const text = resolveText(range.format, symbols);
    if (!text.ok) return fail(range.path, text.message);
    if (!isInt) return fail(range.path, `a ${task.type} range must be a list of values`);
    const parsed = IntRangeExpr.tryParse(text.value);
    if (!parsed.ok) return fail(range.path, `'${text.value}' is not a valid range expression: ${parsed.message}`);
    return checkRangeSize(parsed.value, range.path, problems);
  }
  const texts: string[] = [];
  let ok = true;
  for (const item of range.items) {
    const resolved = resolveItems(item.format, symbols, rangeItemType(task.type));
    if (!resolved.ok) {
      problems.push({ segments: [...item.path], message: resolved.message });
      ok = false;
      continue;
    }
    const checked = checkItems(task, resolved.value, item.path, problems, texts);
    if (checked === null) ok = false;
    else texts.push(...checked);
  }
  return ok ? checkCount(texts, range.path, problems) : null;
}

/** A task parameter has 1..1024 values, however its range was written. */
function checkCount(values: string[] | null, path: readonly PathSegment[], problems: StepProblem[]): string[] | null {
  if (values === null) return null;
  const problem =
    values.length === 0 ? "the range has no values" : values.length > MAX_RANGE_VALUES ? `the range has ${values.length} values; a task parameter may have at most ${MAX_RANGE_VALUES}` : null;
  if (problem === null) return values;
  problems.push({ segments: [...path], message: problem });
  return null;
}

function checkRangeSize(range: IntRangeExpr, path: readonly PathSegment[], problems: StepProblem[]): IntRangeExpr | null {
  if (range.size > BigInt(MAX_RANGE_VALUES)) {
    problems.push({ segments: [...path], message: `the range has ${range.size} values; a task parameter may have at most ${MAX_RANGE_VALUES}` });
    return null;
  }
  return range;
}

/** Normalizes resolved item texts for the parameter's type; CHUNK[INT] values must be distinct. */
function checkItems(task: TaskParameterDefinition, texts: readonly string[], path: readonly PathSegment[], problems: StepProblem[], earlier: readonly string[] = []): string[] | null {
  const isInt = task.type === "INT" || task.type === "CHUNK[INT]";
  const values: string[] = [];
  for (const text of texts) {
    const value: Parsed<string> = isInt ? asInt(text) : task.type === "FLOAT" ? asFloat(text) : asTaskString(text);
    if (!value.ok) {
      problems.push({ segments: [...path], message: value.message });
      return null;
    }
    if (task.type === "CHUNK[INT]" && (values.includes(value.value) || earlier.includes(value.value))) {
      // Chunks are sets of frames: a repeated value would be counted as a task but never run.
      problems.push({ segments: [...path], message: `${value.value} appears more than once; CHUNK[INT] values must be distinct` });
      return null;
    }
    values.push(value.value);
  }
  return values;
}

function asInt(text: string): Parsed<string> {
  const parsed = parseIntText(text);
  return parsed.ok ? { ok: true, value: parsed.value.toString() } : parsed;
}

function asFloat(text: string): Parsed<string> {
  const parsed = parseFloatText(text);
  return parsed.ok ? { ok: true, value: parsed.value.text } : parsed;
}

function asTaskString(text: string): Parsed<string> {
  const length = codePointLength(text);
  if (length < 1) return { ok: false, message: "task parameter values must not be empty" };
  if (length > MAX_TASK_STRING_LENGTH) return { ok: false, message: `the value is ${length} characters long; at most ${MAX_TASK_STRING_LENGTH} are allowed` };
  return { ok: true, value: text };
}
