/**
 * What the Session runtime calls to turn a job's worker-side fields into concrete values (spec
 * digest §12.7 steps 1–3): the symbol table of a host context (Param with PATH values mapped,
 * RawParam, Task values, Session values, embedded files, Job/Step names and let values), the
 * script's own let bindings, and resolved actions, variables and file contents.
 */
import { ExprError, valueError } from "./expr/errors";
import { evaluate } from "./expr/evaluator";
import { standardLibrary } from "./expr/functions";
import { STRING } from "./expr/types";
import { boolValue, makeList, pathValue, stringValue, toText, type ExprValue, type PathFormat } from "./expr/values";
import { evaluateFormat, formatText, isTypedField, listItemTarget, type FormatEnvironment } from "./format-evaluation";
import { parameterExprValue } from "./job/parameter-symbols";
import type { Job, JobStep } from "./job/types";
import { notifyPeriodProblem, resolveIntField, resolveMode, timeoutProblem } from "./job/resolve-fields";
import type { Action, CancelationMethod, CancelationMode, CancelationModeField, EmbeddedFile, Environment, LetBinding, NumberField } from "./model";
import type { TaskParameterSet } from "./parameter-space";
import { IntRangeExpr } from "./range-expr";

export interface SessionValues {
  workingDirectory: string;
  pathMappingRulesFile: string;
  hasPathMappingRules: boolean;
}

export interface HostInput {
  job: Job;
  /** The step whose script or environments are resolved; absent for job and external environments. */
  step?: JobStep | null;
  /** The task being run (step scripts only). */
  task?: TaskParameterSet | null;
  session: SessionValues;
  /** Absolute paths of embedded files by reference: `Task.File.Run`, `Env.File.Setup`. */
  files?: ReadonlyMap<string, string>;
  /** The worker's path format. */
  pathFormat: PathFormat;
  /** The Session's path mapping (identity when it has no rules). */
  mapPath: (value: string) => string;
}

/** The symbols of a host field. EXPR templates get typed values; base templates read their text. */
export function hostEnvironment(input: HostInput): FormatEnvironment {
  const symbols = new Map<string, ExprValue>();
  const { pathFormat, mapPath } = input;
  for (const [name, parameter] of Object.entries(input.job.parameters)) {
    symbols.set(`RawParam.${name}`, parameterExprValue(parameter, true, pathFormat));
    symbols.set(`Param.${name}`, mapped(parameterExprValue(parameter, false, pathFormat), mapPath, pathFormat));
  }
  symbols.set("Session.WorkingDirectory", pathValue(input.session.workingDirectory, pathFormat));
  symbols.set("Session.PathMappingRulesFile", pathValue(input.session.pathMappingRulesFile, pathFormat));
  symbols.set("Session.HasPathMappingRules", boolValue(input.session.hasPathMappingRules));
  if (input.job.template.extensions.includes("EXPR")) symbols.set("Job.Name", stringValue(input.job.name));
  for (const [name, value] of input.step?.letValues ?? []) symbols.set(name, value);
  for (const [name, value] of Object.entries(input.task ?? {})) {
    const typed = taskValue(value.type, value.value, pathFormat);
    symbols.set(`Task.RawParam.${name}`, value.type === "PATH" ? stringValue(value.value) : typed);
    symbols.set(`Task.Param.${name}`, mapped(typed, mapPath, pathFormat));
  }
  for (const [name, path] of input.files ?? []) symbols.set(name, pathValue(path, pathFormat));
  return { symbols, scope: "host", pathFormat, mapPath };
}

function taskValue(type: string, value: string, pathFormat: PathFormat): ExprValue {
  switch (type) {
    case "INT":
      return { kind: "int", value: BigInt(value) };
    case "FLOAT":
      return { kind: "float", value: Number(value), text: value };
    case "PATH":
      return pathValue(value, pathFormat);
    case "CHUNK[INT]":
      return { kind: "range_expr", value: IntRangeExpr.parse(value), text: value };
    default:
      return stringValue(value);
  }
}

/** PATH values (and lists of them) as the worker sees them: mapped by the Session's rules. */
function mapped(value: ExprValue, mapPath: (v: string) => string, pathFormat: PathFormat): ExprValue {
  if (value.kind === "path") return pathValue(mapPath(value.value), pathFormat);
  if (value.kind === "list" && value.itemType.code === "path")
    return makeList(
      value.items.map((v) => mapped(v, mapPath, pathFormat)),
      value.itemType,
    );
  return value;
}

/** Evaluates a script's `let` bindings in order; each sees the ones before it. Throws ExprError. */
export function withLets(env: FormatEnvironment, bindings: readonly LetBinding[] | undefined): FormatEnvironment {
  if (!bindings || bindings.length === 0) return env;
  const symbols = new Map(env.symbols);
  for (const binding of bindings) {
    try {
      symbols.set(binding.name, evaluate(binding.expr, { library: standardLibrary("host"), symbols, pathFormat: env.pathFormat, mapPath: env.mapPath ?? null }));
    } catch (error) {
      if (error instanceof ExprError) error.message = `let ${binding.name}: ${error.message}`;
      throw error;
    }
  }
  return { ...env, symbols };
}

