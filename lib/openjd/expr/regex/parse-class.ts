/**
 * Bracketed character classes `[…]`. Python and Rust agree on plain members, ranges, escapes, a
 * leading `^` and a `]` or `-` placed first; they disagree on everything Rust reads as class
 * syntax (nested `[…]`, `[:alpha:]`, `&&`, `--`, `~~`) and on whitespace under `(?x)`, which Rust
 * strips and Python keeps. Those are refused so a pattern never silently means two things.
 */
import type { ClassItem, Flags, RegexNode } from "./ast";
import { parseEscape } from "./parse-escape";
import { show, type PatternReader } from "./pattern-reader";
import { isSpace } from "./unicode";

const CLOSE = 0x5d; // ]
const DASH = 0x2d; // -

/** Reads the class at the cursor (which is on the `[`). */
export function parseClass(reader: PatternReader, flags: Flags): RegexNode {
  const open = reader.pos;
  reader.next();
  const negated = reader.eat("^");
  const items: ClassItem[] = [];
  let first = true;
  for (;;) {
    if (reader.atEnd) reader.fail("unterminated character class", open);
    const at = reader.pos;
    const cp = reader.peek();
    if (cp === CLOSE && !first) {
      reader.next();
      break;
    }
    checkPortable(reader, flags, cp, at);
    if (cp === DASH && !first && !reader.is("]", 1)) {
      reader.fail("a '-' inside a class must be first, last, or escaped", at);
    }
    const lo = member(reader);
    if (lo.kind === "range" && reader.is("-") && !reader.is("]", 1) && reader.peek(1) >= 0) {
      const dash = reader.pos;
      reader.next();
      checkPortable(reader, flags, reader.peek(), reader.pos);
      const hi = member(reader);
      if (hi.kind !== "range") reader.fail("a class such as \\d cannot end a range", dash);
      if (hi.lo < lo.lo) reader.fail(`bad character range ${show(lo.lo)}-${show(hi.lo)}`, at);
      items.push({ kind: "range", lo: lo.lo, hi: hi.lo });
    } else {
      items.push(lo);
    }
    first = false;
  }
  return { kind: "class", items, negated, fold: flags.i, offset: open };
}

function member(reader: PatternReader): ClassItem {
  if (reader.is("\\")) {
    const escape = parseEscape(reader, true);
    if (escape.kind === "char") return { kind: "range", lo: escape.cp, hi: escape.cp };
    if (escape.kind === "perl") return { kind: "perl", which: escape.which, negated: escape.negated };
    return reader.fail("assertions are not allowed inside a character class");
  }
  const cp = reader.next();
  return { kind: "range", lo: cp, hi: cp };
}

function checkPortable(reader: PatternReader, flags: Flags, cp: number, at: number): void {
  if (cp === 0x5b) reader.fail("an unescaped '[' inside a class is not supported (nested classes and [:name:] differ between engines); write \\[", at);
  for (const pair of ["&&", "--", "~~"]) {
    if (reader.source.startsWith(pair, at)) reader.fail(`'${pair}' inside a class is a set operation in Rust; escape it`, at);
  }
  if (flags.x && (cp === 0x23 || isSpace(cp))) {
    reader.fail("whitespace or '#' inside a class under (?x) is read differently by Python and Rust; escape it", at);
  }
}
