/** Job parameter definitions (spec §2): INT, FLOAT, STRING and PATH with their constraints. */
import type {
  FloatLiteral,
  FloatParameterDefinition,
  IntParameterDefinition,
  JobParameterDefinition,
  JobParameterType,
  Path,
  PathParameterDefinition,
  StringParameterDefinition,
} from "../model";
import { JOB_PARAMETER_TYPES } from "../model";
import { kindName, type ObjectNode, type SourceNode } from "../source-node";
import { checkUnique, child, expectList, expectObject, field, type ValidationContext } from "./context";
import { readEnum, readFloat, readIdentifier, readInt, readString, codePointLength } from "./scalars";
import type { ParameterSymbol } from "./scopes";
import { checkUserInterface } from "./user-interface";

/** Parameter types that only exist with EXPR (refused until EXPR is supported). */
const EXPR_PARAMETER_TYPES = /^(BOOL|RANGE_EXPR|LIST\[.*\])$/i;

const COMMON_FIELDS = ["name", "type", "description", "default", "userInterface"];
const FIELDS: Record<JobParameterType, string[]> = {
  INT: [...COMMON_FIELDS, "allowedValues", "minValue", "maxValue"],
  FLOAT: [...COMMON_FIELDS, "allowedValues", "minValue", "maxValue"],
  STRING: [...COMMON_FIELDS, "allowedValues", "minLength", "maxLength"],
  PATH: [...COMMON_FIELDS, "allowedValues", "minLength", "maxLength", "objectType", "dataFlow"],
};

const ALL_FIELDS = [...new Set(Object.values(FIELDS).flat())];

export const STRING_VALUE_MAX = 1024;

export interface ParameterDefinitionsResult {
  definitions: JobParameterDefinition[];
  /** Every parameter whose name and type could be read, for scoping references even when invalid. */
  symbols: ParameterSymbol[];
}

export function checkParameterDefinitions(
  ctx: ValidationContext,
  node: SourceNode | undefined,
  path: Path,
  maxCount: number,
): ParameterDefinitionsResult {
  const result: ParameterDefinitionsResult = { definitions: [], symbols: [] };
  if (node === undefined) return result;
  const items = expectList(ctx, node, path, { max: maxCount });
  if (!items) return result;
  const named: Array<{ name: string; path: Path }> = [];
  items.forEach((item, i) => {
    const itemPath = child(path, i);
    const header = readHeader(ctx, item, itemPath);
    if (!header) return;
    if (header.type === null) {
      // The type is already reported; still check the keys and keep the name in scope, so that
      // references to the parameter do not add a second, misleading error.
      expectObject(ctx, header.object, itemPath, { optional: ALL_FIELDS });
      if (header.name !== null) result.symbols.push({ name: header.name, type: "STRING" });
      return;
    }
    // A bad name must not hide the definition's other problems: its type still says what to check.
    const definition = checkDefinition(ctx, header.object, itemPath, header.name ?? "", header.type);
    if (header.name === null) return;
    named.push({ name: header.name, path: itemPath });
    result.symbols.push({ name: header.name, type: header.type });
    if (definition) result.definitions.push(definition);
  });
  checkUnique(ctx, named, "parameter name");
  return result;
}

function readHeader(
  ctx: ValidationContext,
  node: SourceNode,
  path: Path,
): { object: ObjectNode; name: string | null; type: JobParameterType | null } | null {
  if (node.kind !== "object") {
    ctx.error(path, `expected a parameter definition (a mapping), got ${kindName(node)}`);
    return null;
  }
  const nameNode = field(node, "name");
  const typeNode = field(node, "type");
  if (nameNode === undefined) ctx.error(child(path, "name"), "missing required field 'name'");
  if (typeNode === undefined) ctx.error(child(path, "type"), "missing required field 'type'");
  const name = nameNode === undefined ? null : readIdentifier(ctx, nameNode, child(path, "name"), "parameter name");
  const type = typeNode === undefined ? null : readParameterType(ctx, typeNode, child(path, "type"));
  return { object: node, name, type };
}

function readParameterType(ctx: ValidationContext, node: SourceNode, path: Path): JobParameterType | null {
  if (node.kind === "string" && EXPR_PARAMETER_TYPES.test(node.value)) {
    ctx.gate(path, `parameter type ${node.value}`, "EXPR", false);
    return null;
  }
  if (node.kind === "string" && (JOB_PARAMETER_TYPES as readonly string[]).includes(node.value.toUpperCase()) &&
    !(JOB_PARAMETER_TYPES as readonly string[]).includes(node.value)) {
    ctx.error(path, `unknown parameter type '${node.value}': type names are case-sensitive, write ${node.value.toUpperCase()}`);
    return null;
  }
  return readEnum(ctx, node, path, JOB_PARAMETER_TYPES);
}

