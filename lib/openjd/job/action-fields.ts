/**
 * FEATURE_BUNDLE_1 lets action timeouts, notify periods and cancelation modes be format strings;
 * they are resolved in template scope, so job creation can already tell whether they yield valid
 * values. In a wrap hook a field that uses `Wrapped*` values only resolves on the worker, when
 * the replaced action is known; such fields are left to the runtime.
 */
import type { PathSegment } from "../errors";
import { MAX_NOTIFY_PERIOD, WRAP_HOOKS, type Action, type CancelationModeField, type Environment, type NumberField, type StepScript } from "../model";
import { dependsOnWrappedValues } from "../wrap-stack";
import { resolveIntField, resolveMode, type Symbols } from "./resolve-fields";

type Report = (segments: PathSegment[], message: string) => void;

export function checkActionNumbers(actions: ReadonlyArray<Action | undefined>, symbols: Symbols, report: Report): void {
  for (const action of actions) {
    if (!action) continue;
    const timeout = action.timeout;
    if (timeout && !late(timeout)) {
      const value = resolveIntField(timeout, symbols);
      if (!value.ok) report([...timeout.path], value.message);
      else if (value.value !== null && value.value <= 0n) report([...timeout.path], `timeout resolved to ${value.value}; it must be a positive number of seconds`);
    }
    const mode = action.cancelation?.mode;
    if (mode !== undefined && typeof mode !== "string" && !dependsOnWrappedValues(mode.format)) checkMode(mode, symbols, report);
    const period = action.cancelation?.notifyPeriodInSeconds;
    if (period && !late(period)) {
      const value = resolveIntField(period, symbols);
      if (!value.ok) report([...period.path], value.message);
      else if (value.value !== null && (value.value < 1n || value.value > BigInt(MAX_NOTIFY_PERIOD))) {
        report([...period.path], `notifyPeriodInSeconds resolved to ${value.value}; it must be between 1 and ${MAX_NOTIFY_PERIOD}`);
      }
    }
  }
}

function late(field: NumberField<bigint>): boolean {
  return field.kind === "format" && dependsOnWrappedValues(field.format);
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
