/**
 * OpenJD format strings: literal text with `{{ … }}` interpolations (spec §7.3). The base
 * language only allows a dotted value reference inside the braces; anything else needs EXPR.
 * There is no escape: a stray `}}` or an unclosed `{{` is an error.
 */
import type { Expr } from "./expr/ast";

export type FormatSegment =
  | { kind: "literal"; text: string }
  | {
      kind: "expression";
      /** The text between the braces, trimmed. */
      source: string;
      /** Offset of the opening `{{` in the raw string. */
      start: number;
      /** The dotted reference (`Param.Frame`) when the expression is one, else null. */
      reference: string | null;
      /** With EXPR: the parsed expression and the offset of its text within the raw string. */
      expr?: Expr;
      sourceOffset?: number;
    };

export interface FormatString {
  raw: string;
  segments: readonly FormatSegment[];
}

export type FormatParseResult = { ok: true; value: FormatString } | { ok: false; message: string; offset: number };

const REFERENCE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

export function parseFormatString(raw: string): FormatParseResult {
  const segments: FormatSegment[] = [];
  let literalStart = 0;
  let i = 0;
  while (i < raw.length) {
    const open = raw.indexOf("{{", i);
    const strayClose = raw.indexOf("}}", i);
    if (strayClose !== -1 && (open === -1 || strayClose < open)) {
      return { ok: false, message: "'}}' without a matching '{{' (format strings have no escape for braces)", offset: strayClose };
    }
    if (open === -1) break;
    const close = raw.indexOf("}}", open + 2);
    const nestedOpen = raw.indexOf("{{", open + 2);
    if (close === -1) return { ok: false, message: "'{{' is never closed with '}}'", offset: open };
    if (nestedOpen !== -1 && nestedOpen < close) {
      return { ok: false, message: "'{{' inside an expression (braces cannot nest)", offset: nestedOpen };
    }
    if (open > literalStart) segments.push({ kind: "literal", text: raw.slice(literalStart, open) });
    const source = raw.slice(open + 2, close).trim();
    if (source === "") return { ok: false, message: "empty expression '{{}}'", offset: open };
    segments.push({ kind: "expression", source, start: open, reference: REFERENCE.test(source) ? source : null });
    i = close + 2;
    literalStart = i;
  }
  if (literalStart < raw.length) segments.push({ kind: "literal", text: raw.slice(literalStart) });
  return { ok: true, value: { raw, segments } };
}

/** A format string known to contain no interpolation (used for literal values built in code). */
export function literalFormatString(text: string): FormatString {
  return { raw: text, segments: text === "" ? [] : [{ kind: "literal", text }] };
}

export function isPlainLiteral(format: FormatString): boolean {
  return format.segments.every((s) => s.kind === "literal");
}

export class FormatResolutionError extends Error {}

/**
 * Resolves a format string with string-valued symbols. Throws FormatResolutionError naming the
 * first missing symbol; validation guarantees this only happens for symbols that exist at run
 * time but were not supplied.
 */
export function resolveFormatString(format: FormatString, symbols: ReadonlyMap<string, string>): string {
  let out = "";
  for (const segment of format.segments) {
    if (segment.kind === "literal") {
      out += segment.text;
      continue;
    }
    const value = segment.reference === null ? undefined : symbols.get(segment.reference);
    if (value === undefined) throw new FormatResolutionError(`'${segment.source}' has no value here`);
    out += value;
  }
  return out;
}

/** A format string that is exactly one value reference, `{{Ref}}` (built in code, e.g. when desugaring). */
export function referenceFormatString(reference: string): FormatString {
  return { raw: `{{${reference}}}`, segments: [{ kind: "expression", source: reference, start: 0, reference }] };
}
