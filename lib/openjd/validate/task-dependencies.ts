/**
 * A step's `dependencies`, with TASK_DEPENDENCIES subspaces (contract TASK_DEPENDENCIES.md §1,
 * §2.2, §3): which tasks of the upstream step a task waits for. Entry names are checked against
 * the upstream step's task parameters as written, and ranges are type-checked in the dependency
 * scope: the step's template scope, the downstream task's own parameters and every step's
 * `Step.<S>.ParameterSpace.<P>.Range`.
 */
import { FLOAT, listOf, PATH, RANGE_EXPR, STRING, union, type ExprType } from "../expr/types";
import { isPlainLiteral } from "../format-string";
import type { DependencySubspace, Path, SubspaceEntry, SubspaceMode, TaskDependency, TaskParameterRange, TaskParameterTypeName } from "../model";
import { TASK_PARAMETER_TYPES } from "../model";
import { IntRangeExpr } from "../range-expr";
import { kindName, type SourceNode } from "../source-node";
import { child, expectList, expectObject, field, type ValidationContext } from "./context";
import { checkFormat } from "./format-fields";
import { IDENTIFIER, readIdentifier, readString } from "./scalars";
import { parameterExprType, scopeWithSymbols, suggest, type Scope, type TaskParameterSymbol } from "./scopes";
import { checkRangeItem, MAX_RANGE_VALUES, rangeExpressionTarget, rangeItemType } from "./task-parameters";

/** Every step's task parameters as written, by step name (the first step of a name). */
export type StepCatalogue = ReadonlyMap<string, readonly TaskParameterSymbol[]>;

export interface ReadDependencies {
  names: string[];
  taskDependencies: TaskDependency[];
}

/** `Step.<S>` can name a step only when S is an identifier other than `Name` (that is `Step.Name`). */
function isReferableStepName(name: string): boolean {
  return IDENTIFIER.test(name) && name !== "Name";
}

/** The scope a subspace range is evaluated in, once per downstream task (contract §3). */
export function dependencyScope(stepScope: Scope, own: readonly TaskParameterSymbol[], steps: StepCatalogue, expr: boolean): Scope {
  const extra = new Map<string, ExprType>();
  for (const t of own) {
    // Dependencies are decided per frame: a chunked parameter is one integer here.
    const type = t.type.toUpperCase() === "CHUNK[INT]" ? "INT" : t.type.toUpperCase();
    extra.set(`Task.Param.${t.name}`, parameterExprType(type, false));
    extra.set(`Task.RawParam.${t.name}`, parameterExprType(type, true));
  }
  for (const [step, parameters] of steps) {
    if (!isReferableStepName(step)) continue;
    for (const p of parameters) extra.set(`Step.${step}.ParameterSpace.${p.name}.Range`, rangeValuesType(p.type, expr));
  }
  return scopeWithSymbols(stepScope, extra);
}

/** `Step.S.ParameterSpace.P.Range`: a range_expr for integers (its text without EXPR), else a list. */
function rangeValuesType(written: string, expr: boolean): ExprType {
  const type = written.toUpperCase();
  if (type === "INT" || type === "CHUNK[INT]") return expr ? RANGE_EXPR : STRING;
  return listOf(type === "FLOAT" ? FLOAT : STRING);
}

