/** Validation of format-string fields: syntax, base-language limits and value-reference scope. */
import { requiresExtension } from "../extensions";
import { parseFormatString, type FormatString } from "../format-string";
import type { Path } from "../model";
import { kindName, type SourceNode } from "../source-node";
import type { ValidationContext } from "./context";
import { checkStringRules, type StringRules } from "./scalars";
import { explainUnavailable, type Scope } from "./scopes";

/** Checks a format string's syntax and references; returns it when it is structurally usable. */
export function checkFormat(ctx: ValidationContext, raw: string, path: Path, scope: Scope): FormatString | null {
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

/** A string field that is a format string. Length rules apply to the written text. */
export function readFormat(
  ctx: ValidationContext,
  node: SourceNode,
  path: Path,
  scope: Scope,
  rules: StringRules = {},
): FormatString | null {
  if (node.kind !== "string") {
    ctx.error(path, `expected a string, got ${kindName(node)}`);
    return null;
  }
  checkStringRules(ctx, node.value, path, rules);
  return checkFormat(ctx, node.value, path, scope);
}
