/**
 * Numbers as OpenJD writes them: INT values are signed 64-bit (`<integer>` or an `<intstring>`
 * such as "007"), FLOAT values keep the text they were given so that copying a value never
 * changes it ("3.500" stays "3.500").
 */
import type { FloatLiteral } from "./model";

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** The INT and FLOAT text forms; EXPR's conversions from strings accept the same. */
export const INT_TEXT = /^\s*[-+]?[0-9]+\s*$/;
export const FLOAT_TEXT = /^\s*[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$/;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

export function parseIntText(text: string): Parsed<bigint> {
  if (!INT_TEXT.test(text)) return { ok: false, message: `'${clip(text)}' is not an integer` };
  return checkInt64(BigInt(text.trim()));
}

export function checkInt64(value: bigint): Parsed<bigint> {
  if (value < INT64_MIN || value > INT64_MAX) {
    return { ok: false, message: `${clip(value.toString())} is outside the 64-bit integer range` };
  }
  return { ok: true, value };
}

export function parseFloatText(text: string): Parsed<FloatLiteral> {
  if (!FLOAT_TEXT.test(text)) return { ok: false, message: `'${clip(text)}' is not a number` };
  return checkFinite({ value: Number(text.trim()), text: text.trim() });
}

export function checkFinite(literal: FloatLiteral): Parsed<FloatLiteral> {
  if (!Number.isFinite(literal.value)) return { ok: false, message: `'${clip(literal.text)}' is not a finite number` };
  return { ok: true, value: literal };
}

/** Orders INT values (for sorting and for min/max/allowedValues checks). */
export function compareBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders FLOAT values by number, whatever their text: "1.0" equals "1". */
export function compareFloat(a: FloatLiteral, b: FloatLiteral): number {
  return a.value - b.value;
}

/** Canonical text of a float value for display when no original text exists. */
export function floatText(value: number): string {
  return Number.isInteger(value) ? value.toFixed(0) : String(value);
}

export function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