/** `makeScope` makes the dependency scope (dependencyScope), asked for once and only when a subspace is read. */
export function readDependencies(ctx: ValidationContext, node: SourceNode | undefined, path: Path, steps: StepCatalogue, makeScope: () => Scope): ReadDependencies {
  const result: ReadDependencies = { names: [], taskDependencies: [] };
  if (node === undefined) return result;
  let made: Scope | undefined;
  const scope = (): Scope => (made ??= makeScope());
  const items = expectList(ctx, node, path) ?? [];
  items.forEach((item, i) => {
    const itemPath = child(path, i);
    // The seed's spelling: accepted by no one, answered with the right name.
    const misspelled = item.kind === "object" && field(item, "parameterSubspace") !== undefined;
    if (misspelled) ctx.error(child(itemPath, "parameterSubspace"), "unknown field 'parameterSubspace'; a dependency's subspace is written 'dependsOnSubspace' (extension TASK_DEPENDENCIES)", true);
    const dep = expectObject(ctx, item, itemPath, {
      required: ["dependsOn"],
      optional: misspelled ? ["parameterSubspace"] : [],
      gated: { dependsOnSubspace: "TASK_DEPENDENCIES" },
    });
    const target = dep && field(dep, "dependsOn");
    const name = target && readString(ctx, target, child(itemPath, "dependsOn"), { min: 1 });
    if (!name) return;
    result.names.push(name);
    const subspaceNode = ctx.has("TASK_DEPENDENCIES") && dep ? field(dep, "dependsOnSubspace") : undefined;
    if (subspaceNode === undefined) return;
    const subspace = readSubspace(ctx, subspaceNode, child(itemPath, "dependsOnSubspace"), name, steps.get(name), scope());
    if (subspace) result.taskDependencies.push({ dependsOn: name, subspace, path: itemPath });
  });
  return result;
}

function readSubspace(ctx: ValidationContext, node: SourceNode, path: Path, upstream: string, parameters: readonly TaskParameterSymbol[] | undefined, scope: Scope): DependencySubspace | null {
  let mode: SubspaceMode = "allOf";
  let listNode: SourceNode | undefined = node;
  let listPath = path;
  if (node.kind === "object") {
    const object = expectObject(ctx, node, path, { optional: ["allOf", "anyOf"] });
    const keys = object ? object.entries.map((e) => e.key).filter((k) => k === "allOf" || k === "anyOf") : [];
    if (keys.length !== 1) {
      ctx.error(path, keys.length === 0 ? "expected exactly one of 'allOf' or 'anyOf'" : "give either 'allOf' or 'anyOf', not both");
      return null;
    }
    mode = keys[0] as SubspaceMode;
    listNode = field(node, mode);
    listPath = child(path, mode);
  } else if (node.kind !== "array") {
    ctx.error(path, `expected a list of {name, range} entries, or a mapping with 'allOf' or 'anyOf', got ${kindName(node)}`);
    return null;
  }
  const items = (listNode && expectList(ctx, listNode, listPath)) ?? [];
  const before = ctx.sink.count;
  const seen = new Set<string>();
  const entries: SubspaceEntry[] = [];
  items.forEach((item, i) => {
    const entry = readEntry(ctx, item, child(listPath, i), upstream, parameters, scope, seen);
    if (entry) entries.push(entry);
  });
  if (ctx.sink.count !== before || entries.length === 0) return null;
  return { mode, entries, path };
}

function readEntry(
  ctx: ValidationContext,
  node: SourceNode,
  path: Path,
  upstream: string,
  parameters: readonly TaskParameterSymbol[] | undefined,
  scope: Scope,
  seen: Set<string>,
): SubspaceEntry | null {
  const object = expectObject(ctx, node, path, { required: ["name", "range"] });
  if (!object) return null;
  const nameNode = field(object, "name");
  const namePath = child(path, "name");
  const name = nameNode && readIdentifier(ctx, nameNode, namePath, "task parameter name");
  let type: TaskParameterTypeName | null = null;
  if (name) {
    if (seen.has(name)) ctx.error(namePath, `task parameter '${name}' is named twice in this subspace`);
    seen.add(name);
    // An unknown upstream step is reported at dependsOn; its parameters cannot be known here.
    if (parameters !== undefined) type = upstreamType(ctx, name, namePath, upstream, parameters);
  }
  const rangeNode = field(object, "range");
  const range = rangeNode && readSubspaceRange(ctx, rangeNode, child(path, "range"), type, scope);
  return name && range ? { name, range, path } : null;
}

