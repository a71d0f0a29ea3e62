/**
 * What the Session runtime calls to turn a job's worker-side fields into concrete values (spec
 * digest §12.7 steps 1–3): the symbol table of a host context (Param with PATH values mapped,
 * RawParam, Task values, Session values, embedded files, Job/Step names and let values), the
 * script's own let bindings, and resolved actions, variables and file contents.
 */
import { ExprError } from "./expr/errors";
import { evaluate } from "./expr/evaluator";
import { standardLibrary } from "./expr/functions";
import { INT, STRING, listOf, optional, union } from "./expr/types";
import { boolValue, makeList, pathValue, stringValue, toText, type ExprValue, type PathFormat } from "./expr/values";
import { evaluateFormat, formatText, isTypedField, type FormatEnvironment } from "./format-evaluation";
import type { FormatString } from "./format-string";
import { parameterExprValue } from "./job/parameter-symbols";
import type { Job, JobStep } from "./job/types";
import type { Action, CancelationMode, EmbeddedFile, Environment, LetBinding, NumberField } from "./model";
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
      return { kind: "range_expr", value: IntRangeExpr.parse(value) };
    default:
      return stringValue(value);
  }
}

/** PATH values (and lists of them) as the worker sees them: mapped by the Session's rules. */
function mapped(value: ExprValue, mapPath: (v: string) => string, pathFormat: PathFormat): ExprValue {
  if (value.kind === "path") return pathValue(mapPath(value.value), pathFormat);
  if (value.kind === "list" && value.itemType.code === "path") return makeList(value.items.map((v) => mapped(v, mapPath, pathFormat)), value.itemType);
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

/** The action's position decides its defaults: onExit times out after 300 s; a step's onRun gets 120 s to stop when notified. */
export type ActionRole = "onRun" | "onEnter" | "onExit";

const ARG_TARGET = union([optional(STRING), listOf(STRING)]);

/** Resolves an action for running (args: a whole-field null drops the arg, a list splices in). */
export function resolveAction(action: Action, env: FormatEnvironment, role: ActionRole): ResolvedAction {
  const args: string[] = [];
  for (const arg of action.args ?? []) {
    if (!isTypedField(arg)) {
      args.push(formatText(arg, env));
      continue;
    }
    const value = evaluateFormat(arg, env, ARG_TARGET);
    if (value.kind === "list") args.push(...value.items.map(toText));
    else if (value.kind !== "null") args.push(toText(value));
  }
  const timeout = action.timeout ? intField(action.timeout, env) : null;
  const mode = action.cancelation?.mode ?? "TERMINATE";
  const period = action.cancelation?.notifyPeriodInSeconds ? intField(action.cancelation.notifyPeriodInSeconds, env) : null;
  return {
    command: formatText(action.command, env),
    args,
    timeout: timeout ?? (role === "onExit" ? 300 : null),
    cancelation: {
      mode,
      notifyPeriodInSeconds: mode === "NOTIFY_THEN_TERMINATE" ? (period ?? (role === "onRun" ? 120 : 30)) : null,
    },
  };
}

function intField(field: NumberField<bigint>, env: FormatEnvironment): number | null {
  if (field.kind === "literal") return Number(field.value);
  const value = evaluateFormat(field.format, env, optional(INT));
  if (value.kind === "null") return null;
  if (value.kind === "int") return Number(value.value);
  return Number(BigInt(toText(value).trim()));
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

/** Resolves any worker-side format string as text (command-like fields). */
export function resolveText(format: FormatString, env: FormatEnvironment): string {
  return formatText(format, env);
}
