/**
 * Pattern text → syntax tree, for the dialect EXPR allows: the intersection of Python `re` and
 * Rust `regex` (spec §2.2.5; openjd-rs `specs/expr/function-library.md` "Regex functions").
 * Anything outside it — backreferences, lookaround, conditionals, atomic groups, possessive
 * quantifiers, comments, `\Z`/`\z`, Rust-only spellings — is refused with a located RegexError.
 */
import { NO_FLAGS, type Flags, type ParsedPattern, type RegexNode } from "./ast";
import { parseClass } from "./parse-class";
import { parseEscape } from "./parse-escape";
import { isAsciiDigit, PatternReader, show } from "./pattern-reader";
import { REGEX_LIMITS } from "./regex-error";
import { hasCaseVariants } from "./unicode";

const FLAG_LETTERS = "imsxu";
const OPEN_MIN = /\{,\d+\}/y;

export function parsePattern(pattern: string): ParsedPattern {
  const reader = new PatternReader(pattern);
  if (pattern.length === 0) reader.fail("the pattern is empty", 0);
  if (pattern.length > REGEX_LIMITS.patternLength) {
    reader.fail(`the pattern is longer than ${REGEX_LIMITS.patternLength} characters`, REGEX_LIMITS.patternLength);
  }
  return new Parser(reader).parse();
}

interface FlagGroup {
  flags: Flags;
  scoped: boolean;
}

class Parser {
  private groupCount = 0;
  private readonly groupNames = new Map<string, number>();

  constructor(private readonly reader: PatternReader) {}

  parse(): ParsedPattern {
    let flags = NO_FLAGS;
    // Bare `(?flags)` groups are global; both engines agree only when they lead the pattern.
    for (;;) {
      const start = this.reader.pos;
      if (!this.reader.eat("(?") || !isFlagStart(this.reader.peek())) {
        this.reader.pos = start;
        break;
      }
      const group = this.flagGroup(flags, start);
      if (group.scoped) {
        this.reader.pos = start;
        break;
      }
      flags = group.flags;
    }
    const root = this.alternation(flags, 0);
    if (!this.reader.atEnd) this.reader.fail("unbalanced parenthesis: ')' without '('");
    return { root, groupCount: this.groupCount, groupNames: this.groupNames };
  }

  private alternation(flags: Flags, depth: number): RegexNode {
    const offset = this.reader.pos;
    const branches = [this.concat(flags, depth)];
    while (this.reader.eat("|")) branches.push(this.concat(flags, depth));
    return branches.length === 1 ? (branches[0] as RegexNode) : { kind: "alt", branches, offset };
  }

  private concat(flags: Flags, depth: number): RegexNode {
    const offset = this.reader.pos;
    const items: RegexNode[] = [];
    for (;;) {
      this.skipVerbose(flags);
      if (this.reader.atEnd || this.reader.is("|") || this.reader.is(")")) break;
      const atom = this.atom(flags, depth);
      this.skipVerbose(flags);
      items.push(this.quantified(atom, flags));
    }
    if (items.length === 0) return { kind: "empty", offset };
    return items.length === 1 ? (items[0] as RegexNode) : { kind: "concat", items, offset };
  }

  private atom(flags: Flags, depth: number): RegexNode {
    const reader = this.reader;
    const offset = reader.pos;
    const cp = reader.peek();
    switch (cp) {
      case 0x28: // (
        return this.group(flags, depth);
      case 0x5b: // [
        return parseClass(reader, flags);
      case 0x2e: // .
        reader.next();
        return { kind: "dot", dotAll: flags.s, offset };
      case 0x5e: // ^
        reader.next();
        return { kind: "assert", assertion: flags.m ? "lineStart" : "textStart", offset };
      case 0x24: // $
        reader.next();
        return { kind: "assert", assertion: flags.m ? "lineEnd" : "textEnd", offset };
      case 0x5c: {
        const escape = parseEscape(reader, false);
        if (escape.kind === "char") return literal(escape.cp, flags, offset);
        if (escape.kind === "assert") return { kind: "assert", assertion: escape.assertion, offset };
        return { kind: "class", items: [{ kind: "perl", which: escape.which, negated: escape.negated }], negated: false, fold: false, offset };
      }
      case 0x2a: // *
      case 0x2b: // +
      case 0x3f: // ?
        return reader.fail("nothing to repeat");
      case 0x7b: // {
        if (this.braces() !== null) reader.fail("nothing to repeat", offset);
        return reader.fail("a literal '{' must be escaped as \\{", offset);
    }
    reader.next();
    return literal(cp, flags, offset);
  }

