/**
 * A step's `parameterSpace` (spec §3.4): task parameter definitions, their ranges and chunking,
 * and the combination expression. Literal ranges are checked fully here; format strings are
 * resolved and checked again at job creation.
 */
import { checkCombination, defaultCombination, parseCombination } from "../combination-expr";
import { isPlainLiteral, type FormatString } from "../format-string";
import type { ChunksDefinition, ParameterSpaceDefinition, Path, TaskParameterDefinition, TaskParameterRange, TaskParameterTypeName } from "../model";
import { TASK_PARAMETER_TYPES } from "../model";
import { IntRangeExpr } from "../range-expr";
import { kindName, type SourceNode } from "../source-node";
import { checkUnique, child, expectList, expectObject, field, namedItems, type ValidationContext } from "./context";
import { FLOAT, INT, RANGE_EXPR, STRING, listOf, union, type ExprType } from "../expr/types";
import { listItemTarget } from "../format-evaluation";
import { checkFormat, readFormat } from "./format-fields";
import { readIntField } from "./number-fields";
import { readEnum, readFloat, readIdentifier, readInt } from "./scalars";
import type { Scope } from "./scopes";

export const MAX_TASK_PARAMETERS = 16;
export const MAX_RANGE_VALUES = 1024;
export const MAX_TASK_STRING_LENGTH = 1024;

export function checkParameterSpace(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope): ParameterSpaceDefinition | null {
  const object = expectObject(ctx, node, path, { required: ["taskParameterDefinitions"], optional: ["combination"] });
  if (!object) return null;
  const before = ctx.sink.count;
  const definitionsNode = field(object, "taskParameterDefinitions");
  const listPath = child(path, "taskParameterDefinitions");
  const items = definitionsNode ? (expectList(ctx, definitionsNode, listPath, { max: MAX_TASK_PARAMETERS }) ?? []) : [];
  const definitions: TaskParameterDefinition[] = [];
  items.forEach((item, i) => {
    const definition = checkTaskParameter(ctx, item, child(listPath, i), scope);
    if (definition) definitions.push(definition);
  });
  const written = namedItems(items, listPath);
  checkUnique(ctx, written, "task parameter name");
  const names = written.map((d) => d.name);
  const allNamed = written.length === items.length;
  const chunked = ctx.has("TASK_CHUNKING") ? written.filter((d) => isChunkType(field(d.node, "type"))) : [];
  if (chunked.length > 1) {
    ctx.error(listPath, `a step may have at most one CHUNK[INT] parameter, found ${chunked.map((d) => d.name).join(", ")}`);
  }
  const combinationNode = field(object, "combination");
  let combination: string | undefined;
  if (combinationNode !== undefined) {
    const p = child(path, "combination");
    if (combinationNode.kind !== "string") ctx.error(p, `expected a string, got ${kindName(combinationNode)}`);
    else {
      combination = combinationNode.value;
      const parsed = parseCombination(combination);
      if (!parsed.ok) ctx.error(p, `${parsed.message} (at character ${parsed.offset + 1})`);
      else if (allNamed) {
        for (const problem of checkCombination(parsed.node, names, chunked[0]?.name)) ctx.error(p, problem);
      }
    }
  } else if (chunked.length === 1 && allNamed) {
    for (const problem of checkCombination(defaultCombination(names), names, chunked[0]?.name)) {
      ctx.error(path, problem);
    }
  }
  if (ctx.sink.count !== before) return null;
  const space: ParameterSpaceDefinition = { taskParameterDefinitions: definitions, path };
  if (combination !== undefined) space.combination = combination;
  return space;
}

function isChunkType(node: SourceNode | undefined): boolean {
  return node?.kind === "string" && node.value.toUpperCase() === "CHUNK[INT]";
}

function readTaskParameterType(ctx: ValidationContext, written: SourceNode, path: Path): TaskParameterTypeName | null {
  // With EXPR, type names are case-insensitive (RFC 0007), task parameters included.
  const node: SourceNode = ctx.has("EXPR") && written.kind === "string" && /^[A-Za-z[\]_]+$/.test(written.value) ? { ...written, value: written.value.toUpperCase() } : written;
  if (node.kind === "string" && node.value === "CHUNK[INT]" && !ctx.gate(path, "task parameter type CHUNK[INT]", "TASK_CHUNKING", false)) {
    return null;
  }
  if (node.kind === "string" && /^(BOOL|RANGE_EXPR|LIST\[.*\])$/i.test(node.value)) {
    ctx.gate(path, `task parameter type ${node.value}`, "EXPR", false);
    return null;
  }
  return readEnum(ctx, node, path, TASK_PARAMETER_TYPES);
}

function checkTaskParameter(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope): TaskParameterDefinition | null {
  const typeNode = node.kind === "object" ? field(node, "type") : undefined;
  const type = typeNode ? readTaskParameterType(ctx, typeNode, child(path, "type")) : null;
  // Written as CHUNK[INT] is enough: without TASK_CHUNKING the type alone is reported, not its chunks.
  const optional = isChunkType(typeNode) ? ["chunks"] : [];
  const object = expectObject(ctx, node, path, { required: ["name", "type", "range"], optional });
  if (!object) return null;
  const before = ctx.sink.count;
  const nameNode = field(object, "name");
  const name = nameNode && readIdentifier(ctx, nameNode, child(path, "name"), "task parameter name");
  const rangeNode = field(object, "range");
  const range = rangeNode && type ? checkRange(ctx, rangeNode, child(path, "range"), type, scope) : null;
  let chunks: ChunksDefinition | null = null;
  if (type === "CHUNK[INT]") {
    const chunksNode = field(object, "chunks");
    if (chunksNode === undefined) ctx.error(child(path, "chunks"), "a CHUNK[INT] parameter needs 'chunks'");
    else chunks = checkChunks(ctx, chunksNode, child(path, "chunks"), scope);
  }
  if (ctx.sink.count !== before || !name || !type || !range) return null;
  const definition: TaskParameterDefinition = { name, type, range, path };
  if (chunks) definition.chunks = chunks;
  return definition;
}

