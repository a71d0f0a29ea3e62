/** Readers for scalar fields: each checks type, length and character rules and reports errors. */
import { kindName, type SourceNode } from "../source-node";
import type { FloatLiteral, Path } from "../model";
import { checkFinite, checkInt64, parseFloatText, parseIntText } from "../numbers";
import type { ValidationContext } from "./context";

/** C0 and C1 control characters (Unicode category Cc). */
/* eslint-disable no-control-regex -- the characters to refuse */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_EXCEPT_WHITESPACE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/* eslint-enable no-control-regex */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export interface StringRules {
  min?: number;
  max?: number;
  /** "all": no control characters; "description": newline, CR and tab allowed. */
  control?: "all" | "description";
}

export function checkStringRules(ctx: ValidationContext, value: string, path: Path, rules: StringRules): boolean {
  const length = rules.min !== undefined || rules.max !== undefined ? codePointLength(value) : 0;
  let ok = true;
  if (rules.min !== undefined && length < rules.min) {
    ctx.error(path, rules.min === 1 ? "must not be empty" : `must be at least ${rules.min} characters, is ${length}`);
    ok = false;
  }
  if (rules.max !== undefined && length > rules.max) {
    ctx.error(path, `must be at most ${rules.max} characters, is ${length}`);
    ok = false;
  }
  if (rules.control === "all" && CONTROL.test(value)) {
    ctx.error(path, "must not contain control characters (newline, tab, …)");
    ok = false;
  }
  if (rules.control === "description" && CONTROL_EXCEPT_WHITESPACE.test(value)) {
    ctx.error(path, "must not contain control characters other than newline, carriage return and tab");
    ok = false;
  }
  return ok;
}

/** A string field; returns the value even when a length/character rule failed (validation continues). */
export function readString(ctx: ValidationContext, node: SourceNode, path: Path, rules: StringRules = {}): string | null {
  if (node.kind !== "string") {
    ctx.error(path, `expected a string, got ${kindName(node)}`);
    return null;
  }
  checkStringRules(ctx, node.value, path, rules);
  return node.value;
}

export function readIdentifier(ctx: ValidationContext, node: SourceNode, path: Path, what = "name"): string | null {
  const value = readString(ctx, node, path, { min: 1, max: ctx.limits.identifierLength });
  if (value === null || value === "") return null;
  if (!IDENTIFIER.test(value)) {
    ctx.error(path, `${what} '${value}' must start with a letter or '_' and contain only letters, digits and '_'`);
    return null;
  }
  return value;
}

export function readEnum<T extends string>(ctx: ValidationContext, node: SourceNode, path: Path, values: readonly T[]): T | null {
  if (node.kind !== "string") {
    ctx.error(path, `expected one of ${values.join(", ")}, got ${kindName(node)}`);
    return null;
  }
  if (!(values as readonly string[]).includes(node.value)) {
    ctx.error(path, `'${node.value}' is not one of ${values.join(", ")}`);
    return null;
  }
  return node.value as T;
}

export function readBool(ctx: ValidationContext, node: SourceNode, path: Path): boolean | null {
  if (node.kind !== "bool") {
    ctx.error(path, `expected true or false, got ${kindName(node)}`);
    return null;
  }
  return node.value;
}

/** An `<integer>`; with `allowString`, also an `<intstring>` such as "42". int64 range enforced. */
export function readInt(ctx: ValidationContext, node: SourceNode, path: Path, allowString = true): bigint | null {
  if (node.kind === "int") {
    const checked = checkInt64(node.value);
    if (!checked.ok) ctx.error(path, checked.message);
    return checked.ok ? checked.value : null;
  }
  if (node.kind === "string" && allowString) {
    const parsed = parseIntText(node.value);
    if (!parsed.ok) ctx.error(path, parsed.message);
    return parsed.ok ? parsed.value : null;
  }
  ctx.error(path, `expected an integer${allowString ? " (or an integer string)" : ""}, got ${kindName(node)}${describeScalar(node)}`);
  return null;
}

/** A `<float>` (integers accepted) or a `<floatstring>`; infinities and NaN refused. */
export function readFloat(ctx: ValidationContext, node: SourceNode, path: Path, allowString = true): FloatLiteral | null {
  if (node.kind === "int") return { value: Number(node.value), text: node.text };
  if (node.kind === "float") {
    const checked = checkFinite({ value: node.value, text: node.text });
    if (!checked.ok) ctx.error(path, checked.message);
    return checked.ok ? checked.value : null;
  }
  if (node.kind === "string" && allowString) {
    const parsed = parseFloatText(node.value);
    if (!parsed.ok) ctx.error(path, parsed.message);
    return parsed.ok ? parsed.value : null;
  }
  ctx.error(path, `expected a number${allowString ? " (or a number string)" : ""}, got ${kindName(node)}${describeScalar(node)}`);
  return null;
}

function describeScalar(node: SourceNode): string {
  switch (node.kind) {
    case "float":
    case "int":
      return ` (${node.text})`;
    case "bool":
      return ` (${node.value})`;
    default:
      return "";
  }
}
