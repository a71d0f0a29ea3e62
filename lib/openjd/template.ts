/** Entry point for validation: template text in, a typed template or located errors out. */
import type { TemplateError } from "./errors";
import type { Template } from "./model";
import { locateErrors, parseSource, type DocumentFormat, type ParsedSource } from "./parse-source";
import { decodeTemplate } from "./validate/templates";

export interface CheckedTemplate {
  template: Template | null;
  errors: TemplateError[];
  source: ParsedSource;
}

/**
 * Parses and validates a job or environment template. `errors` lists every independent problem
 * with its path and line:column; `template` is non-null exactly when there are none.
 */
export function checkTemplateText(text: string, format: DocumentFormat, expected?: Template["kind"]): CheckedTemplate {
  const source = parseSource(text, format);
  if (source.root === null) return { template: null, errors: source.errors, source };
  const decoded = decodeTemplate(source.root, expected);
  const errors = sortErrors(locateErrors(source, decoded.errors));
  return { template: decoded.template, errors, source };
}

/** Document order (line, column), then path, so output is stable and reads top to bottom. */
export function sortErrors(errors: TemplateError[]): TemplateError[] {
  return [...errors].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || a.path.localeCompare(b.path));
}
