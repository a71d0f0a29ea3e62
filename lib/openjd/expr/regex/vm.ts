/**
 * Pike VM: a Thompson simulation of the NFA program that tracks capture positions per thread.
 * All live threads advance together one code point at a time; a thread reaching an instruction
 * another thread already reached at this position is dropped, and threads are kept in priority
 * order, so the first thread to reach `match` is the leftmost-first match Python and Rust give.
 * Work per input position is bounded by the program size, so a run costs O(program × input)
 * whatever the pattern — there is no backtracking to explode.
 *
 * Captures are persistent linked lists (one node per `save`), so forking a thread is O(1); the
 * winner's list is flattened into slots once, at the end.
 */
import type { Assertion } from "./ast";
import type { Inst, Program } from "./compiler";
import { caseCanon, isWord } from "./unicode";

/** Charges the caller's operation budget; throws to abort the run. */
export type Charge = (operations: number) => void;

export interface RunOptions {
  /** Only try a match starting at `from` (Python's `re.match`); else search onwards. */
  anchored: boolean;
  /**
   * Refuse an empty match at this position, preferring a non-empty one there or any match
   * later: Python's rule for the search after an empty match in findall/sub/split. -1: none.
   */
  rejectEmptyAt: number;
  charge?: Charge;
}

interface Captures {
  readonly slot: number;
  readonly pos: number;
  readonly prev: Captures | null;
}

class ThreadList {
  readonly pcs: Int32Array;
  readonly caps: Array<Captures | null>;
  /** `marks[pc] === stamp` when pc was reached at this list's position. */
  readonly marks: Int32Array;
  count = 0;
  stamp = 0;

  constructor(size: number) {
    this.pcs = new Int32Array(size);
    this.caps = new Array<Captures | null>(size).fill(null);
    this.marks = new Int32Array(size);
  }
}

/** Runs the program from `from`; returns capture slots (-1 = unset) or null when nothing matches. */
export function runProgram(program: Program, subject: string, from: number, options: RunOptions): Int32Array | null {
  const { insts } = program;
  const { anchored, rejectEmptyAt, charge } = options;
  const length = subject.length;
  let current = new ThreadList(insts.length);
  let next = new ThreadList(insts.length);
  let stamp = 1;
  const stackPc: number[] = [];
  const stackCaps: Array<Captures | null> = [];

  /** Follows every non-consuming instruction from `start`, in priority order (explicit DFS). */
  const addThread = (list: ThreadList, start: number, startCaps: Captures | null, pos: number): void => {
    stackPc.push(start);
    stackCaps.push(startCaps);
    while (stackPc.length > 0) {
      const pc = stackPc.pop() as number;
      const caps = stackCaps.pop() as Captures | null;
      if (list.marks[pc] === list.stamp) continue;
      list.marks[pc] = list.stamp;
      const inst = insts[pc] as Inst;
      switch (inst.op) {
        case "jmp":
          stackPc.push(inst.to);
          stackCaps.push(caps);
          break;
        case "split":
          stackPc.push(inst.y, inst.x);
          stackCaps.push(caps, caps);
          break;
        case "save":
          stackPc.push(pc + 1);
          stackCaps.push({ slot: inst.slot, pos, prev: caps });
          break;
        case "assert":
          if (holds(inst.assertion, subject, pos)) {
            stackPc.push(pc + 1);
            stackCaps.push(caps);
          }
          break;
        default:
          list.pcs[list.count] = pc;
          list.caps[list.count] = caps;
          list.count++;
      }
    }
  };

  let pos = from;
  let found = false;
  let winner: Captures | null = null;
  current.stamp = stamp;
  addThread(current, 0, null, pos);
  for (;;) {
    if (current.count === 0 && (found || anchored)) break;
    charge?.(current.count + 1);
    const cp = pos < length ? (subject.codePointAt(pos) as number) : -1;
    const after = pos + (cp > 0xffff ? 2 : 1);
    next.count = 0;
    next.stamp = ++stamp;
    for (let t = 0; t < current.count; t++) {
      const pc = current.pcs[t] as number;
      const inst = insts[pc] as Inst;
      const caps = current.caps[t] as Captures | null;
      if (inst.op === "match") {
        if (pos === rejectEmptyAt) continue;
        found = true;
        winner = caps;
        break; // lower-priority threads lose to this match
      }
      if (cp >= 0 && consumes(inst, cp)) addThread(next, pc + 1, caps, after);
    }
    if (pos >= length) break;
    if (!found && !anchored) addThread(next, 0, null, after);
    [current, next] = [next, current];
    pos = after;
  }
  return found ? flatten(winner, program.slotCount) : null;
}

function consumes(inst: Inst, cp: number): boolean {
  switch (inst.op) {
    case "char":
      return cp === inst.cp;
    case "fold":
      return caseCanon(cp) === inst.canon;
    case "any":
      return inst.dotAll || cp !== 0x0a;
    case "class":
      return inst.test(cp);
    default:
      return false;
  }
}

function holds(assertion: Assertion, subject: string, pos: number): boolean {
  const length = subject.length;
  switch (assertion) {
    case "textStart":
      return pos === 0;
    case "lineStart":
      return pos === 0 || subject.charCodeAt(pos - 1) === 0x0a;
    case "textEnd":
      return pos === length || (pos === length - 1 && subject.charCodeAt(pos) === 0x0a);
    case "lineEnd":
      return pos === length || subject.charCodeAt(pos) === 0x0a;
    case "wordBoundary":
      return isWord(codePointBefore(subject, pos)) !== isWord(codePointAt(subject, pos));
    case "notWordBoundary":
      return isWord(codePointBefore(subject, pos)) === isWord(codePointAt(subject, pos));
  }
}

function codePointAt(subject: string, pos: number): number {
  return pos < subject.length ? (subject.codePointAt(pos) as number) : -1;
}

function codePointBefore(subject: string, pos: number): number {
  if (pos === 0) return -1;
  const low = subject.charCodeAt(pos - 1);
  if (low >= 0xdc00 && low <= 0xdfff && pos >= 2) {
    const high = subject.charCodeAt(pos - 2);
    if (high >= 0xd800 && high <= 0xdbff) return subject.codePointAt(pos - 2) as number;
  }
  return low;
}

/** The newest save of each slot wins: walk the winner's list from its end. */
function flatten(caps: Captures | null, slotCount: number): Int32Array {
  const slots = new Int32Array(slotCount).fill(-1);
  let unset = slotCount;
  for (let node = caps; node !== null && unset > 0; node = node.prev) {
    if (slots[node.slot] === -1) {
      slots[node.slot] = node.pos;
      unset--;
    }
  }
  return slots;
}
