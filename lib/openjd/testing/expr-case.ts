/**
 * One EXPR robustness case: a generated, mutated or token-soup expression (or a format string
 * holding some) is parsed, evaluated with concrete symbols and type-checked with unresolved
 * ones. The outcome records escaped exceptions (never allowed), broken error invariants (an
 * error without a kind, a span outside the source) and the time taken. Shared by the vitest
 * suite and the full run in `bench/expr-robustness.ts`.
 */
import type { Span } from "../expr/ast";
import { ExprError, type ExprErrorKind } from "../expr/errors";
import type { Limits } from "../expr/budget";
import { evaluate } from "../expr/evaluator";
import { scanExprFormatString } from "../expr/format-string-expr";
import type { FunctionLibrary } from "../expr/library";
import { parseExpression } from "../expr/parser";
import { toText, type ExprValue } from "../expr/values";
import { ExprGenerator } from "./expr-generator";
import { mutateExpression, tokenSoup } from "./expr-mutations";
import type { ExprOutcomeKind, PathologicalExpression } from "./expr-pathological";
import { concreteSymbols, unresolvedSymbols } from "./expr-symbols";
import { caseSeed, Random } from "./random";

export interface ExprCase {
  kind: string;
  source: string;
  /** `source` is a format string with `{{ … }}` expressions rather than one expression. */
  format: boolean;
  /** The host library (with apply_path_mapping) rather than the template one. */
  host: boolean;
  seed: number;
}

export interface ExprCaseLibraries {
  template: FunctionLibrary;
  host: FunctionLibrary;
}

export type Stage = "parse" | "evaluate" | "check" | "result";

export interface ExprCaseOutcome {
  kind: string;
  ms: number;
  parsed: boolean;
  /** Outcome of concrete evaluation ("syntax" when parsing failed). */
  evaluated: ExprOutcomeKind;
  /** Outcome of type checking with unresolved symbols. */
  checked: ExprOutcomeKind;
  exception: { stage: Stage; error: unknown } | null;
  problems: string[];
}

const KINDS: ReadonlySet<ExprErrorKind> = new Set(["syntax", "type", "value", "name", "index", "zero-division", "overflow", "limit", "failed"]);

export function generateExprCase(runSeed: number, index: number, corpus: readonly string[], libraries: ExprCaseLibraries): ExprCase {
  const seed = caseSeed(runSeed, index);
  const rng = new Random(seed);
  const host = rng.chance(0.2);
  const generator = new ExprGenerator(rng.fork(1), host ? libraries.host : libraries.template, rng.between(1, 5));
  const pick = () => (corpus.length > 0 && rng.chance(0.5) ? rng.pick(corpus) : generator.expression());
  const roll = rng.next();
  if (roll < 0.5) return { kind: "generated", source: generator.expression(), format: false, host, seed };
  if (roll < 0.83) return { ...mutateExpression(rng, pick(), pick()), format: false, host, seed };
  if (roll < 0.9) return { kind: "token-soup", source: tokenSoup(rng), format: false, host, seed };
  const parts = Array.from({ length: rng.between(1, 3) }, () => `${rng.pick(["", "x ", "-o ", "}", "{"])}{{ ${pick()} }}`);
  const raw = parts.join(rng.pick(["", " ", "/", "{{'}}'}}"]));
  return rng.chance(0.5) ? { ...mutateExpression(rng, raw, pick()), format: true, host, seed } : { kind: "format", source: raw, format: true, host, seed };
}

function spanProblem(span: Span | null, length: number): string | null {
  if (span === null) return "has no span";
  const ok = Number.isInteger(span.start) && Number.isInteger(span.end) && span.start >= 0 && span.start <= span.end && span.end <= length;
  return ok ? null : `span ${span.start}..${span.end} is outside the source (length ${length})`;
}

interface Environment {
  library: FunctionLibrary;
  limits: Partial<Limits>;
  concrete: ReadonlyMap<string, ExprValue>;
  unresolved: ReadonlyMap<string, ExprValue>;
}

const identity = (value: string): string => value;

/**
 * Runs one expression source through parse, evaluate and check. `limits` lowers the evaluation
 * budgets (the vitest suite does, to stay fast; the full run keeps the spec's defaults).
 */
export function runExprCase(testCase: Pick<ExprCase, "kind" | "source" | "format" | "host">, libraries: ExprCaseLibraries, limits: Partial<Limits> = {}): ExprCaseOutcome {
  const started = performance.now();
  const outcome: ExprCaseOutcome = { kind: testCase.kind, ms: 0, parsed: false, evaluated: "syntax", checked: "syntax", exception: null, problems: [] };
  const env: Environment = { library: testCase.host ? libraries.host : libraries.template, limits, concrete: concreteSymbols(), unresolved: unresolvedSymbols() };
  try {
    if (testCase.format) runFormat(testCase.source, env, outcome);
    else runExpression(testCase.source, env, outcome);
  } catch (error) {
    outcome.exception ??= { stage: "parse", error };
  }
  outcome.ms = performance.now() - started;
  return outcome;
}

