/**
 * Definitions of the EXPR-only job parameter types (spec §2.9–§2.16): BOOL, RANGE_EXPR and the
 * LIST[...] types. List-level minLength/maxLength count items; `item:` carries the constraints of
 * the scalar type it holds (for LIST[LIST[INT]], `item.item:` those of the integers). A default
 * must satisfy every constraint, checked with the same rules as a submitted value.
 */
import type { IntItemConstraints, JobParameterDefinition, JobParameterType, ListParameterDefinition, Path, RangeExprParameterDefinition } from "../model";
import { EXPR_JOB_PARAMETER_TYPES } from "../model";
import { compareBig, compareFloat } from "../numbers";
import type { ObjectNode, SourceNode } from "../source-node";
import { stripUndefined } from "../strip-undefined";
import { child, expectObject, field, type ValidationContext } from "./context";
import { checkRangeExprText, listProblems, readBoolValue, readListValue, type ItemProblem } from "./parameter-value-rules";
import { numberConstraints, readLengths, readPathFields, stringConstraints } from "./parameter-constraints";
import { readFloat, readInt, readString } from "./scalars";

export type ExprParameterType = (typeof EXPR_JOB_PARAMETER_TYPES)[number];

const LIST_FIELDS = ["minLength", "maxLength", "item"];

/** Fields besides name, type, description, default and userInterface. */
export const EXPR_FIELDS: Record<ExprParameterType, string[]> = {
  BOOL: [],
  RANGE_EXPR: ["minLength", "maxLength"],
  "LIST[STRING]": LIST_FIELDS,
  "LIST[PATH]": [...LIST_FIELDS, "objectType", "dataFlow"],
  "LIST[INT]": LIST_FIELDS,
  "LIST[FLOAT]": LIST_FIELDS,
  // `item` is accepted here only to explain that LIST[BOOL] has no item constraints.
  "LIST[BOOL]": LIST_FIELDS,
  "LIST[LIST[INT]]": LIST_FIELDS,
};

export function isExprParameterType(type: JobParameterType): type is ExprParameterType {
  return (EXPR_JOB_PARAMETER_TYPES as readonly string[]).includes(type);
}

interface Base {
  name: string;
  path: Path;
  description?: string;
}

export function checkExprDefinition(ctx: ValidationContext, node: ObjectNode, path: Path, base: Base, type: ExprParameterType): JobParameterDefinition {
  const defaultNode = field(node, "default");
  const defaultPath = child(path, "default");
  switch (type) {
    case "BOOL": {
      const parsed = defaultNode === undefined ? undefined : readBoolValue(defaultNode);
      if (parsed && !parsed.ok) ctx.error(defaultPath, parsed.message);
      return { ...base, type, ...(parsed?.ok ? { default: parsed.value } : {}) };
    }
    case "RANGE_EXPR": {
      const definition: RangeExprParameterDefinition = stripUndefined({ ...base, type, ...readLengths(ctx, node, path, 1) });
      const text = defaultNode === undefined ? null : readString(ctx, defaultNode, defaultPath);
      if (text !== null) {
        const checked = checkRangeExprText(definition, text);
        if (checked.ok) definition.default = text;
        else ctx.error(defaultPath, checked.message);
      }
      return definition;
    }
    default:
      return checkListDefinition(ctx, node, path, base, type);
  }
}

function checkListDefinition(ctx: ValidationContext, node: ObjectNode, path: Path, base: Base, type: ListParameterDefinition["type"]): JobParameterDefinition {
  const lengths = readLengths(ctx, node, path, 0);
  const itemNode = field(node, "item");
  const itemPath = child(path, "item");
  let definition: ListParameterDefinition;
  switch (type) {
    case "LIST[STRING]":
    case "LIST[PATH]": {
      const item = itemNode && readItem(ctx, itemNode, itemPath, ["allowedValues", "minLength", "maxLength"], (n) => stringConstraints(ctx, n, itemPath, "item.").fields);
      definition = type === "LIST[STRING]" ? { ...base, type, ...lengths, item } : { ...base, type, ...lengths, item, ...readPathFields(ctx, node, path) };
      break;
    }
    case "LIST[INT]":
      definition = { ...base, type, ...lengths, item: itemNode && readIntItem(ctx, itemNode, itemPath, "item.") };
      break;
    case "LIST[FLOAT]": {
      const read = (n: SourceNode, p: Path) => readFloat(ctx, n, p);
      const item = itemNode && readItem(ctx, itemNode, itemPath, ["allowedValues", "minValue", "maxValue"], (n) => numberConstraints(ctx, n, itemPath, read, compareFloat, "item.").fields);
      definition = { ...base, type, ...lengths, item };
      break;
    }
    case "LIST[BOOL]":
      if (itemNode) ctx.error(itemPath, "LIST[BOOL] takes no item constraints (a boolean has none)", true);
      definition = { ...base, type, ...lengths };
      break;
    case "LIST[LIST[INT]]": {
      const item =
        itemNode &&
        readItem(ctx, itemNode, itemPath, ["minLength", "maxLength", "item"], (n) => {
          const inner = field(n, "item");
          return { ...readLengths(ctx, n, itemPath, 0), item: inner && readIntItem(ctx, inner, child(itemPath, "item"), "item.item.") };
        });
      definition = { ...base, type, ...lengths, item };
      break;
    }
  }
  definition = stripUndefined(definition);
  const defaultNode = field(node, "default");
  if (defaultNode !== undefined) {
    const defaultPath = child(path, "default");
    const read = readListValue(type, defaultNode);
    const report = (problems: ItemProblem[]) => problems.forEach((p) => ctx.error([...defaultPath, ...p.at], p.message));
    if (!read.ok) report(read.problems);
    else {
      const problems = listProblems(definition, read.items);
      report(problems);
      if (problems.length === 0) (definition as { default?: unknown }).default = read.items;
    }
  }
  return definition;
}

function readIntItem(ctx: ValidationContext, node: SourceNode, path: Path, prefix: string): IntItemConstraints | undefined {
  const read = (n: SourceNode, p: Path) => readInt(ctx, n, p);
  return readItem(ctx, node, path, ["allowedValues", "minValue", "maxValue"], (n) => numberConstraints(ctx, n, path, read, compareBig, prefix).fields);
}

/** An `item:` mapping with the given keys; its fields without the ones left out. */
function readItem<T extends object>(ctx: ValidationContext, node: SourceNode, path: Path, keys: string[], read: (node: ObjectNode) => T): T | undefined {
  const object = expectObject(ctx, node, path, { optional: keys });
  return object ? stripUndefined(read(object)) : undefined;
}