  private group(flags: Flags, depth: number): RegexNode {
    const reader = this.reader;
    const open = reader.pos;
    if (depth + 1 > REGEX_LIMITS.nesting) reader.fail(`groups are nested deeper than ${REGEX_LIMITS.nesting} levels`, open);
    reader.next();
    let index: number | null = null;
    let inner = flags;
    if (reader.eat("?")) {
      if (reader.eat(":")) {
        // non-capturing
      } else if (reader.eat("P<")) {
        index = this.namedGroup(open);
      } else if (isFlagStart(reader.peek())) {
        const group = this.flagGroup(flags, open);
        if (!group.scoped) reader.fail("inline flags are only allowed at the start of the pattern; use a scoped group like (?i:…)", open);
        inner = group.flags;
      } else {
        reader.fail(refusedExtension(reader), open);
      }
    } else {
      index = ++this.groupCount;
    }
    const body = this.alternation(inner, depth + 1);
    if (!reader.eat(")")) reader.fail("missing ')': unterminated group", open);
    return { kind: "group", index, body, offset: open };
  }

  private namedGroup(open: number): number {
    const reader = this.reader;
    const start = reader.pos;
    while (!reader.atEnd && !reader.is(">")) reader.next();
    const name = reader.source.slice(start, reader.pos);
    if (!reader.eat(">")) reader.fail("unterminated group name", open);
    if (!/^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}_]*$/u.test(name)) reader.fail(`bad group name '${name}': use letters, digits and '_'`, start);
    if (this.groupNames.has(name)) reader.fail(`the group name '${name}' is used twice`, start);
    const index = ++this.groupCount;
    this.groupNames.set(name, index);
    return index;
  }

  /** Reads `flags)` or `flags:` (after `(?`), e.g. `i)`, `im:`, `-i:`, `s-x:`. */
  private flagGroup(flags: Flags, open: number): FlagGroup {
    const reader = this.reader;
    const add = new Set<string>();
    const remove = new Set<string>();
    let negating = false;
    for (;;) {
      const at = reader.pos;
      const cp = reader.next();
      if (cp < 0) reader.fail("unterminated flag group", open);
      if (cp === 0x29 || cp === 0x3a) {
        const scoped = cp === 0x3a;
        if (add.size + remove.size === 0 && !negating) reader.fail("missing flags", at);
        if (negating && remove.size === 0) reader.fail("missing flag after '-'", at);
        if (!scoped && negating) reader.fail("turning flags off is only allowed in a scoped group like (?-i:…)", open);
        const value = (letter: keyof Flags): boolean => (add.has(letter) ? true : remove.has(letter) ? false : flags[letter]);
        return { scoped, flags: { i: value("i"), m: value("m"), s: value("s"), x: value("x") } };
      }
      if (cp === 0x2d && !negating) {
        negating = true;
        continue;
      }
      const letter = String.fromCodePoint(cp);
      if (!FLAG_LETTERS.includes(letter)) reader.fail(`unsupported inline flag ${show(cp)} (allowed: i, m, s, x, u)`, at);
      if (negating && letter === "u") reader.fail("the u flag cannot be turned off", at);
      if ((negating ? add : remove).has(letter)) reader.fail(`the flag '${letter}' is turned both on and off`, at);
      (negating ? remove : add).add(letter);
    }
  }

  private quantified(atom: RegexNode, flags: Flags): RegexNode {
    const reader = this.reader;
    const at = reader.pos;
    let min: number;
    let max: number;
    if (reader.eat("*")) [min, max] = [0, Infinity];
    else if (reader.eat("+")) [min, max] = [1, Infinity];
    else if (reader.eat("?")) [min, max] = [0, 1];
    else if (reader.is("{")) {
      const braces = this.braces();
      if (braces === null) return reader.fail("a literal '{' must be escaped as \\{", at);
      [min, max] = braces;
    } else return atom;
    if (atom.kind === "assert") reader.fail("nothing to repeat: an assertion cannot be repeated", at);
    const greedy = !reader.eat("?");
    if (reader.is("+")) reader.fail("possessive quantifiers are not supported", reader.pos);
    this.skipVerbose(flags);
    if (reader.is("*") || reader.is("+") || reader.is("?") || (reader.is("{") && this.braces(false) !== null)) {
      reader.fail("multiple repeat: wrap the repeated part in (?:…) first", reader.pos);
    }
    return { kind: "repeat", min, max, greedy, body: atom, offset: atom.offset, quantifierOffset: at };
  }

  /**
   * Reads `{n}`, `{n,}` or `{n,m}` at the cursor and returns [min, max], or null (cursor
   * unmoved) when the brace does not start one. `{,m}` is refused: older Rust rejects it.
   */
  private braces(consume = true): [number, number] | null {
    const reader = this.reader;
    const start = reader.pos;
    reader.next();
    const min = this.number();
    let max = min;
    if (reader.eat(",")) max = this.number() ?? Infinity;
    if (min === null || max === null || !reader.eat("}")) {
      OPEN_MIN.lastIndex = start;
      const openMin = min === null && OPEN_MIN.test(reader.source);
      reader.pos = start;
      if (openMin) reader.fail("{,m} is not supported; write {0,m}", start);
      return null;
    }
    if (max < min) reader.fail(`bad repetition {${min},${max}}: the minimum exceeds the maximum`, start);
    if (!consume) reader.pos = start;
    return [min, max];
  }

  private number(): number | null {
    const reader = this.reader;
    const start = reader.pos;
    while (isAsciiDigit(reader.peek())) reader.next();
    if (reader.pos === start) return null;
    const value = Number(reader.source.slice(start, reader.pos));
    if (value > REGEX_LIMITS.repetitionCount) reader.fail(`repetition counts above ${REGEX_LIMITS.repetitionCount} are not supported`, start);
    return value;
  }

  /** Under `(?x)`: skips ASCII whitespace and `#` comments. Other whitespace is refused. */
  private skipVerbose(flags: Flags): void {
    if (!flags.x) return;
    const reader = this.reader;
    for (;;) {
      const cp = reader.peek();
      if (cp === 0x20 || (cp >= 0x09 && cp <= 0x0d)) reader.next();
      else if (cp === 0x23) while (!reader.atEnd && reader.next() !== 0x0a);
      else if (cp === 0x85 || cp === 0xa0 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x2028 || cp === 0x2029 || cp === 0x202f || cp === 0x205f || cp === 0x3000) {
        reader.fail("non-ASCII whitespace under (?x) is read differently by Python and Rust; write it as \\uhhhh");
      } else return;
    }
  }
}