function checkChunks(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope): ChunksDefinition | null {
  const object = expectObject(ctx, node, path, { required: ["defaultTaskCount", "rangeConstraint"], optional: ["targetRuntimeSeconds"] });
  if (!object) return null;
  const countNode = field(object, "defaultTaskCount");
  const defaultTaskCount =
    countNode &&
    readIntField(ctx, countNode, child(path, "defaultTaskCount"), {
      stringsNeed: null,
      scope,
      check: (v) => (v >= 1n ? null : "defaultTaskCount must be at least 1"),
    });
  const targetNode = field(object, "targetRuntimeSeconds");
  const targetRuntimeSeconds =
    targetNode &&
    readIntField(ctx, targetNode, child(path, "targetRuntimeSeconds"), {
      stringsNeed: null,
      scope,
      check: (v) => (v >= 0n ? null : "targetRuntimeSeconds must be zero or greater"),
    });
  const constraintNode = field(object, "rangeConstraint");
  const rangeConstraint = constraintNode && readEnum(ctx, constraintNode, child(path, "rangeConstraint"), ["CONTIGUOUS", "NONCONTIGUOUS"] as const);
  if (!defaultTaskCount || !rangeConstraint || targetRuntimeSeconds === null) return null;
  const chunks: ChunksDefinition = { defaultTaskCount, rangeConstraint };
  if (targetRuntimeSeconds) chunks.targetRuntimeSeconds = targetRuntimeSeconds;
  return chunks;
}

function checkRange(ctx: ValidationContext, node: SourceNode, path: Path, type: TaskParameterTypeName, scope: Scope): TaskParameterRange | null {
  const isInt = type === "INT" || type === "CHUNK[INT]";
  if (node.kind === "string") {
    // With EXPR a FLOAT/STRING/PATH range may be one expression producing the list.
    const listExpression = ctx.has("EXPR") && /^\s*\{\{[\s\S]*\}\}\s*$/.test(node.value);
    if (!isInt && !listExpression) {
      ctx.error(path, `a ${type} range must be a list of values (range expressions are for INT parameters)`);
      return null;
    }
    const format = checkFormat(ctx, node.value, path, scope, rangeExpressionTarget(type));
    if (!format) return null;
    if (isPlainLiteral(format) && !checkRangeExpression(ctx, node.value, path)) return null;
    return { kind: "expression", format, path };
  }
  const items = expectList(ctx, node, path, { max: MAX_RANGE_VALUES });
  if (!items) return null;
  const out: Array<{ format: FormatString; literal: "int" | "float" | "string"; path: Path }> = [];
  items.forEach((item, i) => {
    const p = child(path, i);
    const entry = checkRangeItem(ctx, item, p, type, scope);
    if (entry) out.push({ ...entry, path: p });
  });
  return out.length === items.length ? { kind: "list", items: out, path } : null;
}

/** Returns true when a literal range expression is usable: parses and has 1..1024 values. */
export function checkRangeExpression(ctx: ValidationContext, text: string, path: Path): boolean {
  const parsed = IntRangeExpr.tryParse(text);
  if (!parsed.ok) {
    ctx.error(path, `invalid range expression: ${parsed.message}`);
    return false;
  }
  if (parsed.value.size > BigInt(MAX_RANGE_VALUES)) {
    ctx.error(path, `range expression '${text.length > 40 ? `${text.slice(0, 40)}…` : text}' has ${parsed.value.size} values; a task parameter may have at most ${MAX_RANGE_VALUES}`);
    return false;
  }
  return true;
}

/** The expression type of one value of a task parameter's range. */
export function rangeItemType(type: TaskParameterTypeName): ExprType {
  return type === "FLOAT" ? FLOAT : type === "STRING" || type === "PATH" ? STRING : INT;
}

/** What a range written as one EXPR expression may produce: integers also as a range expression. */
export function rangeExpressionTarget(type: TaskParameterTypeName): ExprType {
  return type === "INT" || type === "CHUNK[INT]" ? union([RANGE_EXPR, listOf(INT), INT]) : listOf(rangeItemType(type));
}

export function checkRangeItem(ctx: ValidationContext, item: SourceNode, path: Path, type: TaskParameterTypeName, scope: Scope): { format: FormatString; literal: "int" | "float" | "string" } | null {
  const literalText = (text: string, literal: "int" | "float" | "string") => ({ format: { raw: text, segments: [{ kind: "literal" as const, text }] }, literal });
  if (item.kind === "string" && item.value.includes("{{")) {
    const format = readFormat(ctx, item, path, scope, { max: type === "STRING" || type === "PATH" ? MAX_TASK_STRING_LENGTH : undefined }, listItemTarget(rangeItemType(type)));
    return format ? { format, literal: "string" } : null;
  }
  switch (type) {
    case "INT":
    case "CHUNK[INT]": {
      const value = readInt(ctx, item, path);
      return value === null ? null : literalText(value.toString(), "int");
    }
    case "FLOAT": {
      const value = readFloat(ctx, item, path);
      return value === null ? null : literalText(value.text, "float");
    }
    case "STRING":
    case "PATH": {
      const format = readFormat(ctx, item, path, scope, { min: 1, max: MAX_TASK_STRING_LENGTH });
      return format ? { format, literal: "string" } : null;
    }
  }
}
