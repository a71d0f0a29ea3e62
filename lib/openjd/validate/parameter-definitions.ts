/**
 * Job parameter definitions (spec §2): INT, FLOAT, STRING and PATH with their constraints, and
 * with EXPR the types of §2.9–§2.16 (expr-parameters.ts), whose names are then case-insensitive.
 */
import type { JobParameterDefinition, JobParameterType, Path } from "../model";
import { BASE_JOB_PARAMETER_TYPES, JOB_PARAMETER_TYPES } from "../model";
import { compareBig, compareFloat } from "../numbers";
import { kindName, type ObjectNode, type SourceNode } from "../source-node";
import { stripUndefined } from "../strip-undefined";
import { checkUnique, child, expectList, expectObject, field, type ValidationContext } from "./context";
import { checkExprDefinition, EXPR_FIELDS, isExprParameterType } from "./expr-parameters";
import { numberConstraints, optional, readPathFields, readStringValue, stringConstraints, type Constraints } from "./parameter-constraints";
import { readEnum, readFloat, readIdentifier, readInt, readString } from "./scalars";
import type { ParameterSymbol } from "./scopes";
import { checkUserInterface } from "./user-interface";

/** Parameter types that only exist with EXPR, in any case (refused without it). */
const EXPR_PARAMETER_TYPES = /^(BOOL|RANGE_EXPR|LIST\[.*\])$/i;

const COMMON_FIELDS = ["name", "type", "description", "default", "userInterface"];
const FIELDS: Record<JobParameterType, string[]> = {
  INT: ["allowedValues", "minValue", "maxValue"],
  FLOAT: ["allowedValues", "minValue", "maxValue"],
  STRING: ["allowedValues", "minLength", "maxLength"],
  PATH: ["allowedValues", "minLength", "maxLength", "objectType", "dataFlow"],
  ...EXPR_FIELDS,
};

const ALL_FIELDS = [...new Set([...COMMON_FIELDS, ...Object.values(FIELDS).flat()])];

export interface ParameterDefinitionsResult {
  definitions: JobParameterDefinition[];
  /** Every parameter whose name and type could be read, for scoping references even when invalid. */
  symbols: ParameterSymbol[];
}

export function checkParameterDefinitions(ctx: ValidationContext, node: SourceNode | undefined, path: Path, maxCount: number): ParameterDefinitionsResult {
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

function readHeader(ctx: ValidationContext, node: SourceNode, path: Path): { object: ObjectNode; name: string | null; type: JobParameterType | null } | null {
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
  if (!ctx.has("EXPR")) return readBaseParameterType(ctx, node, path);
  if (node.kind !== "string") return readEnum(ctx, node, path, JOB_PARAMETER_TYPES);
  // EXPR makes type names case-insensitive (RFC 0007). ASCII only: "ınt".toUpperCase() is "INT".
  const canonical = /^[A-Za-z_[\]]+$/.test(node.value) ? node.value.toUpperCase() : null;
  const type = JOB_PARAMETER_TYPES.find((t) => t === canonical);
  if (type) return type;
  const depth = /^(LIST\[)+/.exec(canonical ?? "")?.[0].length ?? 0;
  ctx.error(
    path,
    depth > 2 * "LIST[".length
      ? `unknown parameter type '${node.value}': lists nest at most two deep (LIST[LIST[INT]])`
      : `unknown parameter type '${node.value}'; expected one of ${JOB_PARAMETER_TYPES.join(", ")} (in any case)`,
  );
  return null;
}

function readBaseParameterType(ctx: ValidationContext, node: SourceNode, path: Path): JobParameterType | null {
  if (node.kind === "string" && EXPR_PARAMETER_TYPES.test(node.value)) {
    ctx.gate(path, `parameter type ${node.value}`, "EXPR", false);
    return null;
  }
  const base = BASE_JOB_PARAMETER_TYPES as readonly string[];
  if (node.kind === "string" && base.includes(node.value.toUpperCase()) && !base.includes(node.value)) {
    ctx.error(path, `unknown parameter type '${node.value}': type names are case-sensitive, write ${node.value.toUpperCase()} (or declare extension EXPR)`);
    return null;
  }
  return readEnum(ctx, node, path, BASE_JOB_PARAMETER_TYPES);
}

function checkDefinition(ctx: ValidationContext, node: ObjectNode, path: Path, name: string, type: JobParameterType): JobParameterDefinition | null {
  expectObject(ctx, node, path, { required: ["name", "type"], optional: [...COMMON_FIELDS, ...FIELDS[type]] });
  const errorsBefore = ctx.sink.count;
  const base = { name, path, description: readDescription(ctx, node, path) };
  const definition = isExprParameterType(type) ? checkExprDefinition(ctx, node, path, base, type) : checkBaseDefinition(ctx, node, path, base, type);
  const ui = field(node, "userInterface");
  if (ui !== undefined) checkUserInterface(ctx, ui, child(path, "userInterface"), definition);
  return ctx.sink.count === errorsBefore ? stripUndefined(definition) : null;
}

function checkBaseDefinition(
  ctx: ValidationContext,
  node: ObjectNode,
  path: Path,
  base: { name: string; path: Path; description?: string },
  type: (typeof BASE_JOB_PARAMETER_TYPES)[number],
): JobParameterDefinition {
  const withDefault = <T, F>(rules: Constraints<T, F>, read: (n: SourceNode, p: Path) => T | null) => {
    const value = optional(ctx, node, path, "default", read);
    if (value !== undefined) rules.check(value, child(path, "default"), "default");
    return { default: value, ...rules.fields };
  };
  switch (type) {
    case "INT": {
      const read = (n: SourceNode, p: Path) => readInt(ctx, n, p);
      return { ...base, type, ...withDefault(numberConstraints(ctx, node, path, read, compareBig), read) };
    }
    case "FLOAT": {
      const read = (n: SourceNode, p: Path) => readFloat(ctx, n, p);
      return { ...base, type, ...withDefault(numberConstraints(ctx, node, path, read, compareFloat), read) };
    }
    case "STRING":
      return { ...base, type, ...withDefault(stringConstraints(ctx, node, path), (n, p) => readStringValue(ctx, n, p)) };
    case "PATH":
      return {
        ...base,
        type,
        ...withDefault(stringConstraints(ctx, node, path), (n, p) => readStringValue(ctx, n, p)),
        ...readPathFields(ctx, node, path),
      };
  }
}

export function readDescription(ctx: ValidationContext, node: ObjectNode, path: Path): string | undefined {
  const d = field(node, "description");
  if (d === undefined) return undefined;
  return readString(ctx, d, child(path, "description"), { min: 1, max: 2048, control: "description" }) ?? undefined;
}
