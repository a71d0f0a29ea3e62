/**
 * What the Session runtime needs to run a WRAP_ACTIONS hook (RFC 0008): the `Wrapped*` values
 * that describe the action the hook replaces, and the hook's symbol environment. The hook itself
 * is then resolved with `resolveAction(hook, hookEnvironment(…), HOOK_POSITION[hook])`.
 */
import { STRING } from "./expr/types";
import { NULL, intValue, makeList, stringValue, type ExprValue } from "./expr/values";
import type { FormatEnvironment } from "./format-evaluation";
import { effectiveCancelation, resolveDeclaredAction, type ActionRole } from "./host-evaluation";
import { extendEnvironment } from "./job/parameter-symbols";
import type { Action } from "./model";

/** The replaced action as the hook sees it (RFC 0008 "Template variables"). */
export interface WrappedActionValues {
  command: string;
  args: string[];
  /** Session-defined variables as "KEY=value": `variables:` maps of entered environments and openjd_env exports. */
  environment: string[];
  /** The declared timeout in seconds; null when the action declares none (not the position's default). */
  timeout: number | null;
  /**
   * Null when the action declares no cancelation. `notifyPeriodInSeconds` is the effective value
   * for NOTIFY_THEN_TERMINATE (the written one, else 120 for a task's onRun and 30 otherwise) and
   * null for TERMINATE.
   */
  cancelation: { mode: string; notifyPeriodInSeconds: number | null } | null;
}

export interface WrappedNames {
  /** The inner environment's name: onWrapEnvEnter / onWrapEnvExit. */
  envName?: string;
  /** The step of the task: onWrapTaskRun. */
  stepName?: string;
}

/** The `WrappedAction.*`, `WrappedEnv.Name` and `WrappedStep.Name` values of one hook invocation. */
export function wrappedSymbols(wrapped: WrappedActionValues, names: WrappedNames): Map<string, ExprValue> {
  const strings = (items: readonly string[]) => makeList(items.map(stringValue), STRING);
  const int = (value: number | null) => (value === null ? NULL : intValue(BigInt(value)));
  const cancelation = wrapped.cancelation;
  const symbols = new Map<string, ExprValue>([
    ["WrappedAction.Command", stringValue(wrapped.command)],
    ["WrappedAction.Args", strings(wrapped.args)],
    ["WrappedAction.Environment", strings(wrapped.environment)],
    ["WrappedAction.Timeout", int(wrapped.timeout)],
    ["WrappedAction.Cancelation.Mode", cancelation ? stringValue(cancelation.mode) : NULL],
    ["WrappedAction.Cancelation.NotifyPeriodInSeconds", cancelation && cancelation.mode !== "TERMINATE" ? int(cancelation.notifyPeriodInSeconds) : NULL],
  ]);
  if (names.envName !== undefined) symbols.set("WrappedEnv.Name", stringValue(names.envName));
  if (names.stepName !== undefined) symbols.set("WrappedStep.Name", stringValue(names.stepName));
  return symbols;
}

/**
 * Resolves the replaced action (in its own environment `env`) into the values `wrappedSymbols`
 * takes, with the declared-versus-effective rules applied: `role` is the replaced action's
 * position. Throws ExprError like `resolveAction`.
 */
export function wrappedActionOf(action: Action, env: FormatEnvironment, role: ActionRole, environment: readonly string[]): WrappedActionValues {
  const declared = resolveDeclaredAction(action, env);
  const cancelation = declared.cancelation && {
    mode: declared.cancelation.mode,
    notifyPeriodInSeconds: effectiveCancelation(declared.cancelation, role).notifyPeriodInSeconds,
  };
  return { command: declared.command, args: declared.args, environment: [...environment], timeout: declared.timeout, cancelation };
}

/** The wrapping environment's own symbols (parameters, lets, Env.File…) plus the hook's `Wrapped*` values. */
export function hookEnvironment(wrapperEnv: FormatEnvironment, wrapped: ReadonlyMap<string, ExprValue>): FormatEnvironment {
  return extendEnvironment(wrapperEnv, wrapped);
}