/** Under (?i) a literal folds unless it is ASCII without case (no other code point folds to it). */
function literal(cp: number, flags: Flags, offset: number): RegexNode {
  return { kind: "literal", cp, fold: flags.i && (cp >= 0x80 || hasCaseVariants(cp)), offset };
}

/** A letter or '-' after `(?` starts a flag group; `P` starts `(?P<name>` and its relatives. */
function isFlagStart(cp: number): boolean {
  if (cp === 0x50) return false;
  return cp === 0x2d || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
}

/** The message for a `(?…` extension outside the dialect. */
function refusedExtension(reader: PatternReader): string {
  const rest = reader.source.slice(reader.pos);
  if (rest.startsWith("=")) return "lookahead (?=…) is not supported";
  if (rest.startsWith("!")) return "negative lookahead (?!…) is not supported";
  if (rest.startsWith("<=")) return "lookbehind (?<=…) is not supported";
  if (rest.startsWith("<!")) return "negative lookbehind (?<!…) is not supported";
  if (rest.startsWith("<")) return "the (?<name>…) spelling is not supported; use (?P<name>…)";
  if (rest.startsWith("P=")) return "named backreferences (?P=name) are not supported";
  if (rest.startsWith("#")) return "inline comments (?#…) are not supported";
  if (rest.startsWith(">")) return "atomic groups (?>…) are not supported";
  if (rest.startsWith("(")) return "conditional patterns (?(…)…) are not supported";
  return `unknown group extension (?${rest.slice(0, 1)}`;
}
