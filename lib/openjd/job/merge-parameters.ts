/**
 * Merging parameter definitions across environment templates and the job template (spec §1.2.1):
 * one namespace, processed in order with the job template last. Types must agree, constraints
 * only narrow, and the last default wins; the merged definition must be consistent.
 */
import type { FloatLiteral, JobParameterDefinition, Path } from "../model";
import { compareBig, compareFloat } from "../numbers";
import { stripUndefined } from "../strip-undefined";
import type { ErrorOrigin, JobError } from "./types";

export interface DefinitionSource {
  origin: ErrorOrigin;
  definitions: readonly JobParameterDefinition[];
}

/**
 * Which documents a merged definition came from, so its problems are reported where they were
 * written: a merged definition's `path` is its last definition's, which may be an environment
 * template's, and its default may come from yet another template.
 */
export interface DefinitionProvenance {
  /** The template of the last definition merged (the one `definition.path` points into). */
  origin: ErrorOrigin;
  /** The template and definition path of the default that won (the last one given). */
  defaultAt?: { origin: ErrorOrigin; path: Path };
  /** How many templates define the parameter. */
  templates: number;
}

export interface MergedDefinitions {
  definitions: JobParameterDefinition[];
  provenance: ReadonlyMap<string, DefinitionProvenance>;
  errors: JobError[];
}

export function mergeParameterDefinitions(sources: readonly DefinitionSource[]): MergedDefinitions {
  const merged = new Map<string, JobParameterDefinition>();
  const provenance = new Map<string, DefinitionProvenance>();
  const errors: JobError[] = [];
  for (const source of sources) {
    for (const definition of source.definitions) {
      const previous = merged.get(definition.name);
      const known = provenance.get(definition.name);
      if (previous) {
        const problem = incompatibility(previous, definition);
        if (problem) {
          errors.push({ origin: source.origin, segments: [...definition.path], message: problem });
          continue;
        }
      }
      merged.set(definition.name, previous ? narrow(previous, definition) : { ...definition });
      const defaultAt = definition.default !== undefined ? { origin: source.origin, path: definition.path } : known?.defaultAt;
      provenance.set(definition.name, { origin: source.origin, templates: (known?.templates ?? 0) + 1, ...(defaultAt ? { defaultAt } : {}) });
    }
  }
  return { definitions: [...merged.values()], provenance, errors };
}

function incompatibility(a: JobParameterDefinition, b: JobParameterDefinition): string | null {
  if (a.type !== b.type) return `parameter '${b.name}' is ${b.type} here but ${a.type} in an earlier template`;
  if ((a.type === "PATH" || a.type === "LIST[PATH]") && (b.type === "PATH" || b.type === "LIST[PATH]")) {
    if (a.objectType && b.objectType && a.objectType !== b.objectType) {
      return `${b.type} parameter '${b.name}' has objectType ${b.objectType} here but ${a.objectType} in an earlier template`;
    }
    if (a.dataFlow && b.dataFlow && a.dataFlow !== b.dataFlow) {
      return `${b.type} parameter '${b.name}' has dataFlow ${b.dataFlow} here but ${a.dataFlow} in an earlier template`;
    }
  }
  return null;
}

const sameBig = (x: bigint, y: bigint) => x === y;
const sameFloat = (x: FloatLiteral, y: FloatLiteral) => x.value === y.value;
const sameText = (x: string, y: string) => x === y;

/** The later definition `b` narrows `a`; descriptive fields come from the later definition when given. */
function narrow(a: JobParameterDefinition, b: JobParameterDefinition): JobParameterDefinition {
  const out = { ...a, ...b } as JobParameterDefinition & Record<string, unknown>;
  out.path = b.path;
  if (b.default === undefined && a.default !== undefined) (out as { default?: unknown }).default = a.default;
  if (b.description === undefined && a.description !== undefined) out.description = a.description;
  if (b.userInterface === undefined && a.userInterface !== undefined) out.userInterface = a.userInterface as never;
  // Types are equal here (incompatibility() refused the rest); the pairs only narrow TypeScript's view.
  if (a.type === "INT" && b.type === "INT") Object.assign(out, narrowNumbers(a, b, compareBig, sameBig));
  else if (a.type === "FLOAT" && b.type === "FLOAT") Object.assign(out, narrowNumbers(a, b, compareFloat, sameFloat));
  else if ((a.type === "STRING" || a.type === "PATH") && (b.type === "STRING" || b.type === "PATH")) Object.assign(out, narrowStrings(a, b));
  else if ((a.type === "LIST[STRING]" || a.type === "LIST[PATH]") && (b.type === "LIST[STRING]" || b.type === "LIST[PATH]")) {
    Object.assign(out, narrowLengths(a, b), { item: narrowItem(a.item, b.item, narrowStrings) });
  } else if (a.type === "LIST[INT]" && b.type === "LIST[INT]") {
    Object.assign(out, narrowLengths(a, b), { item: narrowItem(a.item, b.item, (x, y) => narrowNumbers(x, y, compareBig, sameBig)) });
  } else if (a.type === "LIST[FLOAT]" && b.type === "LIST[FLOAT]") {
    Object.assign(out, narrowLengths(a, b), { item: narrowItem(a.item, b.item, (x, y) => narrowNumbers(x, y, compareFloat, sameFloat)) });
  } else if (a.type === "LIST[LIST[INT]]" && b.type === "LIST[LIST[INT]]") {
    const item = narrowItem(a.item, b.item, (x, y) => ({
      ...narrowLengths(x, y),
      item: narrowItem(x.item, y.item, (p, q) => narrowNumbers(p, q, compareBig, sameBig)),
    }));
    Object.assign(out, narrowLengths(a, b), { item });
  } else if ((a.type === "RANGE_EXPR" && b.type === "RANGE_EXPR") || (a.type === "LIST[BOOL]" && b.type === "LIST[BOOL]")) {
    Object.assign(out, narrowLengths(a, b));
  }
  if ((a.type === "PATH" && b.type === "PATH") || (a.type === "LIST[PATH]" && b.type === "LIST[PATH]")) {
    Object.assign(out, { objectType: b.objectType ?? a.objectType, dataFlow: b.dataFlow ?? a.dataFlow });
  }
  return stripUndefined(out);
}

