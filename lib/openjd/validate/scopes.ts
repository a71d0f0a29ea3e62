/**
 * Which value references a format string may use at each place in a template (spec §7.3.1).
 * Template-scope fields are resolved at job creation and only see parameters; host fields are
 * resolved on the worker and also see Session, Task and embedded-file values.
 */
import type { JobParameterType } from "../model";

export interface ParameterSymbol {
  name: string;
  type: JobParameterType;
}

export interface Scope {
  readonly symbols: ReadonlySet<string>;
  /** Why a reference that exists elsewhere in the template is not available here. */
  readonly hints: ReadonlyMap<string, string>;
}

export const SESSION_SYMBOLS = ["Session.WorkingDirectory", "Session.HasPathMappingRules", "Session.PathMappingRulesFile"];

function parameterSymbols(params: readonly ParameterSymbol[], includeMappedPaths: boolean): {
  symbols: string[];
  hints: Array<[string, string]>;
} {
  const symbols: string[] = [];
  const hints: Array<[string, string]> = [];
  for (const p of params) {
    symbols.push(`RawParam.${p.name}`);
    if (p.type !== "PATH" || includeMappedPaths) symbols.push(`Param.${p.name}`);
    else
      hints.push([
        `Param.${p.name}`,
        `PATH parameter values are path-mapped on the worker, so Param.${p.name} is not available here; use RawParam.${p.name}`,
      ]);
  }
  return { symbols, hints };
}

/** Fields resolved at job creation: job name, task parameter ranges, host requirements, numeric format strings. */
export function templateScope(params: readonly ParameterSymbol[]): Scope {
  const { symbols, hints } = parameterSymbols(params, false);
  return { symbols: new Set(symbols), hints: new Map(hints) };
}

/** An environment's variables, actions and embedded files. */
export function environmentScope(params: readonly ParameterSymbol[], embeddedFiles: readonly string[]): Scope {
  const { symbols } = parameterSymbols(params, true);
  return {
    symbols: new Set([...symbols, ...SESSION_SYMBOLS, ...embeddedFiles.map((f) => `Env.File.${f}`)]),
    hints: new Map(),
  };
}

/** A step script's actions and embedded files. */
export function stepScriptScope(
  params: readonly ParameterSymbol[],
  taskParameters: readonly string[],
  embeddedFiles: readonly string[],
): Scope {
  const { symbols } = parameterSymbols(params, true);
  return {
    symbols: new Set([
      ...symbols,
      ...SESSION_SYMBOLS,
      ...taskParameters.flatMap((t) => [`Task.Param.${t}`, `Task.RawParam.${t}`]),
      ...embeddedFiles.map((f) => `Task.File.${f}`),
    ]),
    hints: new Map(),
  };
}

export function explainUnavailable(scope: Scope, reference: string): string {
  const hint = scope.hints.get(reference);
  if (hint) return hint;
  let message = `Variable ${reference} does not exist at this location.`;
  if (reference.startsWith("Task.") && ![...scope.symbols].some((s) => s.startsWith("Task."))) {
    message += " Task values only exist in a step's script.";
  } else if (reference.startsWith("Session.") && !scope.symbols.has("Session.WorkingDirectory")) {
    message += " Session values only exist in actions, embedded files and environment variables.";
  }
  const suggestions = suggest(reference, scope.symbols);
  if (suggestions.length === 1) message += ` Did you mean: ${suggestions[0]}`;
  else if (suggestions.length > 1) message += ` Did you mean one of: ${suggestions.join(", ")}`;
  return message;
}

/** Names within edit distance 4 of the reference (the reference implementations use < 5). */
export function suggest(reference: string, candidates: Iterable<string>): string[] {
  const scored: Array<[number, string]> = [];
  for (const candidate of candidates) {
    const distance = editDistance(reference, candidate, 5);
    if (distance < 5) scored.push([distance, candidate]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  const best = scored[0]?.[0];
  return scored.filter(([d]) => d === best).map(([, c]) => c);
}

/** Levenshtein distance, giving up (returning `limit`) once it cannot be below `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= limit) return limit;
    previous = current;
  }
  return Math.min(previous[b.length] ?? limit, limit);
}