function checkDefinition(
  ctx: ValidationContext,
  node: ObjectNode,
  path: Path,
  name: string,
  type: JobParameterType,
): JobParameterDefinition | null {
  expectObject(ctx, node, path, { required: ["name", "type"], optional: FIELDS[type] });
  const errorsBefore = ctx.sink.count;
  const base = { name, path, description: readDescription(ctx, node, path) };
  let definition: JobParameterDefinition;
  switch (type) {
    case "INT":
      definition = { ...base, type, ...numberConstraints(ctx, node, path, readIntValue, (a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
      break;
    case "FLOAT":
      definition = { ...base, type, ...numberConstraints(ctx, node, path, readFloatValue, (a, b) => a.value - b.value) };
      break;
    case "STRING":
      definition = { ...base, type, ...stringConstraints(ctx, node, path) };
      break;
    case "PATH":
      definition = {
        ...base,
        type,
        ...stringConstraints(ctx, node, path),
        objectType: optional(ctx, node, path, "objectType", (n, p) => readEnum(ctx, n, p, ["FILE", "DIRECTORY"] as const)),
        dataFlow: optional(ctx, node, path, "dataFlow", (n, p) => readEnum(ctx, n, p, ["NONE", "IN", "OUT", "INOUT"] as const)),
      };
      break;
  }
  const ui = field(node, "userInterface");
  if (ui !== undefined) checkUserInterface(ctx, ui, child(path, "userInterface"), definition);
  return ctx.sink.count === errorsBefore ? stripUndefined(definition) : null;
}

export function readDescription(ctx: ValidationContext, node: ObjectNode, path: Path): string | undefined {
  const d = field(node, "description");
  if (d === undefined) return undefined;
  return readString(ctx, d, child(path, "description"), { min: 1, max: 2048, control: "description" }) ?? undefined;
}

function optional<T>(
  ctx: ValidationContext,
  node: ObjectNode,
  path: Path,
  key: string,
  read: (n: SourceNode, p: Path) => T | null,
): T | undefined {
  const value = field(node, key);
  if (value === undefined) return undefined;
  return read(value, child(path, key)) ?? undefined;
}

function readIntValue(ctx: ValidationContext, node: SourceNode, path: Path): bigint | null {
  return readInt(ctx, node, path);
}

function readFloatValue(ctx: ValidationContext, node: SourceNode, path: Path): FloatLiteral | null {
  return readFloat(ctx, node, path);
}

function numberConstraints<T>(
  ctx: ValidationContext,
  node: ObjectNode,
  path: Path,
  read: (ctx: ValidationContext, n: SourceNode, p: Path) => T | null,
  compare: (a: T, b: T) => number,
): { default?: T; allowedValues?: T[]; minValue?: T; maxValue?: T } {
  const r = (n: SourceNode, p: Path) => read(ctx, n, p);
  const minValue = optional(ctx, node, path, "minValue", r);
  const maxValue = optional(ctx, node, path, "maxValue", r);
  if (minValue !== undefined && maxValue !== undefined && compare(minValue, maxValue) > 0) {
    ctx.error(child(path, "maxValue"), "maxValue must be greater than or equal to minValue");
  }
  const inBounds = (value: T, p: Path) => {
    if (minValue !== undefined && compare(value, minValue) < 0) ctx.error(p, "value is below minValue");
    if (maxValue !== undefined && compare(value, maxValue) > 0) ctx.error(p, "value is above maxValue");
  };
  const allowedValues = readAllowed(ctx, node, path, r, inBounds);
  const def = optional(ctx, node, path, "default", r);
  if (def !== undefined) {
    inBounds(def, child(path, "default"));
    if (allowedValues && !allowedValues.some((a) => compare(a, def) === 0)) {
      ctx.error(child(path, "default"), "default must be one of allowedValues");
    }
  }
  return { default: def, allowedValues, minValue, maxValue };
}

function readAllowed<T>(
  ctx: ValidationContext,
  node: ObjectNode,
  path: Path,
  read: (n: SourceNode, p: Path) => T | null,
  check: (value: T, p: Path) => void,
): T[] | undefined {
  const listNode = field(node, "allowedValues");
  if (listNode === undefined) return undefined;
  const listPath = child(path, "allowedValues");
  const items = expectList(ctx, listNode, listPath);
  if (!items) return undefined;
  const values: T[] = [];
  items.forEach((item, i) => {
    const value = read(item, child(listPath, i));
    if (value === null) return;
    check(value, child(listPath, i));
    values.push(value);
  });
  return values;
}

function stringConstraints(
  ctx: ValidationContext,
  node: ObjectNode,
  path: Path,
): { default?: string; allowedValues?: string[]; minLength?: number; maxLength?: number } {
  const readLength = (key: "minLength" | "maxLength", min: number) =>
    optional(ctx, node, path, key, (n, p) => {
      const value = readInt(ctx, n, p, false);
      if (value === null) return null;
      if (value < BigInt(min)) {
        ctx.error(p, `${key} must be ${min === 0 ? "zero or greater" : "greater than zero"}`);
        return null;
      }
      return Number(value);
    });
  const minLength = readLength("minLength", 0);
  const maxLength = readLength("maxLength", 1);
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    ctx.error(child(path, "maxLength"), "maxLength must be greater than or equal to minLength");
  }
  const lengthOk = (value: string, p: Path) => {
    const length = codePointLength(value);
    if (minLength !== undefined && length < minLength) ctx.error(p, `value is shorter than minLength (${minLength})`);
    if (maxLength !== undefined && length > maxLength) ctx.error(p, `value is longer than maxLength (${maxLength})`);
  };
  const readValue = (n: SourceNode, p: Path) => readString(ctx, n, p, { max: STRING_VALUE_MAX });
  const allowedValues = readAllowed(ctx, node, path, readValue, lengthOk);
  const def = optional(ctx, node, path, "default", readValue);
  if (def !== undefined) {
    lengthOk(def, child(path, "default"));
    if (allowedValues && !allowedValues.includes(def)) ctx.error(child(path, "default"), "default must be one of allowedValues");
  }
  return { default: def, allowedValues, minLength, maxLength };
}

function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
  return value;
}

export type { IntParameterDefinition, FloatParameterDefinition, StringParameterDefinition, PathParameterDefinition };
