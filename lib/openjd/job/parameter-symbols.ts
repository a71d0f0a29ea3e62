/**
 * Job parameter values as expression values: `Param.X` and `RawParam.X` symbols for format
 * strings. Parameter values are stored as canonical text (lists as JSON); this turns them back
 * into typed values, keeping float text ("1.50") as written.
 */
import { IntRangeExpr } from "../range-expr";
import { parseSource } from "../parse-source";
import type { SourceNode } from "../source-node";
import { floatValue, intValue, makeList, pathValue, stringValue, boolValue, NULL, type ExprValue, type PathFormat } from "../expr/values";
import type { ExprType } from "../expr/types";
import { parameterExprType } from "../validate/scopes";
import type { FormatEnvironment } from "../format-evaluation";
import type { ParameterValue } from "./types";

/** The typed value of a parameter: `raw` gives RawParam (PATH values stay strings). */
export function parameterExprValue(parameter: ParameterValue, raw: boolean, pathFormat: PathFormat): ExprValue {
  const type = parameter.type as string;
  switch (type) {
    case "INT":
      return intValue(BigInt(parameter.value));
    case "FLOAT":
      return floatValue(Number(parameter.value), parameter.value);
    case "STRING":
      return stringValue(parameter.value);
    case "PATH":
      return raw ? stringValue(parameter.value) : pathValue(parameter.value, pathFormat);
    case "BOOL":
      return boolValue(parameter.value === "true");
    case "RANGE_EXPR":
      return { kind: "range_expr", value: IntRangeExpr.parse(parameter.value) };
    default: {
      const parsed = parseSource(parameter.value, "json");
      if (!parsed.root) throw new Error(`stored value of ${type} is not JSON: ${parameter.value}`);
      const listType = parameterExprType(type, raw);
      return fromJson(parsed.root, listType.code === "list" ? listType.item : listType, pathFormat);
    }
  }
}

/** A stored JSON value; `type` is the item type when `node` is a list, else the node's own type. */
function fromJson(node: SourceNode, type: ExprType, pathFormat: PathFormat): ExprValue {
  switch (node.kind) {
    case "array":
      return makeList(
        node.items.map((n) => fromJson(n, type.code === "list" ? type.item : type, pathFormat)),
        type,
      );
    case "int":
      return type.code === "float" ? floatValue(Number(node.value), node.text) : intValue(node.value);
    case "float":
      return floatValue(node.value, node.text);
    case "bool":
      return boolValue(node.value);
    case "string":
      return type.code === "path" ? pathValue(node.value, pathFormat) : stringValue(node.value);
    default:
      return NULL;
  }
}

/** Symbols of template-scope fields: `Param.*` (not PATH, which only exists mapped on workers) and `RawParam.*`. */
export function templateEnvironment(parameters: Readonly<Record<string, ParameterValue>>): FormatEnvironment {
  const symbols = new Map<string, ExprValue>();
  for (const [name, p] of Object.entries(parameters)) {
    symbols.set(`RawParam.${name}`, parameterExprValue(p, true, "POSIX"));
    if (p.type !== "PATH" && p.type !== "LIST[PATH]") symbols.set(`Param.${name}`, parameterExprValue(p, false, "POSIX"));
  }
  return { symbols, scope: "template", pathFormat: "POSIX" };
}

/** The same environment with more symbols (Job.Name, Step.Name, step let values). */
export function extendEnvironment(env: FormatEnvironment, more: ReadonlyMap<string, ExprValue>): FormatEnvironment {
  return { ...env, symbols: new Map([...env.symbols, ...more]) };
}
