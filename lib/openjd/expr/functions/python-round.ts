/**
 * Python's round() on doubles, done exactly: the double is split into mantissa × 2^exponent and
 * rounded half-to-even as a rational number, so `round(2.675, 2)` is 2.67 (the double lies just
 * below the tie) and `round(0.125, 2)` is 0.12 (an exact tie goes to even), as in CPython.
 */

/** Exact `mantissa * 2 ** exponent` of a finite non-negative double. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return biased === 0 ? { mantissa: fraction, exponent: -1074 } : { mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** round(numerator / denominator) with ties to even, for non-negative operands. */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twice = 2n * (numerator % denominator);
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

/** A double has at most 1074 fractional binary digits, hence at most 1074 decimal ones. */
const MAX_EXACT_DIGITS = 1074;
/** No double reaches 10^309, so rounding to that many tens or more gives zero. */
const MAX_DOUBLE_DIGITS = 309;

/**
 * |x| rounded to a multiple of 10^-digits, returned as the integer count of those units
 * (`digits` may be negative: round(1234.5, -1) → 123 units of ten). Digits beyond what the
 * double can hold are exact zeros, so they are not computed.
 */
export function roundedUnits(x: number, digits: number): bigint {
  const { mantissa, exponent } = decompose(Math.abs(x));
  const scaleUp = digits > 0 ? 10n ** BigInt(Math.min(digits, MAX_EXACT_DIGITS)) : 1n;
  const scaleDown = digits < 0 ? (-digits >= MAX_DOUBLE_DIGITS ? null : 10n ** BigInt(-digits)) : 1n;
  if (scaleDown === null) return 0n;
  const numerator = mantissa * scaleUp * (exponent > 0 ? 1n << BigInt(exponent) : 1n);
  const denominator = scaleDown * (exponent < 0 ? 1n << BigInt(-exponent) : 1n);
  return divideHalfEven(numerator, denominator);
}

/**
 * Decimal text of `units` × 10^-digits with exactly `digits` fractional digits (digits > 0),
 * e.g. (350, 2) → "3.50". Zero never carries a sign: the language has no -0.0.
 */
export function unitsToText(units: bigint, negative: boolean, digits: number): string {
  const computed = Math.min(digits, MAX_EXACT_DIGITS);
  const body = units.toString().padStart(computed + 1, "0");
  const whole = body.slice(0, body.length - computed);
  const fraction = body.slice(body.length - computed).padEnd(digits, "0");
  return `${negative && units !== 0n ? "-" : ""}${whole}.${fraction}`;
}
