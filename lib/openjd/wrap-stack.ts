/**
 * WRAP_ACTIONS (RFC 0008) over a Session stack: which environment wraps, which hook replaces
 * which action, and the one-wrapper rule that validation, job creation and the runtime share.
 */
import { identifiersOf } from "./expr/names";
import type { FormatString } from "./format-string";
import type { Environment, WrapHook } from "./model";

const WRAPPED_NAMESPACES = new Set(["WrappedAction", "WrappedEnv", "WrappedStep"]);

/** An environment that defines wrap hooks (validation guarantees all three or none). */
export function isWrappingEnvironment(environment: Environment): boolean {
  const actions = environment.script?.actions;
  return Boolean(actions && (actions.onWrapEnvEnter || actions.onWrapTaskRun || actions.onWrapEnvExit));
}

/** The hook that runs in place of an inner action, by the action's position. */
export const HOOK_REPLACING: Readonly<Record<"onEnter" | "onRun" | "onExit", WrapHook>> = {
  onEnter: "onWrapEnvEnter",
  onRun: "onWrapTaskRun",
  onExit: "onWrapEnvExit",
};

/** The position whose defaults (timeout, notify period) a hook takes: the action it replaces. */
export const HOOK_POSITION: Readonly<Record<WrapHook, "onEnter" | "onRun" | "onExit">> = {
  onWrapEnvEnter: "onEnter",
  onWrapTaskRun: "onRun",
  onWrapEnvExit: "onExit",
};

/**
 * The one-wrapper rule over a job's Session stacks: the outer environments (entered first, in
 * order) under each step's own. Returns each wrapping environment after the first of its stack,
 * with the message to report at it; a second outer wrapper is reported once, not per step.
 * `environment` reads the Environment of an item, so callers can keep their own bookkeeping.
 */
export function extraWrappers<T>(outer: readonly T[], steps: ReadonlyArray<{ name: string; environments: readonly T[] }>, environment: (item: T) => Environment): Array<{ item: T; message: string }> {
  const wrapping = (items: readonly T[]) => items.filter((item) => isWrappingEnvironment(environment(item)));
  const extras: Array<{ item: T; message: string }> = [];
  const check = (stack: readonly T[], stepName?: string) => {
    const [first, ...rest] = stack;
    for (const item of rest) extras.push({ item, message: tooManyWrappers(environment(first as T), environment(item), stepName) });
  };
  const outerWrappers = wrapping(outer);
  check(outerWrappers);
  if (outerWrappers.length > 1) return extras;
  for (const step of steps) check([...outerWrappers, ...wrapping(step.environments)], step.name);
  return extras;
}

function tooManyWrappers(first: Environment, second: Environment, stepName?: string): string {
  const where = stepName === undefined ? "" : ` (in the Session of step '${stepName}')`;
  return `environments '${first.name}' and '${second.name}' both define wrap hooks${where}; a Session can have at most one wrapping environment`;
}

/** Whether a hook's field uses `Wrapped*` values, so it can only be resolved on the worker. */
export function dependsOnWrappedValues(format: FormatString): boolean {
  return format.segments.some((segment) => {
    if (segment.kind !== "expression") return false;
    if (segment.expr) return [...identifiersOf(segment.expr)].some((name) => WRAPPED_NAMESPACES.has(name));
    return WRAPPED_NAMESPACES.has((segment.reference ?? segment.source).split(".")[0] as string);
  });
}
