/**
 * The `Wrapped*` symbols of WRAP_ACTIONS hooks (RFC 0008 "Template variables"): their types per
 * hook for checking, and why one is unknown where a template uses it outside its hook.
 */
import { INT, STRING, listOf, optional, type ExprType } from "../expr/types";
import type { WrapHook } from "../model";
import type { Scope } from "./scopes";

/** The replaced action's fields, in all three hooks (RFC 0008 "Template variables"). */
export const WRAPPED_ACTION_TYPES: ReadonlyMap<string, ExprType> = new Map([
  ["WrappedAction.Command", STRING],
  ["WrappedAction.Args", listOf(STRING)],
  ["WrappedAction.Environment", listOf(STRING)],
  ["WrappedAction.Timeout", optional(INT)],
  ["WrappedAction.Cancelation.Mode", optional(STRING)],
  ["WrappedAction.Cancelation.NotifyPeriodInSeconds", optional(INT)],
]);

/** What a hook's fields see besides the environment's own symbols. */
export function wrappedSymbolTypes(hook: WrapHook): Map<string, ExprType> {
  const types = new Map(WRAPPED_ACTION_TYPES);
  if (hook === "onWrapTaskRun") types.set("WrappedStep.Name", STRING);
  else types.set("WrappedEnv.Name", STRING);
  return types;
}

const WHERE: Record<string, string> = {
  WrappedAction: "only exists in the wrap hooks onWrapEnvEnter, onWrapTaskRun and onWrapEnvExit",
  WrappedEnv: "only exists in the wrap hooks onWrapEnvEnter and onWrapEnvExit",
  WrappedStep: "only exists in the wrap hook onWrapTaskRun",
};

/** Why a `Wrapped*` name is unknown here (null for other names, or where its namespace exists). */
export function wrapNamespaceHint(name: string, scope: Scope): string | null {
  const namespace = name.split(".")[0] as string;
  const where = WHERE[namespace];
  if (where === undefined || [...scope.symbols].some((s) => s.startsWith(`${namespace}.`))) return null;
  return `${namespace}.* ${where}`;
}
