/**
 * Where a located template error is drawn: from its line:column to the end of the token there
 * (a key, a scalar, a quoted string), or the whole line when the error points at its start or
 * past its end. Errors without a line go on line 1, so none is invisible.
 */
import { describeError, type TemplateError } from "@/lib/openjd";

export interface MarkerSpan {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
  message: string;
}

export function markerSpans(lines: readonly string[], errors: readonly TemplateError[]): MarkerSpan[] {
  return errors.map((error) => {
    const lineNumber = Math.min(Math.max(error.line ?? 1, 1), Math.max(lines.length, 1));
    const text = lines[lineNumber - 1] ?? "";
    let start = Math.min(Math.max(error.column ?? 1, 1), text.length + 1);
    let end = start + tokenLength(text.slice(start - 1));
    if (end === start) {
      // Nothing to underline at that column: underline the line's content instead.
      start = text.length - text.trimStart().length + 1;
      end = Math.max(text.length + 1, start + 1);
    }
    return { startLineNumber: lineNumber, startColumn: start, endLineNumber: lineNumber, endColumn: end, message: describeError(error) };
  });
}

function tokenLength(rest: string): number {
  const quoted = /^("(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?)/.exec(rest);
  if (quoted) return quoted[0].length;
  return /^[^\s,:{}[\]#]*/.exec(rest)![0].length || (/^[{[]/.test(rest) ? 1 : 0);
}
