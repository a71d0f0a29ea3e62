/**
 * Syntax tree → NFA program for the Pike VM (vm.ts). Counted repetition is expanded into
 * copies, so the program size is computed first and a pattern that would exceed
 * REGEX_LIMITS.programSize is refused, located at the repetition that blows it up — nothing is
 * expanded before the check.
 *
 * Thread priority is encoded in `split`: `x` is preferred to `y`. That gives leftmost-first
 * (Perl/Python/Rust) semantics: alternatives in order, greedy quantifiers prefer another
 * iteration, lazy ones prefer to stop.
 */
import type { Assertion, RegexNode } from "./ast";
import { classTest, type CodePointTest } from "./char-class";
import { REGEX_LIMITS, RegexError } from "./regex-error";
import { caseCanon } from "./unicode";

export type Inst =
  | { op: "char"; cp: number }
  /** Matches any code point whose case-fold representative is `canon`. */
  | { op: "fold"; canon: number }
  | { op: "any"; dotAll: boolean }
  | { op: "class"; test: CodePointTest }
  | { op: "split"; x: number; y: number }
  | { op: "jmp"; to: number }
  | { op: "save"; slot: number }
  | { op: "assert"; assertion: Assertion }
  | { op: "match" };

export interface Program {
  insts: Inst[];
  /** Two slots (start, end) per group, group 0 being the whole match. */
  slotCount: number;
}

const classTests = new WeakMap<RegexNode, CodePointTest>();

/** Instructions added around the pattern: save 0, save 1, match. */
const FRAME = 3;

export function compile(root: RegexNode, groupCount: number): Program {
  const total = sizeOf(root) + FRAME;
  if (total > REGEX_LIMITS.programSize) throw tooBig(root.offset);
  const insts: Inst[] = [{ op: "save", slot: 0 }];
  emit(root, insts);
  insts.push({ op: "save", slot: 1 }, { op: "match" });
  return { insts, slotCount: 2 * (groupCount + 1) };
}

function tooBig(offset: number): RegexError {
  return new RegexError(`the pattern compiles to more than ${REGEX_LIMITS.programSize} instructions (counted repetition is expanded)`, offset);
}

/** Instructions `emit` produces for the node; throws at the node that first exceeds the limit. */
function sizeOf(node: RegexNode): number {
  const limit = REGEX_LIMITS.programSize;
  switch (node.kind) {
    case "empty":
      return 0;
    case "literal":
    case "dot":
    case "class":
    case "assert":
      return 1;
    case "group":
      return sizeOf(node.body) + (node.index === null ? 0 : 2);
    case "concat":
    case "alt": {
      const parts = node.kind === "concat" ? node.items : node.branches;
      let total = node.kind === "alt" ? 2 * (parts.length - 1) : 0;
      for (const part of parts) {
        total += sizeOf(part);
        if (total > limit) throw tooBig(part.offset);
      }
      return total;
    }
    case "repeat": {
      const body = sizeOf(node.body);
      const total = node.max === Infinity ? (node.min === 0 ? body + 2 : node.min * body + 1) : node.min * body + (node.max - node.min) * (body + 1);
      if (total > limit) throw tooBig(node.quantifierOffset);
      return total;
    }
  }
}

function emit(node: RegexNode, insts: Inst[]): void {
  switch (node.kind) {
    case "empty":
      return;
    case "literal":
      insts.push(node.fold ? { op: "fold", canon: caseCanon(node.cp) } : { op: "char", cp: node.cp });
      return;
    case "dot":
      insts.push({ op: "any", dotAll: node.dotAll });
      return;
    case "class": {
      // Copies made by counted repetition share one membership test (and its ASCII table).
      let test = classTests.get(node);
      if (test === undefined) classTests.set(node, (test = classTest(node.items, node.negated, node.fold)));
      insts.push({ op: "class", test });
      return;
    }
    case "assert":
      insts.push({ op: "assert", assertion: node.assertion });
      return;
    case "group":
      if (node.index === null) return emit(node.body, insts);
      insts.push({ op: "save", slot: 2 * node.index });
      emit(node.body, insts);
      insts.push({ op: "save", slot: 2 * node.index + 1 });
      return;
    case "concat":
      for (const item of node.items) emit(item, insts);
      return;
    case "alt":
      return emitAlternation(node.branches, insts);
    case "repeat":
      return emitRepeat(node, insts);
  }
}

function emitAlternation(branches: readonly RegexNode[], insts: Inst[]): void {
  const exits: number[] = [];
  branches.forEach((branch, k) => {
    const last = k === branches.length - 1;
    const split = insts.length;
    if (!last) insts.push({ op: "split", x: split + 1, y: -1 });
    emit(branch, insts);
    if (last) return;
    exits.push(insts.length);
    insts.push({ op: "jmp", to: -1 });
    insts[split] = { op: "split", x: split + 1, y: insts.length };
  });
  for (const at of exits) insts[at] = { op: "jmp", to: insts.length };
}

/** A split preferring `next` (stay in the loop / take the copy) when greedy, `out` when lazy. */
function prefer(greedy: boolean, next: number, out: number): Inst {
  return greedy ? { op: "split", x: next, y: out } : { op: "split", x: out, y: next };
}

function emitRepeat(node: Extract<RegexNode, { kind: "repeat" }>, insts: Inst[]): void {
  const { min, max, greedy, body } = node;
  if (max === Infinity) {
    // e{n,} = e{n-1} e+ ; e* = (?:e+)? so an iteration that matches empty is still entered once.
    for (let k = 0; k < min - 1; k++) emit(body, insts);
    const guard = insts.length;
    if (min === 0) insts.push({ op: "jmp", to: -1 });
    const loop = insts.length;
    emit(body, insts);
    const back = insts.length;
    insts.push(prefer(greedy, loop, back + 1));
    if (min === 0) insts[guard] = prefer(greedy, loop, back + 1);
    return;
  }
  for (let k = 0; k < min; k++) emit(body, insts);
  // e{n,m}: m-n nested optional copies, (?:e(?:e…)?)?; skipping one skips the rest.
  const splits: number[] = [];
  for (let k = min; k < max; k++) {
    splits.push(insts.length);
    insts.push({ op: "jmp", to: -1 });
    emit(body, insts);
  }
  const end = insts.length;
  for (const at of splits) insts[at] = prefer(greedy, at + 1, end);
}
