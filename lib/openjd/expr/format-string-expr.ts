/**
 * Format strings in EXPR mode (spec digest §10, §14.4): literal text with `{{ … }}` holding full
 * expressions. An expression ends at the first `}}` outside its string literals, so
 * `{{ '{{' }}` and `{{ '}}' }}` are how literal braces are written; outside expressions a `}}`
 * with no `{{` before it is still an error. Offsets in results and errors are indexes into `raw`.
 */
import type { Expr } from "./ast";
import { findStringEnd } from "./lexer-literals";
import { DEFAULT_PARSE_LIMITS, parseExpression, type ParseLimits } from "./parser";

export type ExprFormatSegment =
  | { kind: "literal"; text: string }
  | {
      kind: "expression";
      /** The expression text between the braces, without surrounding whitespace. */
      source: string;
      /** Offset of `source` within the raw string: add it to a span of `expr` to locate it in `raw`. */
      sourceOffset: number;
      expr: Expr;
      /** Offset of the opening `{{`. */
      start: number;
      /** Offset just past the closing `}}`. */
      end: number;
    };

export type ExprFormatScanResult = { ok: true; segments: ExprFormatSegment[] } | { ok: false; message: string; offset: number };

export interface ExprFormatLimits extends ParseLimits {
  /** Maximum number of `{{ … }}` interpolations (default 1,000, as openjd-rs). */
  maxSegments?: number;
}

const DEFAULT_MAX_SEGMENTS = 1000;
const BLANK = /[ \t\n\r\f]/;

type Found = { ok: true; close: number } | { ok: false; message: string; offset: number };

/** The offset of the `}}` closing an expression whose text starts at `from`, skipping string literals. */
function findClose(raw: string, open: number): Found {
  for (let i = open + 2; i < raw.length;) {
    const ch = raw[i];
    if (ch === "'" || ch === '"') {
      const string = findStringEnd(raw, i);
      if (!string.ok) return { ok: false, message: string.error.message, offset: string.error.span.start };
      i = string.end;
    } else if (raw.startsWith("}}", i)) return { ok: true, close: i };
    else if (raw.startsWith("{{", i)) return { ok: false, message: "'{{' inside an expression (braces cannot nest)", offset: i };
    else i += 1;
  }
  return { ok: false, message: "'{{' is never closed with '}}'", offset: open };
}

export function scanExprFormatString(raw: string, limits: ExprFormatLimits = {}): ExprFormatScanResult {
  const maxLength = limits.maxLength ?? DEFAULT_PARSE_LIMITS.maxLength;
  const maxSegments = limits.maxSegments ?? DEFAULT_MAX_SEGMENTS;
  if (raw.length > maxLength) {
    return { ok: false, message: `format string is too long (${raw.length} characters; the limit is ${maxLength})`, offset: maxLength };
  }
  const segments: ExprFormatSegment[] = [];
  let expressions = 0;
  let literalStart = 0;
  for (;;) {
    const open = raw.indexOf("{{", literalStart);
    const stray = raw.indexOf("}}", literalStart);
    if (stray !== -1 && (open === -1 || stray < open)) {
      return { ok: false, message: "'}}' without a matching '{{' (write {{ '}}' }} for literal braces)", offset: stray };
    }
    if (open === -1) break;
    const found = findClose(raw, open);
    if (!found.ok) return found;
    let sourceOffset = open + 2;
    let sourceEnd = found.close;
    while (sourceOffset < sourceEnd && BLANK.test(raw[sourceOffset] as string)) sourceOffset += 1;
    while (sourceEnd > sourceOffset && BLANK.test(raw[sourceEnd - 1] as string)) sourceEnd -= 1;
    if (sourceOffset === sourceEnd) return { ok: false, message: "empty expression '{{ }}'", offset: open };
    expressions += 1;
    if (expressions > maxSegments) {
      return { ok: false, message: `too many '{{ … }}' expressions in one format string (the limit is ${maxSegments})`, offset: open };
    }
    const source = raw.slice(sourceOffset, sourceEnd);
    const parsed = parseExpression(source, limits);
    if (!parsed.ok) return { ok: false, message: parsed.error.message, offset: sourceOffset + parsed.error.span.start };
    if (open > literalStart) segments.push({ kind: "literal", text: raw.slice(literalStart, open) });
    segments.push({ kind: "expression", source, sourceOffset, expr: parsed.expr, start: open, end: found.close + 2 });
    literalStart = found.close + 2;
  }
  if (literalStart < raw.length) segments.push({ kind: "literal", text: raw.slice(literalStart) });
  return { ok: true, segments };
}

/**
 * True when the format string is exactly one expression and nothing else (`"{{ expr }}"`): the
 * transparent case whose value keeps its type (§14.4). Any text around it, even a space, makes
 * the field a string.
 */
export function isWholeFieldExpression(segments: readonly ExprFormatSegment[]): boolean {
  return segments.length === 1 && segments[0]?.kind === "expression";
}
