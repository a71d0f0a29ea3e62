/**
 * Turning submitted parameter values into job parameter values: type coercion ("10" → 10 for
 * INT, "5" stays "5" for FLOAT), PATH resolution against the working or template directory,
 * and every constraint of the (merged) definition.
 */
import type { FloatLiteral, JobParameterDefinition, PathParameterDefinition } from "../model";
import { checkFinite, checkInt64, clip, parseFloatText, parseIntText, type Parsed } from "../numbers";
import { joinPath, looksAbsoluteOnAnyPlatform, normalizePath, type PathFlavor } from "../paths";
import { kindName, nodeFromValue, type SourceNode } from "../source-node";
import { codePointLength } from "../validate/scalars";
import { STRING_VALUE_MAX } from "../validate/parameter-definitions";
import type { ParameterValue } from "./types";

export type ParameterInput = SourceNode | string | number | bigint | boolean | null;

export interface PathContext {
  /** Directory of the job template: relative PATH defaults are joined with it. */
  templateDir?: string;
  /** Directory the submitter works in: relative submitted PATH values are joined with it. */
  workingDir?: string;
  flavor: PathFlavor;
}

export function toNode(input: ParameterInput): SourceNode {
  return nodeFromValue(input);
}

/** Coerces a submitted value and checks it against the definition. */
export function coerceParameterValue(definition: JobParameterDefinition, input: ParameterInput, paths: PathContext): Parsed<ParameterValue> {
  const node = toNode(input);
  switch (definition.type) {
    case "INT": {
      const parsed = readInt(node);
      if (!parsed.ok) return parsed;
      const problem = checkNumber(parsed.value, definition, (a, b) => (a < b ? -1 : a > b ? 1 : 0), String);
      return problem ? { ok: false, message: problem } : { ok: true, value: { type: "INT", value: parsed.value.toString() } };
    }
    case "FLOAT": {
      const parsed = readFloat(node);
      if (!parsed.ok) return parsed;
      const problem = checkNumber(parsed.value, definition, (a, b) => a.value - b.value, (v) => v.text);
      return problem ? { ok: false, message: problem } : { ok: true, value: { type: "FLOAT", value: parsed.value.text } };
    }
    case "STRING":
    case "PATH": {
      const text = readText(node);
      if (!text.ok) return text;
      if (definition.type === "PATH") {
        const resolved = resolvePathValue(text.value, paths);
        return checkText(resolved, definition, "PATH");
      }
      return checkText(text.value, definition, "STRING");
    }
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
    case "PATH":
      return resolvePathDefault(definition, paths);
  }
}

function resolvePathDefault(definition: PathParameterDefinition, paths: PathContext): Parsed<ParameterValue> {
  const raw = definition.default ?? "";
  if (raw === "") return checkText(raw, definition, "PATH");
  if (looksAbsoluteOnAnyPlatform(raw)) {
    return { ok: false, message: `the default '${clip(raw)}' is an absolute path; PATH defaults must be relative to the job template's directory` };
  }
  const normalized = normalizePath(raw, paths.flavor);
  if (normalized.escapes) {
    return { ok: false, message: `the default '${clip(raw)}' leads outside the job template's directory` };
  }
  const value = paths.templateDir === undefined ? normalized.path : joinPath(paths.templateDir, raw, paths.flavor);
  return checkText(value, definition, "PATH");
}

function resolvePathValue(value: string, paths: PathContext): string {
  // Without EXPR a URI-looking value is just a relative path string (conformance 2.2--path-uri-without-expr).
  if (value === "" || paths.workingDir === undefined) return value;
  return joinPath(paths.workingDir, value, paths.flavor);
}

function readInt(node: SourceNode): Parsed<bigint> {
  if (node.kind === "int") return checkInt64(node.value);
  if (node.kind === "string") return parseIntText(node.value);
  return { ok: false, message: `expected an integer, got ${kindName(node)}${node.kind === "float" ? ` (${node.text})` : ""}` };
}

function readFloat(node: SourceNode): Parsed<FloatLiteral> {
  if (node.kind === "int") return { ok: true, value: { value: Number(node.value), text: node.text } };
  if (node.kind === "float") return checkFinite({ value: node.value, text: node.text });
  if (node.kind === "string") return parseFloatText(node.value);
  return { ok: false, message: `expected a number, got ${kindName(node)}` };
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

function checkNumber<T>(
  value: T,
  definition: { allowedValues?: T[]; minValue?: T; maxValue?: T },
  compare: (a: T, b: T) => number,
  show: (v: T) => string,
): string | null {
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

function checkText(
  value: string,
  definition: { allowedValues?: string[]; minLength?: number; maxLength?: number },
  type: "STRING" | "PATH",
): Parsed<ParameterValue> {
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
