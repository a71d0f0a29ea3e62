/**
 * Template errors: every problem found in a template, a parameter value or a job carries the
 * path of the offending field (`steps[0].script.actions.onRun.command`) and, when the input came
 * from text, its 1-based line and column. The editor, the CLI and the API all show these.
 */

export type PathSegment = string | number;

export interface TemplateError {
  /** Dotted path with `[i]` indexes, e.g. `steps[0].parameterSpace.taskParameterDefinitions[1].range`. */
  path: string;
  /** 1-based line of the field in the source text; null when the input had no text. */
  line: number | null;
  /** 1-based column in UTF-16 code units (as JavaScript strings and Monaco count); null when unknown. */
  column: number | null;
  message: string;
}

/** An error before it is located in the source: the path is still a list of segments. */
export interface RawError {
  segments: readonly PathSegment[];
  message: string;
  /** When true the error points at the key of the last segment rather than its value. */
  atKey?: boolean;
}

export function formatPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out;
}

/** One line of human output: `path (line:col): message`. */
export function describeError(error: TemplateError): string {
  const where = error.line !== null ? ` (${error.line}:${error.column ?? 1})` : "";
  const path = error.path === "" ? "<document>" : error.path;
  return `${path}${where}: ${error.message}`;
}

/** Collects errors while a template is walked; the walk never stops at the first problem. */
export class ErrorSink {
  readonly errors: RawError[] = [];

  add(segments: readonly PathSegment[], message: string, atKey = false): void {
    this.errors.push({ segments: [...segments], message, atKey });
  }

  get count(): number {
    return this.errors.length;
  }
}