type Lengths = { minLength?: number; maxLength?: number };

function narrowLengths(a: Lengths, b: Lengths): Lengths {
  return { minLength: pick(a.minLength, b.minLength, Math.max), maxLength: pick(a.maxLength, b.maxLength, Math.min) };
}

function narrowStrings(a: Lengths & { allowedValues?: string[] }, b: Lengths & { allowedValues?: string[] }): Lengths & { allowedValues?: string[] } {
  return { ...narrowLengths(a, b), allowedValues: intersect(a.allowedValues, b.allowedValues, sameText) };
}

/** `item:` constraints merge like the definition's own; a side without `item:` constrains nothing. */
function narrowItem<T extends object>(a: T | undefined, b: T | undefined, merge: (x: T, y: T) => T): T | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return stripUndefined(merge(a, b));
}

function narrowNumbers<T>(
  a: { minValue?: T; maxValue?: T; allowedValues?: T[] },
  b: { minValue?: T; maxValue?: T; allowedValues?: T[] },
  compare: (x: T, y: T) => number,
  equal: (x: T, y: T) => boolean,
): { minValue?: T; maxValue?: T; allowedValues?: T[] } {
  return {
    minValue: pick(a.minValue, b.minValue, (x, y) => (compare(x, y) >= 0 ? x : y)),
    maxValue: pick(a.maxValue, b.maxValue, (x, y) => (compare(x, y) <= 0 ? x : y)),
    allowedValues: intersect(a.allowedValues, b.allowedValues, equal),
  };
}

function pick<T>(a: T | undefined, b: T | undefined, choose: (x: T, y: T) => T): T | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return choose(a, b);
}

function intersect<T>(a: T[] | undefined, b: T[] | undefined, equal: (x: T, y: T) => boolean): T[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return b.filter((x) => a.some((y) => equal(x, y)));
}

type Bound = bigint | FloatLiteral;

interface Level extends Lengths {
  allowedValues?: unknown[];
  minValue?: Bound;
  maxValue?: Bound;
}

/** Problems of a merged definition that no single template had: empty intersections, min above max. */
export function mergedDefinitionProblems(definition: JobParameterDefinition): string[] {
  const levels: Array<[prefix: string, level: Level | undefined]> = [["", definition as Level]];
  if ("item" in definition && definition.item) {
    levels.push(["item.", definition.item]);
    if ("item" in definition.item) levels.push(["item.item.", definition.item.item]);
  }
  return levels.flatMap(([prefix, level]) => (level ? levelProblems(definition.name, prefix, level) : []));
}

function levelProblems(name: string, prefix: string, level: Level): string[] {
  const problems: string[] = [];
  const value = (v: Bound) => (typeof v === "bigint" ? v : v.value);
  const text = (v: Bound) => (typeof v === "bigint" ? v.toString() : v.text);
  if (level.allowedValues !== undefined && level.allowedValues.length === 0) {
    problems.push(`the merged ${prefix}allowedValues of '${name}' are empty: the templates allow no common value`);
  }
  if (level.minValue !== undefined && level.maxValue !== undefined && value(level.minValue) > value(level.maxValue)) {
    problems.push(`the merged range of '${name}' is empty (${prefix}minValue ${text(level.minValue)} > ${prefix}maxValue ${text(level.maxValue)})`);
  }
  if (level.minLength !== undefined && level.maxLength !== undefined && level.minLength > level.maxLength) {
    problems.push(`the merged lengths of '${name}' are impossible (${prefix}minLength ${level.minLength} > ${prefix}maxLength ${level.maxLength})`);
  }
  return problems;
}
