/**
 * EXPR `let` bindings (spec digest §5.4): an ordered list of `name = expression`, each checked
 * in the scope of the ones before it. Names start lowercase or with `_`, are unique, and may not
 * shadow a name already in scope; a binding cannot refer to itself.
 */
import { parseLetBinding } from "../expr/parser";
import type { ExprType } from "../expr/types";
import type { LetBinding, Path } from "../model";
import type { SourceNode } from "../source-node";
import { child, expectList, type ValidationContext } from "./context";
import { checkExpression } from "./expressions";
import { readString } from "./scalars";
import { scopeWithSymbols, type Scope } from "./scopes";

export const MAX_LET_BINDINGS = 50;
const LET_NAME_MAX = 512;

export interface CheckedLets {
  bindings: LetBinding[];
  /** Every binding's name and type, including ones that failed (as `any`), so later references don't cascade. */
  types: Map<string, ExprType>;
}

export function checkLets(ctx: ValidationContext, node: SourceNode | undefined, path: Path, scope: Scope): CheckedLets {
  const result: CheckedLets = { bindings: [], types: new Map() };
  if (node === undefined || !ctx.has("EXPR")) return result;
  const items = expectList(ctx, node, path, { max: MAX_LET_BINDINGS }) ?? [];
  items.forEach((item, i) => {
    const p = child(path, i);
    const text = readString(ctx, item, p, { min: 1 });
    if (text === null) return;
    const parsed = parseLetBinding(text);
    if (!parsed.ok) {
      ctx.error(p, `invalid let binding at character ${parsed.error.span.start + 1}: ${parsed.error.message}`);
      return;
    }
    const { name, expr, exprOffset } = parsed;
    if (name.length > LET_NAME_MAX) ctx.error(p, `the name '${name.slice(0, 20)}…' is longer than ${LET_NAME_MAX} characters`);
    const visible = scopeWithSymbols(scope, result.types);
    if (result.types.has(name)) {
      ctx.error(p, `'${name}' is bound twice in this let block`);
      return;
    }
    if (visible.types.has(name)) {
      ctx.error(p, `'${name}' would shadow a name that is already in scope`);
      return;
    }
    if (referencesName(text.slice(exprOffset), name)) {
      ctx.error(p, `let binding '${name}' refers to itself`);
      result.types.set(name, { code: "any" });
      return;
    }
    const type = checkExpression(ctx, expr, visible, null, p, exprOffset);
    result.types.set(name, type ?? { code: "any" });
    if (type !== null) result.bindings.push({ name, expr, source: text, path: p });
  });
  return result;
}

/** Whether `name` appears as a bare identifier outside string literals (a self-reference). */
function referencesName(expression: string, name: string): boolean {
  const withoutStrings = expression.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
  return new RegExp(`(^|[^A-Za-z0-9_.])${name}(?![A-Za-z0-9_])`).test(withoutStrings);
}
