/**
 * String functions (spec §2.2.4) with Python `str` semantics, and the string operators `+` and
 * `*` (§2.1.2). Offsets count code points. An empty `sub`/`old` is an error, as the spec says.
 */
import { reserveText } from "../budget";
import { valueError } from "../errors";
import type { EvalContext, FunctionLibrary } from "../library";
import { boolValue, intValue, stringValue, toText, type ExprValue } from "../values";
import { int, text, type Range } from "./args";
import { PREDICATES, codePointCount, codePointOffset, pythonCapitalize, pythonStrip, pythonTitle } from "./python-text";

function nonEmpty(name: string, argument: string, value: string): string {
  if (value === "") throw valueError(`${name}(): the ${argument} argument must not be empty`);
  return value;
}

function count(s: string, sub: string): number {
  let n = 0;
  for (let at = s.indexOf(sub); at >= 0; at = s.indexOf(sub, at + sub.length)) n++;
  return n;
}

/** find/rfind/index/rindex: the code-point offset of the first or last occurrence, or -1. */
function locate(name: string, s: string, sub: string): number {
  nonEmpty(name, "substring", sub);
  const at = name.startsWith("r") ? s.lastIndexOf(sub) : s.indexOf(sub);
  if (at < 0 && name.endsWith("index")) throw valueError(`${name}(): substring '${sub}' not found`);
  return at < 0 ? -1 : codePointOffset(s, at);
}

function replace(s: string, old: string, replacement: string, ctx: EvalContext): ExprValue {
  nonEmpty("replace", "old", old);
  const n = count(s, old);
  if (n === 0) return stringValue(s);
  reserveText(ctx, s.length + n * (replacement.length - old.length));
  return stringValue(s.split(old).join(replacement));
}

function repeat(s: string, times: bigint, ctx: EvalContext): ExprValue {
  if (times <= 0n || s === "") return stringValue("");
  // A float estimate is enough: a count near 2^63 only has to fail the memory check.
  const length = s.length * Number(times);
  reserveText(ctx, length);
  return stringValue(s.repeat(Number(times)));
}

function concat(a: string, b: string, ctx: EvalContext): ExprValue {
  reserveText(ctx, a.length + b.length);
  return stringValue(a + b);
}

/** ljust/rjust/center/zfill: pads `s` to `width` code points; the padding is sized first. */
function pad(s: string, width: bigint, ctx: EvalContext, place: (s: string, fill: number, width: number) => string): ExprValue {
  const length = codePointCount(s);
  if (width <= BigInt(length)) return stringValue(s);
  const fill = Number(width) - length;
  reserveText(ctx, s.length + fill);
  return stringValue(place(s, fill, Number(width)));
}

const PADDINGS = {
  ljust: (s: string, fill: number) => s + " ".repeat(fill),
  rjust: (s: string, fill: number) => " ".repeat(fill) + s,
  // CPython: the odd space goes left only when the width is odd too ("hi" in 7 → 3 left, 2 right).
  center: (s: string, fill: number, width: number) => {
    const left = Math.floor(fill / 2) + (fill & width & 1);
    return " ".repeat(left) + s + " ".repeat(fill - left);
  },
  // A leading sign stays in front of the zeros: "-1" in 3 → "-01".
  zfill: (s: string, fill: number) => (s[0] === "-" || s[0] === "+" ? s[0] + "0".repeat(fill) + s.slice(1) : "0".repeat(fill) + s),
} as const;

export function registerStrings(lib: FunctionLibrary): void {
  const map = (name: string, fn: (s: string) => string) => lib.define(name, "(string) -> string", ([s]) => stringValue(fn(text(s))));
  map("upper", (s) => s.toUpperCase());
  map("lower", (s) => s.toLowerCase());
  map("capitalize", pythonCapitalize);
  map("title", pythonTitle);

  for (const [name, left, right] of [
    ["strip", true, true],
    ["lstrip", true, false],
    ["rstrip", false, true],
  ] as const) {
    lib
      .define(name, "(string) -> string", ([s]) => stringValue(pythonStrip(text(s), null, left, right)))
      .define(name, "(string, string) -> string", ([s, chars]) => stringValue(pythonStrip(text(s), text(chars), left, right)));
  }

  lib
    .define("removeprefix", "(string, string) -> string", ([s, p]) => (text(s).startsWith(text(p)) ? stringValue(text(s).slice(text(p).length)) : s!))
    .define("removesuffix", "(string, string) -> string", ([s, p]) => (text(s).endsWith(text(p)) ? stringValue(text(s).slice(0, text(s).length - text(p).length)) : s!))
    .define("startswith", "(string, string) -> bool", ([s, p]) => boolValue(text(s).startsWith(text(p))))
    .define("endswith", "(string, string) -> bool", ([s, p]) => boolValue(text(s).endsWith(text(p))));

  for (const [name, test] of Object.entries(PREDICATES)) lib.define(name, "(string) -> bool", ([s]) => boolValue(test(text(s))));

  lib.define("count", "(string, string) -> int", ([s, sub]) => intValue(BigInt(count(text(s), nonEmpty("count", "substring", text(sub))))));
  for (const name of ["find", "rfind", "index", "rindex"]) {
    lib.define(name, "(string, string) -> int", ([s, sub]) => intValue(BigInt(locate(name, text(s), text(sub)))));
  }
  lib.define("replace", "(string, string, string) -> string", ([s, old, repl], ctx) => replace(text(s), text(old), text(repl), ctx));

  for (const [name, place] of Object.entries(PADDINGS)) {
    lib.define(name, "(string, int) -> string", ([s, width], ctx) => pad(text(s), int(width), ctx, place));
  }
  lib
    .define("zfill", "(int, int) -> string", ([n, width], ctx) => pad(toText(n!), int(width), ctx, PADDINGS.zfill))
    .define("zfill", "(float, int) -> string", ([x, width], ctx) => pad(toText(x!), int(width), ctx, PADDINGS.zfill));

  lib
    .define("__add__", "(string, string) -> string", ([a, b], ctx) => concat(text(a), text(b), ctx))
    .define("__add__", "(string, range_expr) -> string", ([a, r], ctx) => concat(text(a), (r as Range).value.toString(), ctx))
    .define("__add__", "(range_expr, string) -> string", ([r, b], ctx) => concat((r as Range).value.toString(), text(b), ctx))
    .define("__mul__", "(string, int) -> string", ([s, n], ctx) => repeat(text(s), int(n), ctx));
}
