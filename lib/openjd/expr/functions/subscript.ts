/** Indexing and slicing, Python-style, on lists, strings (by code point) and range expressions. */
import { IntRangeExpr } from "../../range-expr";
import { ExprError, typeError, valueError } from "../errors";
import type { FunctionLibrary } from "../library";
import { INT } from "../types";
import { intValue, makeList, stringValue, type ExprValue } from "../values";
import { asList, int, text, type Range } from "./args";

function index(length: number, value: bigint, what: string): number {
  const i = value < 0n ? BigInt(length) + value : value;
  if (i < 0n || i >= BigInt(length)) throw new ExprError("index", `index ${value} is out of range for ${what} of length ${length}`);
  return Number(i);
}

/** Python's slice.indices(): the clamped start/stop/step for a sequence of `length`. */
function sliceIndices(length: number, start: ExprValue, stop: ExprValue, step: ExprValue): number[] {
  const s = step.kind === "int" ? step.value : 1n;
  if (s === 0n) throw valueError("slice step cannot be zero");
  const len = BigInt(length);
  const clamp = (v: ExprValue, fallback: bigint, low: bigint, high: bigint) => {
    if (v.kind !== "int") return fallback;
    let x = v.value < 0n ? v.value + len : v.value;
    if (x < low) x = low;
    if (x > high) x = high;
    return x;
  };
  const positive = s > 0n;
  const first = clamp(start, positive ? 0n : len - 1n, positive ? 0n : -1n, positive ? len : len - 1n);
  const end = clamp(stop, positive ? len : -1n, positive ? 0n : -1n, positive ? len : len - 1n);
  const out: number[] = [];
  for (let i = first; positive ? i < end : i > end; i += s) out.push(Number(i));
  return out;
}

export function registerSubscript(lib: FunctionLibrary): void {
  lib
    .define("__getitem__", "(list[T], int) -> T", ([list, i]) => {
      const items = asList(list).items;
      return items[index(items.length, int(i), "a list")] as ExprValue;
    })
    .define("__getitem__", "(string, int) -> string", ([s, i]) => {
      const chars = [...text(s)];
      return stringValue(chars[index(chars.length, int(i), "a string")] as string);
    })
    .define("__getitem__", "(range_expr, int) -> int", ([range, i]) => {
      // Ranges can hold more values than a double counts exactly: index in bigint.
      const r = (range as Range).value;
      const value = int(i);
      const at = value < 0n ? r.size + value : value;
      if (at < 0n || at >= r.size) throw new ExprError("index", `index ${value} is out of range for a range of ${r.size} values`);
      return intValue(r.at(at));
    });
  // Without these, path→string coercion would make paths indexable; the spec says they are not.
  lib.define("__getitem__", "(path, int) -> noreturn", () => {
    throw typeError("a path cannot be indexed; use its .parts");
  });
  const bounds = "int?, int?, int?";
  lib.define("__getslice__", `(path, ${bounds}) -> noreturn`, () => {
    throw typeError("a path cannot be sliced; use its .parts");
  });
  lib
    .define("__getslice__", `(list[T], ${bounds}) -> list[T]`, ([list, a, b, c], ctx) => {
      const l = asList(list);
      const picked = sliceIndices(l.items.length, a!, b!, c!);
      ctx.charge(picked.length);
      return makeList(
        picked.map((i) => l.items[i] as ExprValue),
        l.itemType,
      );
    })
    .define("__getslice__", `(string, ${bounds}) -> string`, ([s, a, b, c], ctx) => {
      const chars = [...text(s)];
      const picked = sliceIndices(chars.length, a!, b!, c!);
      ctx.charge(picked.length);
      return stringValue(picked.map((i) => chars[i]).join(""));
    })
    .define("__getslice__", `(range_expr, ${bounds}) -> range_expr | list[int]`, ([range, a, b, c], ctx) => {
      const r = (range as Range).value;
      if (r.size > 10_000_000n) throw new ExprError("limit", "range too large to slice");
      const picked = sliceIndices(Number(r.size), a!, b!, c!).map((i) => r.at(BigInt(i)));
      ctx.charge(picked.length);
      const step = c!.kind === "int" ? c!.value : 1n;
      if (step > 0n && picked.length > 0) return { kind: "range_expr", value: IntRangeExpr.fromValues(picked) };
      return makeList(
        picked.map((v) => intValue(v)),
        INT,
      );
    });
}
