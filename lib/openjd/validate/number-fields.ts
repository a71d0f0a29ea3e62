/**
 * Numeric fields that may also be written as strings or format strings: action timeouts and
 * notify periods and amount bounds (FEATURE_BUNDLE_1), chunk settings (TASK_CHUNKING). A format
 * string is checked in template scope here and resolved, then range-checked, at job creation.
 */
import type { ExtensionName } from "../extensions";
import type { FloatLiteral, NumberField, Path } from "../model";
import { parseFloatText, parseIntText } from "../numbers";
import { kindName, type SourceNode } from "../source-node";
import type { ValidationContext } from "./context";
import { FLOAT, INT, optional, type ExprType } from "../expr/types";
import { checkFormat } from "./format-fields";
import { readFloat, readInt } from "./scalars";
import type { Scope } from "./scopes";

export interface NumberFieldOptions<T> {
  /** The extension that allows strings and format strings here; null when they are always allowed. */
  stringsNeed: ExtensionName | null;
  scope: Scope;
  /** Range rule for a known value: null when fine, else the message. */
  check: (value: T) => string | null;
}

export function readIntField(ctx: ValidationContext, node: SourceNode, path: Path, options: NumberFieldOptions<bigint>): NumberField<bigint> | null {
  return readNumberField(ctx, node, path, options, {
    literal: (n) => (n.kind === "int" ? readInt(ctx, n, path, false) : undefined),
    text: parseIntText,
    noun: "an integer",
    type: INT,
  });
}

export function readFloatField(ctx: ValidationContext, node: SourceNode, path: Path, options: NumberFieldOptions<FloatLiteral>): NumberField<FloatLiteral> | null {
  return readNumberField(ctx, node, path, options, {
    literal: (n) => (n.kind === "int" || n.kind === "float" ? readFloat(ctx, n, path, false) : undefined),
    text: parseFloatText,
    noun: "a number",
    type: FLOAT,
  });
}

function readNumberField<T>(
  ctx: ValidationContext,
  node: SourceNode,
  path: Path,
  options: NumberFieldOptions<T>,
  read: {
    literal: (n: SourceNode) => T | null | undefined;
    text: (text: string) => { ok: true; value: T } | { ok: false; message: string };
    noun: string;
    type: ExprType;
  },
): NumberField<T> | null {
  const literal = read.literal(node);
  if (literal !== undefined) return literal === null ? null : checked(ctx, path, literal, options);
  if (node.kind !== "string") {
    ctx.error(path, `expected ${read.noun}, got ${kindName(node)}`);
    return null;
  }
  if (options.stringsNeed !== null && !ctx.gate(path, "a string or format string in this numeric field", options.stringsNeed, false)) {
    return null;
  }
  if (!node.value.includes("{{")) {
    const parsed = read.text(node.value);
    if (!parsed.ok) {
      ctx.error(path, parsed.message);
      return null;
    }
    return checked(ctx, path, parsed.value, options);
  }
  const format = checkFormat(ctx, node.value, path, options.scope, optional(read.type));
  return format === null ? null : { kind: "format", format, path };
}

function checked<T>(ctx: ValidationContext, path: Path, value: T, options: NumberFieldOptions<T>): NumberField<T> | null {
  const problem = options.check(value);
  if (problem !== null) {
    ctx.error(path, problem);
    return null;
  }
  return { kind: "literal", value, path };
}
