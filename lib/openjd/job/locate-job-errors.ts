/** Places job-creation errors in the document they belong to (job template, environment template or `-p` values). */
import type { TemplateError } from "../errors";
import type { JobError } from "./types";
import { locateErrors, type ParsedSource } from "../parse-source";

export interface ErrorSources {
  template: ParsedSource | null;
  environments: ReadonlyArray<ParsedSource | null>;
  /** Prefix shown for errors in submitted values, e.g. "parameters". */
  parametersLabel: string;
}

export function locateJobErrors(errors: readonly JobError[], sources: ErrorSources): TemplateError[] {
  return errors.map((error) => {
    switch (error.origin.kind) {
      case "template":
        return locateErrors(sources.template, [error])[0] as TemplateError;
      case "environment": {
        const located = locateErrors(sources.environments[error.origin.index] ?? null, [error])[0] as TemplateError;
        return { ...located, path: `environments[${error.origin.index}]${located.path ? `.${located.path}` : ""}` };
      }
      case "parameters":
        return {
          path: [sources.parametersLabel, ...error.segments].join("."),
          line: null,
          column: null,
          message: error.message,
        };
    }
  });
}