function runFormat(raw: string, env: Environment, outcome: ExprCaseOutcome): void {
  const scanned = scanExprFormatString(raw);
  if (!scanned.ok) {
    if (scanned.message === "") outcome.problems.push("format-string error without a message");
    if (!(scanned.offset >= 0 && scanned.offset <= raw.length)) outcome.problems.push(`format-string error offset ${scanned.offset} is outside the text (length ${raw.length})`);
    return;
  }
  outcome.parsed = true;
  outcome.evaluated = "ok";
  outcome.checked = "ok";
  for (const segment of scanned.segments) {
    if (segment.kind !== "expression") continue;
    if (raw.slice(segment.sourceOffset, segment.sourceOffset + segment.source.length) !== segment.source) {
      outcome.problems.push(`segment source '${segment.source}' is not at offset ${segment.sourceOffset}`);
    }
    const evaluated = stage("evaluate", segment.source, () => evaluate(segment.expr, options(env, env.concrete)), outcome);
    const checked = stage("check", segment.source, () => evaluate(segment.expr, options(env, env.unresolved)), outcome);
    if (outcome.evaluated === "ok") outcome.evaluated = evaluated;
    if (outcome.checked === "ok") outcome.checked = checked;
  }
}

function runExpression(source: string, env: Environment, outcome: ExprCaseOutcome): void {
  const parsed = parseExpression(source);
  if (!parsed.ok) {
    if (parsed.error.message === "") outcome.problems.push("syntax error without a message");
    const problem = spanProblem(parsed.error.span, source.length);
    if (problem !== null) outcome.problems.push(`syntax error '${parsed.error.message}' ${problem}`);
    return;
  }
  outcome.parsed = true;
  outcome.evaluated = stage("evaluate", source, () => evaluate(parsed.expr, options(env, env.concrete)), outcome);
  outcome.checked = stage("check", source, () => evaluate(parsed.expr, options(env, env.unresolved)), outcome);
}

function options(env: Environment, symbols: ReadonlyMap<string, ExprValue>) {
  return { library: env.library, symbols, pathFormat: "POSIX" as const, mapPath: identity, limits: env.limits };
}

/** Runs one stage; an ExprError is an outcome, anything else an escaped exception. */
function stage(name: Stage, source: string, run: () => ExprValue, outcome: ExprCaseOutcome): ExprOutcomeKind {
  let value: ExprValue;
  try {
    value = run();
  } catch (error) {
    if (!(error instanceof ExprError)) {
      outcome.exception ??= { stage: name, error };
      return "failed";
    }
    if (!KINDS.has(error.kind)) outcome.problems.push(`${name}: error of unknown kind '${String(error.kind)}'`);
    if (error.message === "") outcome.problems.push(`${name}: ${error.kind} error without a message`);
    const problem = spanProblem(error.span, source.length);
    if (problem !== null) outcome.problems.push(`${name}: ${error.kind} error '${error.message.slice(0, 120)}' ${problem}`);
    return error.kind;
  }
  try {
    toText(value);
  } catch (error) {
    outcome.exception ??= { stage: "result", error };
  }
  return "ok";
}

/** What went wrong in a case, one line each: escaped exceptions, broken invariants, a case over `ceilingMs`. */
export function caseFailures(label: string, outcome: ExprCaseOutcome, ceilingMs: number): string[] {
  const out = outcome.problems.map((p) => `${label} (${outcome.kind}): ${p}`);
  if (outcome.exception) {
    const { stage, error } = outcome.exception;
    const text = error instanceof Error ? (error.stack ?? error.message).split("\n").slice(0, 4).join(" | ") : String(error);
    out.push(`${label} (${outcome.kind}): ${stage} threw ${text}`);
  }
  if (outcome.ms > ceilingMs) out.push(`${label} (${outcome.kind}): took ${outcome.ms.toFixed(0)} ms`);
  return out;
}

/** Result of a pathological input: what happened, and whether that is one of the honest outcomes. */
export interface PathologicalOutcome {
  outcome: ExprCaseOutcome;
  observed: ExprOutcomeKind;
  expected: boolean;
  /** A required library function is not registered yet. */
  skipped: boolean;
}

export function runPathological(input: PathologicalExpression, libraries: ExprCaseLibraries, limits: Partial<Limits> = {}): PathologicalOutcome {
  const missing = (input.requires ?? []).some((name) => !libraries.template.has(name));
  const outcome = missing
    ? { kind: input.name, ms: 0, parsed: false, evaluated: "ok" as const, checked: "ok" as const, exception: null, problems: [] }
    : runExprCase({ kind: input.name, source: input.source, format: false, host: false }, libraries, limits);
  const observed = outcome.evaluated;
  const expected = missing || (input.expect.includes(observed) && input.expect.includes(outcome.checked));
  return { outcome, observed, expected, skipped: missing };
}
