/**
 * Hostile scalar values for template mutation: numbers at and past the int64 and double limits,
 * strings with control characters, odd Unicode and stray `{{`/`}}`, range and combination
 * expressions built to break their parsers. Values that only exist as text (`1e309`, `-0`,
 * `.nan`) are RawScalar, written into the document verbatim.
 */
import { INT64_MAX, INT64_MIN } from "../numbers";
import type { Random } from "./random";

export class RawScalar {
  constructor(readonly text: string) {}
}

export type TreeValue = null | boolean | number | bigint | string | RawScalar | TreeValue[] | { [key: string]: TreeValue };

const BOUNDARY_NUMBERS: readonly (() => TreeValue)[] = [
  () => INT64_MAX,
  () => INT64_MAX + 1n,
  () => INT64_MIN,
  () => INT64_MIN - 1n,
  () => 2n ** 128n,
  () => 0n,
  () => -1n,
  () => 9999999999n,
  () => 2 ** 53 + 1,
  () => new RawScalar("-0"),
  () => new RawScalar("-0.0"),
  () => new RawScalar("1e309"),
  () => new RawScalar("-1e309"),
  () => new RawScalar("1e-400"),
  () => new RawScalar("NaN"),
  () => new RawScalar(".nan"),
  () => new RawScalar(".inf"),
  () => new RawScalar("-.Inf"),
  () => new RawScalar("0x7fffffffffffffff"),
  () => new RawScalar("0o777"),
  () => new RawScalar("1_000"),
  () => new RawScalar("+12"),
  () => new RawScalar("00012"),
  () => new RawScalar("1." + "9".repeat(400)),
  () => new RawScalar("9".repeat(400)),
  () => 0.1,
  () => 1.7976931348623157e308,
  () => 5e-324,
];

export function boundaryNumber(rng: Random): TreeValue {
  return rng.pick(BOUNDARY_NUMBERS)();
}

const CONTROL = ["\u0000", "\u0001", "\u0007", "\b", "\t", "\n", "\v", "\f", "\r", "\u001b", "\u007f", "\u0085", "\u009f", "\u2028", "\u2029"];
const UNICODE = ["é", "e\u0301", "日本語", "🎬", "👩🏽‍🚀", "\u202e", "\u200b", "\ufeff", "\ud800", "\udfff", "\uffff", "Ⅻ", "١٢٣", "１２", "İ", "ß", "ﬁ"];
const TEMPLATE_BITS = [
  "{{",
  "}}",
  "{{ Param.",
  "{{Task.Param.Frame}}",
  "{{ Param.Unknown }}",
  "{{}}",
  "{{{{",
  "}}}}",
  "{{ Session.WorkingDirectory }}",
  "{{ RawParam.X }}",
  "{{ Task.File.Run }}",
  "{{ Env.File.Enter }}",
  "{{Param.A}}{{Param.A}}",
  "\\{{",
  "{ {",
];

export function insertAt(text: string, index: number, piece: string): string {
  return text.slice(0, index) + piece + text.slice(index);
}

export function withControlCharacters(rng: Random, base: string): string {
  let out = base;
  for (let i = rng.between(1, 4); i > 0; i--) out = insertAt(out, rng.int(out.length + 1), rng.pick(CONTROL));
  return out;
}

export function withUnicode(rng: Random, base: string): string {
  let out = base;
  for (let i = rng.between(1, 4); i > 0; i--) out = insertAt(out, rng.int(out.length + 1), rng.pick(UNICODE));
  return out;
}

export function withBraces(rng: Random, base: string): string {
  let out = base;
  for (let i = rng.between(1, 3); i > 0; i--) out = insertAt(out, rng.int(out.length + 1), rng.pick(TEMPLATE_BITS));
  return out;
}

export function longString(rng: Random, length = 100_000): string {
  const unit = rng.pick(["x", "é", "🎬", "{{", "a b ", "\\", "'\"", "-"]);
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

function rangeNumber(rng: Random): string {
  return rng.pick([
    () => String(rng.between(-20, 20)),
    () => String(rng.between(0, 5000)),
    () => "9999999999",
    () => INT64_MAX.toString(),
    () => INT64_MIN.toString(),
    () => (INT64_MAX + 1n).toString(),
    () => "1".repeat(rng.between(20, 60)),
    () => rng.pick(["", " ", "a", "1.5", "1e3", "0x10", "+3", "--1", "１", "NaN", "_1"]),
  ])();
}

/** A `<RangeExpr>`-like string: mostly well formed, sometimes huge, sometimes broken. */
export function randomRangeExpr(rng: Random): string {
  const items: string[] = [];
  for (let i = rng.between(1, 5); i > 0; i--) {
    const a = rangeNumber(rng);
    const form = rng.int(4);
    if (form === 0) items.push(a);
    else if (form === 1) items.push(`${a}-${rangeNumber(rng)}`);
    else if (form === 2) items.push(`${a}-${rangeNumber(rng)}:${rangeNumber(rng)}`);
    else items.push(rng.pick(["1-9999999999", `${INT64_MIN}-${INT64_MAX}`, "1-10:0", "10-1", "10-1:-1", "1--5", "1-5:", ":", "-", ",", "1,,2", " 1 - 3 : 1 "]));
  }
  return items.join(rng.pick([",", ", ", " ,", ",,"]));
}

/** A `<CombinationExpr>`-like string over `names`, with random nesting and stray symbols. */
export function randomCombinationExpr(rng: Random, names: readonly string[], depth = 0): string {
  const leaf = () => (names.length > 0 && rng.chance(0.85) ? rng.pick(names) : rng.pick(["X", "Frame", "a b", "1", "", "Param.X", "Ünï"]));
  if (depth > 4 || rng.chance(0.35)) return leaf();
  const parts: string[] = [];
  for (let i = rng.between(1, 4); i > 0; i--) parts.push(randomCombinationExpr(rng, names, depth + 1));
  const op = rng.pick([" * ", "*", ", ", ",", " ** ", " + ", " "]);
  const body = parts.join(op);
  return rng.chance(0.5) ? `(${body})` : rng.chance(0.1) ? `${"(".repeat(rng.between(1, 700))}${body}` : body;
}

/** A value of some other type than `current`, for type confusion. */
export function otherTypeValue(rng: Random, current: TreeValue): TreeValue {
  const scalar: TreeValue = current === null || typeof current !== "object" ? current : "x";
  const makers: Array<[string, () => TreeValue]> = [
    ["string", () => rng.pick(["", "x", "true", "1", "null", "1.5", "~", "- a", "a: b"])],
    ["bigint", () => BigInt(rng.between(-3, 2000))],
    ["number", () => rng.pick([1.5, -2.25, 0.0001, 1e21])],
    ["boolean", () => rng.chance(0.5)],
    ["null", () => null],
    ["list", () => (rng.chance(0.5) ? [] : [scalar])],
    ["map", (): TreeValue => (rng.chance(0.5) ? {} : { value: scalar })],
  ];
  const kind = Array.isArray(current) ? "list" : current instanceof RawScalar ? "raw" : current === null ? "null" : typeof current === "object" ? "map" : typeof current;
  const choices = makers.filter(([k]) => k !== kind);
  return rng.pick(choices)[1]();
}

/** Lists and maps nested `depth` levels, ending in a scalar. */
export function nested(rng: Random, depth: number): TreeValue {
  let value: TreeValue = rng.pick(["leaf", 1n, null]);
  for (let i = 0; i < depth; i++) value = rng.chance(0.5) ? [value] : { k: value };
  return value;
}
