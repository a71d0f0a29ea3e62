/** Math functions (spec §2.2.2): abs, min, max, sum, floor, ceil and Python's banker's round. */
import { reserveText } from "../budget";
import { compareValues } from "../compare";
import { ExprError, valueError } from "../errors";
import type { EvalContext, FunctionLibrary } from "../library";
import { floatValue, intValue, type ExprValue } from "../values";
import { asList, int, num, type Range } from "./args";
import { divideHalfEven, roundedUnits, unitsToText } from "./python-round";

const items = (v: ExprValue | undefined) => asList(v).items;
const range = (v: ExprValue | undefined) => (v as Range).value;

function pick(name: "min" | "max", values: readonly ExprValue[]): ExprValue {
  if (values.length === 0) throw valueError(`${name}() requires a non-empty list`);
  let best = values[0] as ExprValue;
  for (const v of values.slice(1)) {
    const c = compareValues(v, best);
    if (name === "min" ? c < 0 : c > 0) best = v;
  }
  return best;
}

function sumInts(values: readonly ExprValue[]): ExprValue {
  let total = 0n;
  // Checked at every step: int64 overflow anywhere in the computation is an error.
  for (const v of values) total = int(intValue(total + int(v)));
  return intValue(total);
}

/** Sum of a range expression by arithmetic series, so a billion-value range costs nothing. */
function sumRange(v: ExprValue, ctx: EvalContext): ExprValue {
  const ranges = range(v).ranges;
  ctx.charge(ranges.length);
  let total = 0n;
  for (const r of ranges) {
    const count = (r.end - r.start) / r.step + 1n;
    total += ((r.start + r.end) * count) / 2n;
  }
  return intValue(total);
}

/** Python's round(x): nearest integer, ties to even. */
function roundToInt(x: number): ExprValue {
  const units = roundedUnits(x, 0);
  return intValue(x < 0 ? -units : units);
}

/** round(x, n): n ≤ 0 gives an int, n > 0 a float whose text keeps all n digits ("3.50"). */
function roundFloat(x: number, ndigits: bigint, ctx: EvalContext): ExprValue {
  if (ndigits <= 0n) {
    const tens = -ndigits;
    if (tens > 400n) return intValue(0n);
    const units = roundedUnits(x, Number(ndigits));
    return intValue((x < 0 ? -units : units) * 10n ** tens);
  }
  const digits = Number(ndigits);
  reserveText(ctx, digits + 330);
  ctx.chargeText(digits);
  const text = unitsToText(roundedUnits(x, digits), x < 0, digits);
  return floatValue(Number(text), text);
}

/** round(i, n) on an int: unchanged for n ≥ 0, else to a multiple of 10^-n, ties to even. */
function roundInt(i: bigint, ndigits: bigint): ExprValue {
  if (ndigits >= 0n) return intValue(i);
  if (-ndigits > 19n) return intValue(0n);
  const unit = 10n ** -ndigits;
  const magnitude = divideHalfEven(i < 0n ? -i : i, unit) * unit;
  return intValue(i < 0n ? -magnitude : magnitude);
}

function toIntChecked(x: number, what: string): ExprValue {
  try {
    return intValue(BigInt(x));
  } catch (error) {
    if (error instanceof ExprError) throw new ExprError("overflow", `${what} of ${x} does not fit in a 64-bit integer`);
    throw error;
  }
}

export function registerMath(lib: FunctionLibrary): void {
  lib
    .define("abs", "(int) -> int", ([a]) => (int(a) < 0n ? intValue(-int(a)) : a!))
    // A non-negative float is returned as is, keeping its written text like any copied value.
    .define("abs", "(float) -> float", ([a]) => (num(a) < 0 ? floatValue(-num(a)) : a!));

  for (const name of ["min", "max"] as const) {
    lib
      .define(name, "(int, int) -> int", (args) => pick(name, args))
      .define(name, "(float, float) -> float", (args) => pick(name, args))
      .define(name, "(int, int, int) -> int", (args) => pick(name, args))
      .define(name, "(float, float, float) -> float", (args) => pick(name, args))
      .define(name, "(list[nulltype]) -> noreturn", () => pick(name, []))
      .define(name, "(list[int]) -> int", ([l]) => pick(name, items(l)))
      .define(name, "(list[float]) -> float", ([l]) => pick(name, items(l)))
      .define(name, "(range_expr) -> int", ([r]) => {
        const values = range(r);
        if (values.size === 0n) throw valueError(`${name}() requires a non-empty range`);
        return intValue(name === "min" ? values.at(0) : values.at(values.size - 1n));
      });
  }

  lib
    .define("sum", "(list[nulltype]) -> int", () => intValue(0n))
    .define("sum", "(list[int]) -> int", ([l]) => sumInts(items(l)))
    .define("sum", "(list[float]) -> float", ([l]) => floatValue(items(l).reduce((acc, v) => acc + num(v), 0)))
    .define("sum", "(range_expr) -> int", ([r], ctx) => sumRange(r!, ctx));

  lib
    .define("floor", "(int) -> int", ([a]) => a!)
    .define("floor", "(float) -> int", ([a]) => toIntChecked(Math.floor(num(a)), "floor"))
    .define("ceil", "(int) -> int", ([a]) => a!)
    .define("ceil", "(float) -> int", ([a]) => toIntChecked(Math.ceil(num(a)), "ceil"));

  lib
    .define("round", "(int) -> int", ([a]) => a!)
    .define("round", "(float) -> int", ([a]) => roundToInt(num(a)))
    .define("round", "(int, int) -> int", ([a, n]) => roundInt(int(a), int(n)))
    .define("round", "(float, int) -> float | int", ([a, n], ctx) => roundFloat(num(a), int(n), ctx));
}
