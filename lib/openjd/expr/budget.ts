/**
 * Evaluation limits (spec digest §14.1): an operation budget (+1 per call, +N per element
 * iterated, +ceil(len/256) per string processed), a memory budget counting every byte an
 * evaluation allocates, and a recursion depth bound. Exceeding any is a "limit" error.
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
  memory = 0;
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

  /** Counts the bytes a new value occupies (cumulative, so a loop cannot allocate forever). */
  allocate(value: ExprValue): void {
    this.memory += sizeOf(value);
    if (this.memory > this.limits.memoryBytes) {
      throw new ExprError("limit", `the expression needs more than ${this.limits.memoryBytes} bytes of memory`);
    }
  }

  assertFits(bytes: number): void {
    if (this.memory + bytes > this.limits.memoryBytes) {
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

/** Approximate bytes of a value: 16 per value plus 2 per character. */
export function sizeOf(value: ExprValue): number {
  switch (value.kind) {
    case "string":
    case "path":
      return 16 + 2 * value.value.length;
    case "float":
      return 16 + (value.text?.length ?? 0) * 2;
    case "list": {
      let size = 16 + 8 * value.items.length;
      for (const item of value.items) if (item.kind === "string" || item.kind === "path" || item.kind === "list") size += sizeOf(item);
      return size;
    }
    case "range_expr":
      return 16 + 24 * value.value.ranges.length;
    default:
      return 16;
  }
}
