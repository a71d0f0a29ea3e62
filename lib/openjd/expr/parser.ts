/**
 * Parsing EXPR expressions and `let` bindings into the tree of ast.ts. The grammar itself is in
 * grammar-parser.ts; this module applies the limits and turns failures into typed results.
 */
import type { Expr, ExprSyntaxError, Span } from "./ast";
import { GrammarParser, USER_IDENTIFIER } from "./grammar-parser";
import { ExprSyntaxFailure, isReservedName } from "./lexer";

export interface ParseLimits {
  /** Maximum nesting of brackets and operators (default 100). */
  maxDepth?: number;
  /** Maximum source length in UTF-16 code units (default 1,000,000). */
  maxLength?: number;
}

export const DEFAULT_PARSE_LIMITS = { maxDepth: 100, maxLength: 1_000_000 } as const;

export type ParseResult = { ok: true; expr: Expr } | { ok: false; error: ExprSyntaxError };

export function parseExpression(source: string, limits: ParseLimits = {}): ParseResult {
  const maxLength = limits.maxLength ?? DEFAULT_PARSE_LIMITS.maxLength;
  const maxDepth = limits.maxDepth ?? DEFAULT_PARSE_LIMITS.maxDepth;
  if (source.length > maxLength) {
    const message = `expression is too long (${source.length} characters; the limit is ${maxLength})`;
    return { ok: false, error: { message, span: { start: maxLength, end: source.length } } };
  }
  try {
    return { ok: true, expr: new GrammarParser(source, maxDepth).parseAll() };
  } catch (error) {
    if (error instanceof ExprSyntaxFailure) return { ok: false, error: error.detail };
    // Safety net for a caller-raised maxDepth beyond what the JavaScript stack can hold.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return { ok: false, error: { message: "expression is nested too deeply", span: { start: 0, end: source.length } } };
    }
    throw error;
  }
}

export type LetBindingResult = { ok: true; name: string; nameSpan: Span; expr: Expr; exprOffset: number } | { ok: false; error: ExprSyntaxError };

const MAX_LET_NAME_LENGTH = 512;

/**
 * Parses a `let` entry, `<name> = <expression>` (spec digest §5.4). Error spans are offsets in
 * `text`; the expression's own spans are relative to `exprOffset`, where its text starts.
 */
export function parseLetBinding(text: string, limits: ParseLimits = {}): LetBindingResult {
  const failure = (message: string, start: number, end: number): LetBindingResult => ({ ok: false, error: { message, span: { start, end } } });
  const name = /^[A-Za-z0-9_]*/.exec(text)?.[0] ?? "";
  const nameSpan = { start: 0, end: name.length };
  if (name === "") return failure("a let binding has the form 'name = expression'", 0, Math.min(1, text.length));
  if (!USER_IDENTIFIER.test(name)) {
    return failure(`let binding name '${name}' must start with a lowercase letter or '_' ([a-z_][A-Za-z0-9_]*)`, 0, name.length);
  }
  if (name.length > MAX_LET_NAME_LENGTH) return failure(`let binding name is longer than ${MAX_LET_NAME_LENGTH} characters`, 0, name.length);
  if (isReservedName(name)) return failure(`'${name}' is a keyword and cannot be a let binding name`, 0, name.length);
  let pos = name.length;
  while (/[ \t\n\r\f]/.test(text[pos] ?? "")) pos += 1;
  if (text[pos] !== "=" || text[pos + 1] === "=") {
    return failure(`expected '=' after the let binding name '${name}' ('name = expression')`, pos, Math.min(pos + 1, text.length));
  }
  pos += 1;
  while (/[ \t\n\r\f]/.test(text[pos] ?? "")) pos += 1;
  if (pos === text.length) return failure(`let binding '${name}' has no expression after '='`, pos, pos);
  const parsed = parseExpression(text.slice(pos), limits);
  if (!parsed.ok) {
    const { message, span } = parsed.error;
    return failure(message, span.start + pos, span.end + pos);
  }
  return { ok: true, name, nameSpan, expr: parsed.expr, exprOffset: pos };
}
