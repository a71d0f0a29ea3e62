/**
 * Merging parameter definitions across environment templates and the job template (spec §1.2.1):
 * one namespace, processed in order with the job template last. Types must agree, constraints
 * only narrow, and the last default wins; the merged definition must be consistent.
 */
import type { FloatLiteral, JobParameterDefinition, Path } from "../model";
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
  if (a.type === "PATH" && b.type === "PATH") {
    if (a.objectType && b.objectType && a.objectType !== b.objectType) {
      return `PATH parameter '${b.name}' has objectType ${b.objectType} here but ${a.objectType} in an earlier template`;
    }
    if (a.dataFlow && b.dataFlow && a.dataFlow !== b.dataFlow) {
      return `PATH parameter '${b.name}' has dataFlow ${b.dataFlow} here but ${a.dataFlow} in an earlier template`;
    }
  }
  return null;
}

const compareBig = (x: bigint, y: bigint) => (x < y ? -1 : x > y ? 1 : 0);
const compareFloat = (x: FloatLiteral, y: FloatLiteral) => x.value - y.value;

/** The later definition `b` narrows `a`; descriptive fields come from the later definition when given. */
function narrow(a: JobParameterDefinition, b: JobParameterDefinition): JobParameterDefinition {
  const out = { ...a, ...b } as JobParameterDefinition & Record<string, unknown>;
  out.path = b.path;
  if (b.default === undefined && a.default !== undefined) (out as { default?: unknown }).default = a.default;
  if (b.description === undefined && a.description !== undefined) out.description = a.description;
  if (b.userInterface === undefined && a.userInterface !== undefined) out.userInterface = a.userInterface as never;
  if (a.type === "INT" && b.type === "INT") {
    Object.assign(out, narrowNumbers(a, b, compareBig, (x, y) => x === y));
  } else if (a.type === "FLOAT" && b.type === "FLOAT") {
    Object.assign(out, narrowNumbers(a, b, compareFloat, (x, y) => x.value === y.value));
  } else if ((a.type === "STRING" || a.type === "PATH") && (b.type === "STRING" || b.type === "PATH")) {
    Object.assign(out, {
      minLength: pick(a.minLength, b.minLength, Math.max),
      maxLength: pick(a.maxLength, b.maxLength, Math.min),
      allowedValues: intersect(a.allowedValues, b.allowedValues, (x, y) => x === y),
    });
    if (a.type === "PATH" && b.type === "PATH") {
      Object.assign(out, { objectType: b.objectType ?? a.objectType, dataFlow: b.dataFlow ?? a.dataFlow });
    }
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out;
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

/** Problems of a merged definition that no single template had: empty intersections, min above max. */
export function mergedDefinitionProblems(definition: JobParameterDefinition): string[] {
  const problems: string[] = [];
  if (definition.allowedValues !== undefined && definition.allowedValues.length === 0) {
    problems.push(`the merged allowedValues of '${definition.name}' are empty: the templates allow no common value`);
  }
  if (definition.type === "INT" && definition.minValue !== undefined && definition.maxValue !== undefined && definition.minValue > definition.maxValue) {
    problems.push(`the merged range of '${definition.name}' is empty (minValue ${definition.minValue} > maxValue ${definition.maxValue})`);
  }
  if (definition.type === "FLOAT" && definition.minValue && definition.maxValue && definition.minValue.value > definition.maxValue.value) {
    problems.push(`the merged range of '${definition.name}' is empty (minValue ${definition.minValue.text} > maxValue ${definition.maxValue.text})`);
  }
  if ((definition.type === "STRING" || definition.type === "PATH") && definition.minLength !== undefined && definition.maxLength !== undefined && definition.minLength > definition.maxLength) {
    problems.push(`the merged lengths of '${definition.name}' are impossible (minLength ${definition.minLength} > maxLength ${definition.maxLength})`);
  }
  return problems;
}
