/** Validation of format-string fields: syntax, base-language limits and value-reference scope. */
import { requiresExtension } from "../extensions";
import { scanExprFormatString, isWholeFieldExpression, type ExprFormatSegment } from "../expr/format-string-expr";
import { STRING, type ExprType } from "../expr/types";
import { parseFormatString, type FormatSegment, type FormatString } from "../format-string";
import { checkExpression } from "./expressions";
import type { Path } from "../model";
import { kindName, type SourceNode } from "../source-node";
import type { ValidationContext } from "./context";
import { checkStringRules, type StringRules } from "./scalars";
import { explainUnavailable, type Scope } from "./scopes";

/**
 * Checks a format string's syntax and references; returns it when it is structurally usable.
 * With EXPR every expression is parsed and type-checked; `target` is the type a whole-field
 * expression (`"{{ expr }}"` and nothing else) must produce — text around expressions always
 * makes a string.
 */
export function checkFormat(ctx: ValidationContext, raw: string, path: Path, scope: Scope, target: ExprType | null = STRING): FormatString | null {
  if (ctx.has("EXPR")) return checkExprFormat(ctx, raw, path, scope, target);
  const parsed = parseFormatString(raw);
  if (!parsed.ok) {
    ctx.error(path, `invalid format string at character ${parsed.offset + 1}: ${parsed.message}`);
    return null;
  }
  let ok = true;
  for (const segment of parsed.value.segments) {
    if (segment.kind !== "expression") continue;
    if (segment.reference === null) {
      ctx.error(path, requiresExtension(`the expression '{{ ${segment.source} }}' (anything but a value reference)`, "EXPR"));
      ok = false;
    } else if (!scope.symbols.has(segment.reference) && ctx.declared.has("EXPR")) {
      // Under EXPR `Param.File.stem` is a property access, not an unknown name.
      ctx.error(path, requiresExtension(`the expression '{{ ${segment.source} }}'`, "EXPR"));
      ok = false;
    } else if (!scope.symbols.has(segment.reference)) {
      ctx.error(path, explainUnavailable(scope, segment.reference));
      ok = false;
    }
  }
  return ok ? parsed.value : null;
}

function checkExprFormat(ctx: ValidationContext, raw: string, path: Path, scope: Scope, target: ExprType | null): FormatString | null {
  const scanned = scanExprFormatString(raw);
  if (!scanned.ok) {
    ctx.error(path, `invalid format string at character ${scanned.offset + 1}: ${scanned.message}`);
    return null;
  }
  const whole = isWholeFieldExpression(scanned.segments);
  let ok = true;
  for (const segment of scanned.segments) {
    if (segment.kind === "expression" && checkExpression(ctx, segment.expr, scope, whole ? target : null, path, segment.sourceOffset) === null) ok = false;
  }
  return ok ? { raw, segments: scanned.segments.map(toFormatSegment) } : null;
}

/** An EXPR segment in the model's form: the parsed expression, and its reference when it is a dotted name. */
export function toFormatSegment(segment: ExprFormatSegment): FormatSegment {
  if (segment.kind === "literal") return segment;
  const source = segment.source.trim();
  const reference = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(source) ? source : null;
  return { kind: "expression", source, start: segment.start, reference, expr: segment.expr, sourceOffset: segment.sourceOffset };
}

/** A string field that is a format string. Length rules apply to the written text. */
export function readFormat(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope, rules: StringRules = {}, target: ExprType | null = STRING): FormatString | null {
  if (node.kind !== "string") {
    ctx.error(path, `expected a string, got ${kindName(node)}`);
    return null;
  }
  checkStringRules(ctx, node.value, path, rules);
  return checkFormat(ctx, node.value, path, scope, target);
}
