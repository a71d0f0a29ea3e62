/**
 * Which value references a format string may use at each place in a template (spec §7.3.1).
 * Template-scope fields are resolved at job creation and only see parameters; host fields are
 * resolved on the worker and also see Session, Task and embedded-file values.
 */
import type { JobParameterType } from "../model";
import { wrapNamespaceHint } from "./wrap-symbols";
import { ANY, BOOL, FLOAT, INT, PATH, RANGE_EXPR, STRING, listOf, type ExprType } from "../expr/types";

export interface ParameterSymbol {
  name: string;
  type: JobParameterType;
}

export interface Scope {
  /** Template fields are resolved at job creation; host fields on the worker (apply_path_mapping exists there). */
  readonly kind: "template" | "host";
  readonly symbols: ReadonlySet<string>;
  /** The static type of each symbol, for EXPR type checking. */
  readonly types: ReadonlyMap<string, ExprType>;
  /** Why a reference that exists elsewhere in the template is not available here. */
  readonly hints: ReadonlyMap<string, string>;
}

/** Types of job parameter values in expressions (spec digest §14.3): PATH is `path`, its RawParam a `string`. */
export function parameterExprType(type: string, raw: boolean): ExprType {
  switch (type) {
    case "INT":
      return INT;
    case "FLOAT":
      return FLOAT;
    case "STRING":
      return STRING;
    case "PATH":
      return raw ? STRING : PATH;
    case "BOOL":
      return BOOL;
    case "RANGE_EXPR":
    case "CHUNK[INT]":
      return RANGE_EXPR;
    default: {
      const list = /^LIST\[(.*)\]$/.exec(type);
      return list ? listOf(parameterExprType(list[1] as string, raw)) : ANY;
    }
  }
}

export interface TaskParameterSymbol {
  name: string;
  type: string;
}

interface Extras {
  jobName: boolean;
  stepName: boolean;
  lets: ReadonlyMap<string, ExprType>;
  /** Env.File.* names visible in a step script under EXPR (from the job and step environments). */
  environmentFiles: readonly string[];
}

/**
 * What is in scope at a place in a template, built up while validation descends: the job's
 * parameters, then inside a step `Step.Name` and the step's let bindings, then in a script its
 * task parameters, embedded files and let bindings. Without EXPR only the base references exist.
 */
export class SymbolContext {
  private constructor(
    readonly expr: boolean,
    readonly params: readonly ParameterSymbol[],
    private readonly extras: Extras,
  ) {}

  static forJob(expr: boolean, params: readonly ParameterSymbol[]): SymbolContext {
    return new SymbolContext(expr, params, { jobName: expr, stepName: false, lets: new Map(), environmentFiles: [] });
  }

  /** The job `name` field: `Job.Name` is not available inside itself. */
  withoutJobName(): SymbolContext {
    return new SymbolContext(this.expr, this.params, { ...this.extras, jobName: false });
  }

  inStep(): SymbolContext {
    return new SymbolContext(this.expr, this.params, { ...this.extras, stepName: this.expr });
  }

  withLets(lets: ReadonlyMap<string, ExprType>): SymbolContext {
    return new SymbolContext(this.expr, this.params, { ...this.extras, lets: new Map([...this.extras.lets, ...lets]) });
  }

  withEnvironmentFiles(names: readonly string[]): SymbolContext {
    if (!this.expr) return this;
    return new SymbolContext(this.expr, this.params, { ...this.extras, environmentFiles: [...this.extras.environmentFiles, ...names] });
  }

  /** Fields resolved at job creation: job name, task parameter ranges, host requirements, numeric format strings. */
  template(): Scope {
    const types = this.common(false);
    const hints = new Map<string, string>();
    for (const p of this.params) {
      if (p.type === "PATH" || p.type === "LIST[PATH]") {
        types.delete(`Param.${p.name}`);
        hints.set(`Param.${p.name}`, `PATH parameter values are path-mapped on the worker, so Param.${p.name} is not available here; use RawParam.${p.name}`);
      }
    }
    return makeScope("template", types, hints);
  }

  /** An environment's variables, actions and embedded files. */
  environment(embeddedFiles: readonly string[]): Scope {
    const types = this.common(true);
    for (const f of embeddedFiles) types.set(`Env.File.${f}`, PATH);
    return makeScope("host", types, new Map());
  }

  /** A step script's actions and embedded files. */
  stepScript(taskParameters: readonly TaskParameterSymbol[], embeddedFiles: readonly string[]): Scope {
    const types = this.common(true);
    for (const t of taskParameters) {
      types.set(`Task.Param.${t.name}`, parameterExprType(t.type.toUpperCase(), false));
      types.set(`Task.RawParam.${t.name}`, parameterExprType(t.type.toUpperCase(), true));
    }
    for (const f of embeddedFiles) types.set(`Task.File.${f}`, PATH);
    for (const f of this.extras.environmentFiles) types.set(`Env.File.${f}`, PATH);
    return makeScope("host", types, new Map());
  }

  private common(host: boolean): Map<string, ExprType> {
    const types = new Map<string, ExprType>();
    for (const p of this.params) {
      types.set(`RawParam.${p.name}`, parameterExprType(p.type, true));
      types.set(`Param.${p.name}`, parameterExprType(p.type, false));
    }
    if (host) {
      types.set("Session.WorkingDirectory", this.expr ? PATH : STRING);
      types.set("Session.PathMappingRulesFile", this.expr ? PATH : STRING);
      types.set("Session.HasPathMappingRules", this.expr ? BOOL : STRING);
    }
    if (this.extras.jobName) types.set("Job.Name", STRING);
    if (this.extras.stepName) types.set("Step.Name", STRING);
    for (const [name, type] of this.extras.lets) types.set(name, type);
    return types;
  }
}

function makeScope(kind: Scope["kind"], types: Map<string, ExprType>, hints: Map<string, string>): Scope {
  return { kind, types, symbols: new Set(types.keys()), hints };
}

/** A scope with extra symbols: a script's own `let` bindings, or a wrap hook's `Wrapped*` values. */
export function scopeWithSymbols(scope: Scope, extra: ReadonlyMap<string, ExprType>): Scope {
  const types = new Map([...scope.types, ...extra]);
  return makeScope(scope.kind, types, new Map(scope.hints));
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
  const wrap = wrapNamespaceHint(reference, scope);
  if (wrap !== null) message += ` ${wrap}.`;
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
