/**
 * Target-type coercion (spec digest §14.4 "Implicit coercions"): after a whole-field expression
 * is evaluated, its value is converted toward the type the field needs — only non-destructive
 * conversions: int→float, path→string, range_expr→string or list[int], element-wise lists, and,
 * for a single scalar target, scalars to string, string→path, exact float/string→int, int/string→float.
 */
import { FLOAT_TEXT, INT_TEXT, clip } from "../numbers";
import { IntRangeExpr } from "../range-expr";
import { typeError } from "./errors";
import { INT, satisfies, typeToString, type ExprType } from "./types";
import { elementsOf, floatValue, intValue, makeList, pathValue, stringValue, toText, typeOf, unresolvedValue, type ExprValue, type PathFormat } from "./values";

export function coerceTo(value: ExprValue, target: ExprType, pathFormat: PathFormat): ExprValue {
  const result = tryCoerce(value, target, pathFormat);
  if (result === null) throw typeError(`expected ${typeToString(target)}, got ${describe(value)}`);
  return result;
}

function describe(value: ExprValue): string {
  const type = typeToString(typeOf(value));
  return value.kind === "string" ? `${type} '${clip(value.value)}'` : type;
}

function tryCoerce(value: ExprValue, target: ExprType, pathFormat: PathFormat): ExprValue | null {
  if (target.code === "unresolved") target = target.inner;
  if (value.kind === "unresolved") {
    return canCoerceType(value.type, target) ? unresolvedValue(narrow(value.type, target)) : null;
  }
  const type = typeOf(value);
  if (satisfies(type, target)) return value;
  if (target.code === "union") {
    for (const member of target.members) {
      const coerced = tryCoerce(value, member, pathFormat);
      if (coerced !== null) return coerced;
    }
    return null;
  }
  if (target.code === "list") {
    if (value.kind === "range_expr" && satisfies(INT, target.item)) return makeList(elementsOf(value), INT);
    if (value.kind !== "list") return null;
    const items: ExprValue[] = [];
    for (const item of value.items) {
      const coerced = tryCoerce(item, target.item, pathFormat);
      if (coerced === null) return null;
      items.push(coerced);
    }
    return makeList(items, target.item);
  }
  return coerceScalar(value, target, pathFormat);
}

function coerceScalar(value: ExprValue, target: ExprType, pathFormat: PathFormat): ExprValue | null {
  switch (target.code) {
    case "string":
      return value.kind === "list" || value.kind === "null" ? null : stringValue(toText(value));
    case "path":
      return value.kind === "string" ? pathValue(value.value, pathFormat) : null;
    case "float":
      if (value.kind === "int") return floatValue(Number(value.value));
      if (value.kind === "string" && FLOAT_TEXT.test(value.value)) return floatValue(Number(value.value), value.value.trim());
      return null;
    case "int":
      if (value.kind === "float" && Number.isInteger(value.value)) return intValue(BigInt(value.value));
      if (value.kind === "string" && INT_TEXT.test(value.value)) return intValue(BigInt(value.value.trim()));
      return null;
    case "range_expr":
      if (value.kind === "string") {
        const parsed = IntRangeExpr.tryParse(value.value);
        return parsed.ok ? { kind: "range_expr", value: parsed.value } : null;
      }
      return null;
    default:
      return null;
  }
}

/** Type-level version of tryCoerce, for unresolved values during checking. */
function canCoerceType(source: ExprType, target: ExprType): boolean {
  if (target.code === "unresolved") target = target.inner;
  if (source.code === "unresolved") source = source.inner;
  if (satisfies(source, target)) return true;
  if (source.code === "any") return true;
  if (source.code === "union") return source.members.some((m) => canCoerceType(m, target));
  if (target.code === "union") return target.members.some((m) => canCoerceType(source, m));
  if (target.code === "list") {
    if (source.code === "range_expr") return canCoerceType(INT, target.item);
    return source.code === "list" && (source.item.code === "nulltype" || canCoerceType(source.item, target.item));
  }
  switch (target.code) {
    case "string":
      return source.code !== "list" && source.code !== "nulltype";
    case "path":
      return source.code === "string";
    case "float":
      return source.code === "int" || source.code === "string";
    case "int":
      return source.code === "float" || source.code === "string";
    case "range_expr":
      return source.code === "string";
    default:
      return false;
  }
}

/** The best static type after coercing `source` to `target`. */
function narrow(source: ExprType, target: ExprType): ExprType {
  if (satisfies(source, target)) return source;
  if (target.code === "union") {
    const fits = target.members.filter((m) => canCoerceType(source, m));
    return fits.length === 1 ? (fits[0] as ExprType) : target;
  }
  return target;
}
