/** Helpers for EXPR tests: parse and evaluate source text against symbols, report values as text. */
import { evaluate, type EvaluateOptions } from "./evaluator";
import { ExprError } from "./errors";
import { standardLibrary, type LibraryScope } from "./functions";
import { parseExpression } from "./parser";
import { parseType, typeToString, type ExprType } from "./types";
import { toText, typeOf, unresolvedValue, type ExprValue } from "./values";

export interface RunOptions {
  symbols?: Record<string, ExprValue>;
  /** Symbols known only by type: `{ "Param.N": "int" }`. */
  types?: Record<string, string>;
  target?: string;
  scope?: LibraryScope;
  limits?: EvaluateOptions["limits"];
}

export function run(source: string, options: RunOptions = {}): ExprValue {
  const parsed = parseExpression(source);
  if (!parsed.ok) throw new ExprError("syntax", parsed.error.message, parsed.error.span);
  const symbols = new Map<string, ExprValue>(Object.entries(options.symbols ?? {}));
  for (const [name, type] of Object.entries(options.types ?? {})) symbols.set(name, unresolvedValue(parseType(type)));
  return evaluate(parsed.expr, {
    library: standardLibrary(options.scope ?? "template"),
    symbols,
    pathFormat: "POSIX",
    ...(options.target ? { target: parseType(options.target) as ExprType } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
}

/** The value as `string()` prints it. */
export function text(source: string, options?: RunOptions): string {
  return toText(run(source, options));
}

/** The static type of the result (for unresolved results, the type they will have). */
export function typeOfResult(source: string, options?: RunOptions): string {
  const value = run(source, options);
  const type = typeOf(value);
  return typeToString(type.code === "unresolved" ? type.inner : type);
}

/** The error an expression raises, as `kind: message`; throws if it evaluates. */
export function failure(source: string, options?: RunOptions): string {
  try {
    const value = run(source, options);
    throw new Error(`expected an error, got ${toText(value)}`);
  } catch (error) {
    if (error instanceof ExprError) return `${error.kind}: ${error.message}`;
    throw error;
  }
}
