/**
 * Turning submitted parameter values into job parameter values: type coercion ("10" → 10 for
 * INT, "5" stays "5" for FLOAT), PATH resolution against the working or template directory,
 * and every constraint of the (merged) definition. The EXPR types are in expr-parameter-values.ts.
 */
import type { JobParameterDefinition } from "../model";
import { clip, compareBig, compareFloat, type Parsed } from "../numbers";
import { kindName, nodeFromValue, type SourceNode } from "../source-node";
import { codePointLength } from "../validate/scalars";
import { STRING_VALUE_MAX } from "../validate/parameter-constraints";
import { readFloatValue, readIntValue } from "../validate/parameter-value-rules";
import { coerceExprParameterValue, defaultExprParameterValue } from "./expr-parameter-values";
import { resolveDefaultPath, resolveSubmittedPath, type PathContext } from "./path-values";
import type { ParameterValue } from "./types";

export type { PathContext } from "./path-values";
export { parameterValueToJson } from "./expr-parameter-values";

export type ParameterInput = SourceNode | string | number | bigint | boolean | null | readonly ParameterInput[];

/** Coerces a submitted value and checks it against the definition. */
export function coerceParameterValue(definition: JobParameterDefinition, input: ParameterInput, paths: PathContext): Parsed<ParameterValue> {
  const node = nodeFromValue(input);
  switch (definition.type) {
    case "INT": {
      const parsed = readIntValue(node);
      if (!parsed.ok) return parsed;
      const problem = checkNumber(parsed.value, definition, compareBig, String);
      return problem ? { ok: false, message: problem } : { ok: true, value: { type: "INT", value: parsed.value.toString() } };
    }
    case "FLOAT": {
      const parsed = readFloatValue(node);
      if (!parsed.ok) return parsed;
      const problem = checkNumber(parsed.value, definition, compareFloat, (v) => v.text);
      return problem ? { ok: false, message: problem } : { ok: true, value: { type: "FLOAT", value: parsed.value.text } };
    }
    case "STRING":
    case "PATH": {
      const text = readText(node);
      if (!text.ok) return text;
      if (definition.type === "PATH") return checkText(resolveSubmittedPath(text.value, paths), definition, "PATH");
      return checkText(text.value, definition, "STRING");
    }
    default:
      return coerceExprParameterValue(definition, node, paths);
  }
}

/** The value of a parameter that was not submitted: its default, PATH defaults joined with the template directory. */
export function defaultParameterValue(definition: JobParameterDefinition, paths: PathContext): Parsed<ParameterValue> | null {
  if (definition.default === undefined) return null;
  switch (definition.type) {
    case "INT":
      return coerceParameterValue(definition, definition.default, paths);
    case "FLOAT":
      return coerceParameterValue(definition, { kind: "float", value: definition.default.value, text: definition.default.text, span: null }, paths);
    case "STRING":
      return coerceParameterValue(definition, definition.default, paths);
    case "PATH": {
      const resolved = resolveDefaultPath(definition.default, paths);
      return resolved.ok ? checkText(resolved.value, definition, "PATH") : resolved;
    }
    default:
      return defaultExprParameterValue(definition, paths);
  }
}

function readText(node: SourceNode): Parsed<string> {
  switch (node.kind) {
    case "string":
      return { ok: true, value: node.value };
    case "int":
    case "float":
      return { ok: true, value: node.text };
    default:
      return { ok: false, message: `expected a string, got ${kindName(node)}` };
  }
}

function checkNumber<T>(value: T, definition: { allowedValues?: T[]; minValue?: T; maxValue?: T }, compare: (a: T, b: T) => number, show: (v: T) => string): string | null {
  if (definition.minValue !== undefined && compare(value, definition.minValue) < 0) {
    return `${show(value)} is below the minimum ${show(definition.minValue)}`;
  }
  if (definition.maxValue !== undefined && compare(value, definition.maxValue) > 0) {
    return `${show(value)} is above the maximum ${show(definition.maxValue)}`;
  }
  if (definition.allowedValues && !definition.allowedValues.some((a) => compare(a, value) === 0)) {
    return `${show(value)} is not one of the allowed values (${definition.allowedValues.map(show).join(", ")})`;
  }
  return null;
}

function checkText(value: string, definition: { allowedValues?: string[]; minLength?: number; maxLength?: number }, type: "STRING" | "PATH"): Parsed<ParameterValue> {
  const length = codePointLength(value);
  if (length > STRING_VALUE_MAX) return { ok: false, message: `the value is ${length} characters long; at most ${STRING_VALUE_MAX} are allowed` };
  if (definition.minLength !== undefined && length < definition.minLength) {
    return { ok: false, message: `'${clip(value)}' is shorter than the minimum length ${definition.minLength}` };
  }
  if (definition.maxLength !== undefined && length > definition.maxLength) {
    return { ok: false, message: `'${clip(value)}' is longer than the maximum length ${definition.maxLength}` };
  }
  if (definition.allowedValues && !definition.allowedValues.includes(value)) {
    return { ok: false, message: `'${clip(value)}' is not one of the allowed values (${definition.allowedValues.map((v) => `'${clip(v)}'`).join(", ")})` };
  }
  return { ok: true, value: { type, value } };
}
