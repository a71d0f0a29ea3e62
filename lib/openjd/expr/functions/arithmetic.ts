/** Arithmetic operators (spec digest §14.4): int64 with overflow errors, floored // and %, finite floats. */
import { ExprError, valueError } from "../errors";
import type { FunctionLibrary } from "../library";
import { floatValue, intValue, type ExprValue } from "../values";
import { int, num } from "./args";

function zeroDivision(): ExprError {
  return new ExprError("zero-division", "division by zero");
}

/** Python's floored division and modulo for int64. */
function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw zeroDivision();
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function floorMod(a: bigint, b: bigint): bigint {
  if (b === 0n) throw zeroDivision();
  const r = a % b;
  return r !== 0n && r < 0n !== b < 0n ? r + b : r;
}

function floatFloorDiv(a: number, b: number): number {
  if (b === 0) throw zeroDivision();
  return Math.floor(a / b);
}

function floatMod(a: number, b: number): number {
  if (b === 0) throw zeroDivision();
  const r = a % b;
  return r !== 0 && r < 0 !== b < 0 ? r + b : r;
}

function intPow(base: bigint, exponent: bigint): ExprValue {
  if (exponent < 0n) {
    if (base === 0n) throw zeroDivision();
    return floatValue(Number(base) ** Number(exponent));
  }
  // |base| >= 2 overflows int64 beyond exponent 63; stop before computing an enormous number.
  if ((base > 1n || base < -1n) && exponent > 64n) throw new ExprError("overflow", `integer overflow: ${base} ** ${exponent} does not fit in 64 bits`);
  return intValue(base ** exponent);
}

function floatPow(a: number, b: number): ExprValue {
  if (a === 0 && b < 0) throw zeroDivision();
  if (a < 0 && !Number.isInteger(b)) throw valueError(`a negative number (${a}) cannot be raised to a fractional power (${b})`);
  return floatValue(a ** b);
}

export function registerArithmetic(lib: FunctionLibrary): void {
  lib
    .define("__add__", "(int, int) -> int", ([a, b]) => intValue(int(a!) + int(b!)))
    .define("__add__", "(float, float) -> float", ([a, b]) => floatValue(num(a!) + num(b!)))
    .define("__sub__", "(int, int) -> int", ([a, b]) => intValue(int(a!) - int(b!)))
    .define("__sub__", "(float, float) -> float", ([a, b]) => floatValue(num(a!) - num(b!)))
    .define("__mul__", "(int, int) -> int", ([a, b]) => intValue(int(a!) * int(b!)))
    .define("__mul__", "(float, float) -> float", ([a, b]) => floatValue(num(a!) * num(b!)))
    .define("__truediv__", "(float, float) -> float", ([a, b]) => {
      if (num(b!) === 0) throw zeroDivision();
      return floatValue(num(a!) / num(b!));
    })
    .define("__floordiv__", "(int, int) -> int", ([a, b]) => intValue(floorDiv(int(a!), int(b!))))
    // The spec types float // float as int (conformance expr2.1.1--division: 7.0 // 2.0 is 3).
    .define("__floordiv__", "(float, float) -> int", ([a, b]) => {
      const quotient = floatFloorDiv(num(a!), num(b!));
      if (!Number.isFinite(quotient)) throw new ExprError("overflow", `${num(a!)} // ${num(b!)} is too large to be an integer`);
      return intValue(BigInt(quotient));
    })
    .define("__mod__", "(int, int) -> int", ([a, b]) => intValue(floorMod(int(a!), int(b!))))
    .define("__mod__", "(float, float) -> float", ([a, b]) => floatValue(floatMod(num(a!), num(b!))))
    .define("__pow__", "(int, int) -> int | float", ([a, b]) => intPow(int(a!), int(b!)))
    .define("__pow__", "(float, float) -> float", ([a, b]) => floatPow(num(a!), num(b!)))
    .define("__neg__", "(int) -> int", ([a]) => intValue(-int(a!)))
    .define("__neg__", "(float) -> float", ([a]) => floatValue(-num(a!)))
    .define("__pos__", "(int) -> int", ([a]) => a!)
    .define("__pos__", "(float) -> float", ([a]) => floatValue(num(a!)));
}
