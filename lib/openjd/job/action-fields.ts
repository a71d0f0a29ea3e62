/**
 * FEATURE_BUNDLE_1 lets action timeouts, notify periods and cancelation modes be format strings;
 * they are resolved in template scope, so job creation can already tell whether they yield valid
 * values. In a wrap hook a field that uses `Wrapped*` values only resolves on the worker, when
 * the replaced action is known; such fields are left to the runtime.
 */
import type { PathSegment } from "../errors";
import { WRAP_HOOKS, type Action, type CancelationModeField, type Environment, type NumberField, type StepScript } from "../model";
import { dependsOnWrappedValues } from "../wrap-stack";
import { notifyPeriodProblem, resolveIntField, resolveMode, timeoutProblem, type Symbols } from "./resolve-fields";

type Report = (segments: PathSegment[], message: string) => void;

export function checkActionNumbers(actions: ReadonlyArray<Action | undefined>, symbols: Symbols, report: Report): void {
  for (const action of actions) {
    if (!action) continue;
    if (action.timeout) checkNumber(action.timeout, timeoutProblem, symbols, report);
    const mode = action.cancelation?.mode;
    if (mode !== undefined && typeof mode !== "string" && !dependsOnWrappedValues(mode.format)) checkMode(mode, symbols, report);
    const period = action.cancelation?.notifyPeriodInSeconds;
    if (period) checkNumber(period, notifyPeriodProblem, symbols, report);
  }
}

function checkNumber(field: NumberField<bigint>, problem: (value: bigint) => string | null, symbols: Symbols, report: Report): void {
  if (field.kind === "format" && dependsOnWrappedValues(field.format)) return;
  const value = resolveIntField(field, symbols);
  const message = !value.ok ? value.message : value.value === null ? null : problem(value.value);
  if (message !== null) report([...field.path], message);
}

function checkMode(mode: Exclude<CancelationModeField, string>, symbols: Symbols, report: Report): void {
  const resolved = resolveMode(mode.format, symbols);
  if (!resolved.ok) report([...mode.path], resolved.message);
}

/** Every action of the environments, wrap hooks included. */
export function environmentActions(environments: readonly Environment[]): Array<Action | undefined> {
  return environments.flatMap((e) => {
    const actions = e.script?.actions;
    return actions ? [actions.onEnter, actions.onExit, ...WRAP_HOOKS.map((hook) => actions[hook])] : [];
  });
}

export function scriptActions(script: StepScript): Array<Action | undefined> {
  return [script.actions.onRun];
}
