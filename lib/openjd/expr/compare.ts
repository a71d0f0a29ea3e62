/** Equality and ordering across EXPR values (spec digest §14.4 "Equality across types"). */
import { typeError } from "./errors";
import { typeToString } from "./types";
import { elementsOf, typeOf, type ExprValue } from "./values";

/** Exact comparison of an int64 with a double, without losing precision either way. */
function compareIntFloat(i: bigint, f: number): number {
  if (Number.isInteger(f) && Math.abs(f) < 2 ** 64) {
    const fi = BigInt(f);
    return i < fi ? -1 : i > fi ? 1 : 0;
  }
  const asFloat = Number(i);
  if (asFloat !== f) return asFloat < f ? -1 : 1;
  // Same double but f has a fraction: compare against floor(f).
  return i <= BigInt(Math.floor(f)) ? -1 : 1;
}

function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0) as number;
    const cy = y.value.codePointAt(0) as number;
    if (cx !== cy) return cx < cy ? -1 : 1;
  }
}

export function valuesEqual(a: ExprValue, b: ExprValue): boolean {
  switch (a.kind) {
    case "null":
      return b.kind === "null";
    case "bool":
      return b.kind === "bool" && a.value === b.value;
    case "int":
      return (b.kind === "int" && a.value === b.value) || (b.kind === "float" && compareIntFloat(a.value, b.value) === 0);
    case "float":
      return (b.kind === "float" && a.value === b.value) || (b.kind === "int" && compareIntFloat(b.value, a.value) === 0);
    case "string":
    case "path":
      return (b.kind === "string" || b.kind === "path") && a.value === b.value;
    case "list":
    case "range_expr": {
      if (b.kind !== "list" && b.kind !== "range_expr") return false;
      if (a.kind === "range_expr" && b.kind === "range_expr") return a.value.toString() === b.value.toString();
      const x = elementsOf(a);
      const y = elementsOf(b);
      return x.length === y.length && x.every((v, i) => valuesEqual(v, y[i] as ExprValue));
    }
    case "unresolved":
      return false;
  }
}

/** Ordering for <, <=, >, >=, sorted, min and max. Incompatible kinds are a type error. */
export function compareValues(a: ExprValue, b: ExprValue): number {
  if (a.kind === "int" && b.kind === "int") return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a.kind === "float" && b.kind === "float") return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  if (a.kind === "int" && b.kind === "float") return compareIntFloat(a.value, b.value);
  if (a.kind === "float" && b.kind === "int") return -compareIntFloat(b.value, a.value);
  if ((a.kind === "string" || a.kind === "path") && (b.kind === "string" || b.kind === "path")) return compareCodePoints(a.value, b.value);
  if (a.kind === "bool" && b.kind === "bool") return Number(a.value) - Number(b.value);
  if ((a.kind === "list" || a.kind === "range_expr") && (b.kind === "list" || b.kind === "range_expr")) {
    const x = elementsOf(a);
    const y = elementsOf(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = compareValues(x[i] as ExprValue, y[i] as ExprValue);
      if (c !== 0) return c;
    }
    return x.length - y.length;
  }
  throw typeError(`cannot order ${typeToString(typeOf(a))} and ${typeToString(typeOf(b))}`);
}
