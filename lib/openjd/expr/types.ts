/**
 * EXPR types (spec digest §14.3): scalars, `list[T]` (at most two levels), unions, `T?`, and for
 * checking `unresolved[T]`, `any`, `noreturn` and the type variables of generic signatures.
 */

export type ScalarCode = "nulltype" | "bool" | "int" | "float" | "string" | "path" | "range_expr";
export type TypeVariable = "T" | "T1" | "T2" | "T3";

export type ExprType =
  | { code: ScalarCode }
  | { code: "any" }
  | { code: "noreturn" }
  | { code: "list"; item: ExprType }
  | { code: "union"; members: readonly ExprType[] }
  | { code: "unresolved"; inner: ExprType }
  | { code: "var"; name: TypeVariable };

const scalar = (code: ScalarCode): ExprType => ({ code });
export const NULLTYPE = scalar("nulltype");
export const BOOL = scalar("bool");
export const INT = scalar("int");
export const FLOAT = scalar("float");
export const STRING = scalar("string");
export const PATH = scalar("path");
export const RANGE_EXPR = scalar("range_expr");
export const ANY: ExprType = { code: "any" };
export const NORETURN: ExprType = { code: "noreturn" };

export function listOf(item: ExprType): ExprType {
  if (item.code === "unresolved") return unresolved(listOf(item.inner));
  return { code: "list", item };
}

export function unresolved(inner: ExprType): ExprType {
  return inner.code === "unresolved" ? inner : { code: "unresolved", inner };
}

export function optional(type: ExprType): ExprType {
  return union([type, NULLTYPE]);
}

/** Union normalization: flatten, hoist unresolved, drop noreturn, `any` absorbs, dedupe, sort. */
export function union(types: readonly ExprType[]): ExprType {
  const flat: ExprType[] = [];
  let anyUnresolved = false;
  const add = (t: ExprType): void => {
    if (t.code === "union") t.members.forEach(add);
    else if (t.code === "unresolved") {
      anyUnresolved = true;
      add(t.inner);
    } else if (t.code !== "noreturn") flat.push(t);
  };
  types.forEach(add);
  let result: ExprType;
  if (flat.some((t) => t.code === "any")) result = ANY;
  else {
    const unique = new Map(flat.map((t) => [typeToString(t), t]));
    const members = [...unique.entries()].sort((a, b) => a[0].localeCompare(b[0])).map(([, t]) => t);
    result = members.length === 0 ? NORETURN : members.length === 1 ? (members[0] as ExprType) : { code: "union", members };
  }
  return anyUnresolved ? unresolved(result) : result;
}

export function typeToString(type: ExprType): string {
  switch (type.code) {
    case "list":
      return `list[${typeToString(type.item)}]`;
    case "union": {
      const nonNull = type.members.filter((m) => m.code !== "nulltype");
      if (nonNull.length === 1 && nonNull.length < type.members.length) return `${typeToString(nonNull[0] as ExprType)}?`;
      return type.members.map(typeToString).join(" | ");
    }
    case "unresolved":
      return `unresolved[${typeToString(type.inner)}]`;
    case "var":
      return type.name;
    default:
      return type.code;
  }
}

export function typesEqual(a: ExprType, b: ExprType): boolean {
  return typeToString(a) === typeToString(b);
}

/** The type without an `unresolved[]` wrapper. */
export function resolvedType(type: ExprType): ExprType {
  return type.code === "unresolved" ? type.inner : type;
}

export function listDepth(type: ExprType): number {
  const t = resolvedType(type);
  return t.code === "list" ? 1 + listDepth(t.item) : 0;
}

/**
 * Parses the spec's notation: `int`, `list[string]`, `int | float`, `string?`, `T1`,
 * `list[list[int]]`. Used to write function signatures as data.
 */
export function parseType(text: string): ExprType {
  const parts = splitTopLevel(text.trim(), "|");
  if (parts.length > 1) return union(parts.map(parseType));
  const t = text.trim();
  if (t.endsWith("?")) return optional(parseType(t.slice(0, -1)));
  if (t.startsWith("list[") && t.endsWith("]")) return listOf(parseType(t.slice(5, -1)));
  if (t.startsWith("unresolved[") && t.endsWith("]")) return unresolved(parseType(t.slice(11, -1)));
  switch (t) {
    case "nulltype":
    case "bool":
    case "int":
    case "float":
    case "string":
    case "path":
    case "range_expr":
      return scalar(t);
    case "any":
      return ANY;
    case "noreturn":
      return NORETURN;
    case "T":
    case "T1":
    case "T2":
    case "T3":
      return { code: "var", name: t };
    default:
      throw new Error(`unknown type notation '${text}'`);
  }
}

/** `text` split at each `separator` outside brackets: `list[int], int` → `list[int]`, ` int`. */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** May a value of type `source` be used unchanged where `target` is required? */
export function satisfies(source: ExprType, target: ExprType): boolean {
  if (target.code === "any") return true;
  if (source.code === "unresolved") return satisfies(source.inner, target);
  if (source.code === "noreturn") return true;
  if (source.code === "union") return source.members.every((m) => satisfies(m, target));
  if (target.code === "union") return target.members.some((m) => satisfies(source, m));
  if (target.code === "var" || target.code === "noreturn" || target.code === "unresolved") return false;
  if (source.code === "list" && target.code === "list") {
    return source.item.code === "nulltype" || satisfies(source.item, target.item);
  }
  return typesEqual(source, target);
}