function upstreamType(ctx: ValidationContext, name: string, path: Path, upstream: string, parameters: readonly TaskParameterSymbol[]): TaskParameterTypeName | null {
  const parameter = parameters.find((p) => p.name === name);
  if (parameter) {
    const type = parameter.type.toUpperCase();
    return (TASK_PARAMETER_TYPES as readonly string[]).includes(type) ? (type as TaskParameterTypeName) : null;
  }
  if (parameters.length === 0) {
    ctx.error(path, `step '${upstream}' has no task parameters, so '${name}' cannot select any of its tasks (leave out 'dependsOnSubspace' to wait for the whole step)`);
    return null;
  }
  const close = suggest(
    name,
    parameters.map((p) => p.name),
  );
  const hint = close.length > 0 ? `; did you mean ${close.map((c) => `'${c}'`).join(" or ")}?` : ` (it has ${parameters.map((p) => `'${p.name}'`).join(", ")})`;
  ctx.error(path, `'${name}' is not a task parameter of step '${upstream}'${hint}`);
  return null;
}

/** A range: one format string (contract §1.1), or a list of values; `type` is null when unknown. */
function readSubspaceRange(ctx: ValidationContext, node: SourceNode, path: Path, type: TaskParameterTypeName | null, scope: Scope): TaskParameterRange | null {
  if (node.kind === "string") {
    if (!checkStepReferences(ctx, node.value, path)) return null;
    const format = checkFormat(ctx, node.value, path, scope, type === null ? null : stringRangeTarget(type));
    if (!format) return null;
    if ((type === "INT" || type === "CHUNK[INT]") && isPlainLiteral(format)) {
      const parsed = IntRangeExpr.tryParse(node.value);
      if (!parsed.ok) {
        ctx.error(path, `invalid range expression: ${parsed.message}`);
        return null;
      }
    } else if (type !== null && isPlainLiteral(format) && !checkRangeItem(ctx, node, path, type, scope)) {
      // One FLOAT, STRING or PATH value written out: checked as a list item of that type is.
      return null;
    }
    return { kind: "expression", format, path };
  }
  const items = expectList(ctx, node, path, { max: MAX_RANGE_VALUES });
  if (!items) return null;
  const out: Extract<TaskParameterRange, { kind: "list" }>["items"] = [];
  items.forEach((item, i) => {
    const p = child(path, i);
    if (item.kind === "string" && !checkStepReferences(ctx, item.value, p)) return;
    const entry = type === null ? untypedItem(ctx, item, p, scope) : checkRangeItem(ctx, item, p, type, scope);
    if (entry) out.push({ ...entry, path: p });
  });
  return out.length === items.length ? { kind: "list", items: out, path } : null;
}

/** What a whole-field expression in a string range may produce (contract §1.1). */
function stringRangeTarget(type: TaskParameterTypeName): ExprType {
  if (type === "INT" || type === "CHUNK[INT]") return rangeExpressionTarget(type);
  const item = type === "PATH" ? union([STRING, PATH]) : rangeItemType(type);
  return union([item, listOf(item)]);
}

/** An item whose parameter is unknown (already reported): only its own syntax and references are checked. */
function untypedItem(ctx: ValidationContext, item: SourceNode, path: Path, scope: Scope) {
  if (item.kind === "string") {
    const format = checkFormat(ctx, item.value, path, scope, null);
    return format && { format, literal: "string" as const };
  }
  if (item.kind === "int" || item.kind === "float") {
    return { format: { raw: item.text, segments: [{ kind: "literal" as const, text: item.text }] }, literal: item.kind };
  }
  ctx.error(path, `expected a value, got ${kindName(item)}`);
  return null;
}

/**
 * `Step.<S>.ParameterSpace…` with an S that cannot be a step reference gets its own message,
 * before the expression parser reports something less helpful about the same text.
 */
function checkStepReferences(ctx: ValidationContext, text: string, path: Path): boolean {
  let ok = true;
  // The name runs to the first dot: `Step.Name == 'B' else Step.A.ParameterSpace` is two references, not one.
  for (const match of text.matchAll(/\bStep\.([^.]*?)\.ParameterSpace\b/g)) {
    const name = match[1] ?? "";
    if (isReferableStepName(name)) continue;
    const why = name === "Name" ? "'Step.Name' is the current step's name" : `'${name}' is not an identifier`;
    ctx.error(path, `step '${name}' cannot be named in Step.<S>.ParameterSpace: ${why}; only steps whose names are identifiers other than 'Name' can be referenced (rename the step)`);
    ok = false;
  }
  return ok;
}
