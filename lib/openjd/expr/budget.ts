/**
 * Evaluation limits (spec digest §14.1): an operation budget (+1 per call, +N per element
 * iterated, +ceil(len/256) per string produced), a memory budget on the bytes of live values,
 * and a recursion depth bound. Exceeding any is a "limit" error.
 */
import { ExprError } from "./errors";
import type { ExprValue } from "./values";

export interface Limits {
  operations: number;
  memoryBytes: number;
  depth: number;
}

export const DEFAULT_LIMITS: Limits = { operations: 10_000_000, memoryBytes: 100_000_000, depth: 200 };

export class Budget {
  operations = 0;
  /** Bytes of values alive right now (intermediate results die when their parent consumes them). */
  current = 0;
  /** The most bytes alive at any moment of the evaluation. */
  peak = 0;
  depth = 0;

  constructor(readonly limits: Limits) {}

  charge(operations: number): void {
    this.operations += operations;
    if (this.operations > this.limits.operations) {
      throw new ExprError("limit", `the expression needs more than ${this.limits.operations} operations`);
    }
  }

  chargeText(length: number): void {
    this.charge(Math.ceil(length / 256));
  }

  /** Counts a value that is now alive. */
  allocate(value: ExprValue): void {
    this.current += sizeOf(value);
    if (this.current > this.peak) this.peak = this.current;
    if (this.current > this.limits.memoryBytes) {
      throw new ExprError("limit", `the expression needs more than ${this.limits.memoryBytes} bytes of memory`);
    }
  }

  /** Forgets everything allocated since `mark` (those values are no longer referenced). */
  resetTo(mark: number): void {
    this.current = mark;
  }

  assertFits(bytes: number): void {
    if (this.current + bytes > this.limits.memoryBytes) {
      throw new ExprError("limit", `the result would need more than ${this.limits.memoryBytes} bytes of memory`);
    }
  }

  enter(): void {
    if (++this.depth > this.limits.depth) throw new ExprError("limit", `the expression is nested deeper than ${this.limits.depth} levels`);
  }

  leave(): void {
    this.depth--;
  }
}

/**
 * What one list element really costs in this runtime (a boxed value object plus its slot),
 * so the memory budget bounds real memory and the time spent allocating it.
 */
const LIST_ITEM_BYTES = 48;

/** Bytes of a list of `count` items whose own contents take `contentBytes` (see contentBytes). */
export function listBytes(count: number, contentBytes = 0): number {
  return 16 + LIST_ITEM_BYTES * count + contentBytes;
}

/** Bytes the items of a list hold beyond their slots: the text of strings and paths, nested lists. */
export function contentBytes(items: readonly ExprValue[]): number {
  let total = 0;
  for (const item of items) if (item.kind === "string" || item.kind === "path" || item.kind === "list") total += sizeOf(item);
  return total;
}

/** Bytes of a string or path of `length` UTF-16 code units. */
function textBytes(length: number): number {
  return 16 + 2 * length;
}

/**
 * Sizes a string result before it is built. The evaluator charges the operations for the text
 * a call produces; this only refuses a result that could not fit in memory.
 */
export function reserveText(ctx: { assertFits(bytes: number): void }, length: number): void {
  ctx.assertFits(textBytes(length));
}

/** Sizes of lists, computed once: lists are immutable and may be looked up many times. */
const listSizes = new WeakMap<object, number>();

/** Approximate bytes of a value: 16 per value plus 2 per character. */
function sizeOf(value: ExprValue): number {
  switch (value.kind) {
    case "string":
    case "path":
      return textBytes(value.value.length);
    case "float":
      return 16 + (value.text?.length ?? 0) * 2;
    case "list": {
      const cached = listSizes.get(value);
      if (cached !== undefined) return cached;
      const size = listBytes(value.items.length, contentBytes(value.items));
      listSizes.set(value, size);
      return size;
    }
    case "range_expr":
      return 16 + 24 * value.value.ranges.length;
    default:
      return 16;
  }
}
