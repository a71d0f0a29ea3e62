/** Errors of expression evaluation and type checking; each may carry the span it concerns. */
import type { Span } from "./ast";

export type ExprErrorKind = "syntax" | "type" | "value" | "name" | "index" | "zero-division" | "overflow" | "limit" | "failed";

export class ExprError extends Error {
  constructor(
    readonly kind: ExprErrorKind,
    message: string,
    public span: Span | null = null,
  ) {
    super(message);
  }

  /** Budget errors are never absorbed by speculative evaluation. */
  get isBudget(): boolean {
    return this.kind === "limit";
  }
}

export function typeError(message: string): ExprError {
  return new ExprError("type", message);
}

export function valueError(message: string): ExprError {
  return new ExprError("value", message);
}
