/**
 * List functions and operators (spec §2.2.3, §2.1.3): range, flatten, sorted, reversed, unique,
 * any, all, list `+` (with the common-type rules) and list `*` (repetition). Results that can
 * outgrow their inputs are sized and charged before they are built.
 */
import { contentBytes, listBytes } from "../budget";
import { compareValues } from "../compare";
import { valueError } from "../errors";
import type { EvalContext, FunctionLibrary } from "../library";
import { INT, type ExprType } from "../types";
import { elementsOf, makeList, type ExprValue } from "../values";
import { asList, int, type List, type Range } from "./args";

function rangeList(start: bigint, stop: bigint, step: bigint, ctx: EvalContext): ExprValue {
  if (step === 0n) throw valueError("range() step must not be zero");
  const span = step > 0n ? stop - start : start - stop;
  const magnitude = step > 0n ? step : -step;
  const count = span > 0n ? (span + magnitude - 1n) / magnitude : 0n;
  ctx.charge(Number(count));
  ctx.assertFits(listBytes(Number(count)));
  const values: ExprValue[] = [];
  for (let i = 0n, v = start; i < count; i++, v += step) values.push({ kind: "int", value: v });
  return makeList(values, INT);
}

function flatten(value: List, ctx: EvalContext): ExprValue {
  if (value.itemType.code !== "list") return value;
  const inner = value.items as List[];
  const count = inner.reduce((n, l) => n + l.items.length, 0);
  ctx.charge(count);
  return makeList(
    inner.flatMap((l) => l.items),
    value.itemType.item,
  );
}

/** A key equal for exactly the values valuesEqual() calls equal, within one homogeneous list. */
function keyOf(value: ExprValue): string {
  switch (value.kind) {
    case "list":
      return JSON.stringify(value.items.map(keyOf));
    case "float":
    case "int":
      return `n${value.value}`;
    case "string":
    case "path":
      return `s${value.value}`;
    case "bool":
      return `b${value.value}`;
    case "range_expr":
      return `r${value.value.toString()}`;
    default:
      return value.kind;
  }
}

function unique(value: List): ExprValue {
  const seen = new Set<string>();
  const kept = value.items.filter((item) => {
    const key = keyOf(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { kind: "list", items: kept, itemType: value.itemType };
}

/** The element type of a concatenation: an empty list takes the other side's type. */
function concatHint(a: ExprType, b: ExprType): ExprType {
  return a.code === "nulltype" ? b : a;
}

function concat(left: readonly ExprValue[], right: readonly ExprValue[], hint: ExprType, ctx: EvalContext): ExprValue {
  ctx.assertFits(listBytes(left.length + right.length, contentBytes(left) + contentBytes(right)));
  return makeList([...left, ...right], hint);
}

/** A range expression's values, charged as the iteration they are. */
function rangeValues(value: ExprValue | undefined, ctx: EvalContext): readonly ExprValue[] {
  ctx.charge(Number((value as Range).value.size));
  return elementsOf(value as Range);
}

function repeat(value: List, times: bigint, ctx: EvalContext): ExprValue {
  const n = times > 0n ? Number(times) : 0;
  const total = value.items.length * n;
  ctx.charge(total);
  ctx.assertFits(listBytes(total, contentBytes(value.items) * n));
  const out: ExprValue[] = [];
  for (let i = 0; i < n && value.items.length > 0; i++) for (const item of value.items) out.push(item);
  return { kind: "list", items: out, itemType: value.itemType };
}

export function registerLists(lib: FunctionLibrary): void {
  lib
    .define("range", "(int) -> list[int]", ([stop], ctx) => rangeList(0n, int(stop), 1n, ctx))
    .define("range", "(int, int) -> list[int]", ([start, stop], ctx) => rangeList(int(start), int(stop), 1n, ctx))
    .define("range", "(int, int, int) -> list[int]", ([start, stop, step], ctx) => rangeList(int(start), int(stop), int(step), ctx));

  lib
    .define("flatten", "(list[nulltype]) -> list[nulltype]", ([l]) => l!)
    .define("flatten", "(list[list[T]]) -> list[T]", ([l], ctx) => flatten(asList(l), ctx))
    .define("flatten", "(list[T]) -> list[T]", ([l]) => l!)
    .define("sorted", "(list[T]) -> list[T]", ([l]) => {
      const list = asList(l);
      // Array.prototype.sort is stable; compareValues throws for values that cannot be ordered.
      return { kind: "list", items: [...list.items].sort(compareValues), itemType: list.itemType };
    })
    .define("reversed", "(list[T]) -> list[T]", ([l]) => ({ kind: "list", items: [...asList(l).items].reverse(), itemType: asList(l).itemType }))
    .define("unique", "(list[T]) -> list[T]", ([l]) => unique(asList(l)))
    .define("any", "(list[bool]) -> bool", ([l]) => ({ kind: "bool", value: asList(l).items.some((v) => v.kind === "bool" && v.value) }))
    .define("all", "(list[bool]) -> bool", ([l]) => ({ kind: "bool", value: asList(l).items.every((v) => v.kind === "bool" && v.value) }));

  // Range expressions get their own overloads so their expansion is charged and bounded here.
  lib
    .define("__add__", "(range_expr, range_expr) -> list[int]", ([a, b], ctx) => concat(rangeValues(a, ctx), rangeValues(b, ctx), INT, ctx))
    .define("__add__", "(range_expr, list[int]) -> list[int]", ([a, b], ctx) => concat(rangeValues(a, ctx), asList(b).items, INT, ctx))
    .define("__add__", "(range_expr, list[float]) -> list[float]", ([a, b], ctx) => concat(rangeValues(a, ctx), asList(b).items, INT, ctx))
    .define("__add__", "(list[int], range_expr) -> list[int]", ([a, b], ctx) => concat(asList(a).items, rangeValues(b, ctx), INT, ctx))
    .define("__add__", "(list[float], range_expr) -> list[float]", ([a, b], ctx) => concat(asList(a).items, rangeValues(b, ctx), INT, ctx))
    // One type variable: its two bindings unify (int+float → float, path+string → string).
    .define("__add__", "(list[T], list[T]) -> list[T]", ([a, b], ctx) => concat(asList(a).items, asList(b).items, concatHint(asList(a).itemType, asList(b).itemType), ctx))
    .define("__mul__", "(range_expr, int) -> list[int]", ([r, n], ctx) => repeat(makeList(rangeValues(r, ctx), INT) as List, int(n), ctx))
    .define("__mul__", "(list[T], int) -> list[T]", ([l, n], ctx) => repeat(asList(l), int(n), ctx));
}