export interface ResolvedCancelation {
  mode: CancelationMode;
  notifyPeriodInSeconds: number | null;
}

export interface ResolvedAction {
  command: string;
  args: string[];
  /** Seconds; null = no timeout. */
  timeout: number | null;
  cancelation: ResolvedCancelation;
}

/**
 * What an action itself says once resolved, before its position's defaults: `timeout` null when
 * none is declared (or a whole-field expression gave null), `cancelation` null when none is
 * declared (or its mode resolved to null), a notify period only when one is written.
 */
export interface DeclaredAction {
  command: string;
  args: string[];
  timeout: number | null;
  cancelation: { mode: CancelationMode; notifyPeriodInSeconds: number | null } | null;
}

/** The action's position decides its defaults: onExit times out after 300 s; a step's onRun gets 120 s to stop when notified. */
export type ActionRole = "onRun" | "onEnter" | "onExit";

/**
 * Resolves an action for running (args: a whole-field null drops the arg, a list splices in).
 * A wrap hook is resolved with the role of the action it replaces (`HOOK_POSITION`) and an
 * environment that includes `wrappedSymbols`. Throws ExprError, also for values that resolve
 * out of range (timeouts and modes written as format strings are only known here in hooks).
 */
export function resolveAction(action: Action, env: FormatEnvironment, role: ActionRole): ResolvedAction {
  const declared = resolveDeclaredAction(action, env);
  return {
    command: declared.command,
    args: declared.args,
    timeout: declared.timeout ?? (role === "onExit" ? 300 : null),
    cancelation: effectiveCancelation(declared.cancelation, role),
  };
}

/** The cancelation the runtime applies: TERMINATE when none is declared; default notify periods by position. */
export function effectiveCancelation(declared: DeclaredAction["cancelation"], role: ActionRole): ResolvedCancelation {
  if (declared === null || declared.mode === "TERMINATE") return { mode: "TERMINATE", notifyPeriodInSeconds: null };
  return { mode: declared.mode, notifyPeriodInSeconds: declared.notifyPeriodInSeconds ?? (role === "onRun" ? 120 : 30) };
}

export function resolveDeclaredAction(action: Action, env: FormatEnvironment): DeclaredAction {
  const args: string[] = [];
  for (const arg of action.args ?? []) {
    if (!isTypedField(arg)) {
      args.push(formatText(arg, env));
      continue;
    }
    const value = evaluateFormat(arg, env, listItemTarget(STRING));
    if (value.kind === "list") args.push(...value.items.map(toText));
    else if (value.kind !== "null") args.push(toText(value));
  }
  const timeout = action.timeout ? intField(action.timeout, env, timeoutProblem) : null;
  return { command: formatText(action.command, env), args, timeout, cancelation: declaredCancelation(action.cancelation, env) };
}

/**
 * A null mode drops the whole object (its discriminator is gone). A notify period that resolves
 * beside a TERMINATE mode is ignored: only NOTIFY_THEN_TERMINATE has a notify period.
 */
function declaredCancelation(cancelation: CancelationMethod | undefined, env: FormatEnvironment): DeclaredAction["cancelation"] {
  if (!cancelation) return null;
  const mode = modeOf(cancelation.mode, env);
  if (mode === null) return null;
  if (mode === "TERMINATE" || !cancelation.notifyPeriodInSeconds) return { mode, notifyPeriodInSeconds: null };
  return { mode, notifyPeriodInSeconds: intField(cancelation.notifyPeriodInSeconds, env, notifyPeriodProblem) };
}

function modeOf(field: CancelationModeField, env: FormatEnvironment): CancelationMode | null {
  if (typeof field === "string") return field;
  const resolved = resolveMode(field.format, env);
  if (!resolved.ok) throw valueError(resolved.message);
  return resolved.value;
}

/** An action's number with job creation's rules (resolveIntField and its range check), thrown as ExprError here. */
function intField(field: NumberField<bigint>, env: FormatEnvironment, problem: (value: bigint) => string | null): number | null {
  const resolved = resolveIntField(field, env);
  if (!resolved.ok) throw valueError(resolved.message);
  if (resolved.value === null) return null;
  const message = problem(resolved.value);
  if (message !== null) throw valueError(message);
  return Number(resolved.value);
}

/** An environment's variables, in order, resolved (when it is entered). */
export function resolveVariables(environment: Environment, env: FormatEnvironment): Array<{ name: string; value: string }> {
  return (environment.variables ?? []).map((v) => ({ name: v.name, value: formatText(v.value, env) }));
}

/** An embedded file's contents, resolved before each action of its script, with its line endings. */
export function resolveFileData(file: EmbeddedFile, env: FormatEnvironment, hostLineEnding: "\n" | "\r\n"): string {
  const text = formatText(file.data, env);
  // Without FEATURE_BUNDLE_1's endOfLine the data is written exactly as resolved.
  if (file.endOfLine === undefined) return text;
  const ending = file.endOfLine === "LF" ? "\n" : file.endOfLine === "CRLF" ? "\r\n" : hostLineEnding;
  return ending === "\n" ? text.replace(/\r\n/g, "\n") : text.replace(/\r?\n/g, "\r\n");
}
