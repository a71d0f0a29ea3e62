/**
 * FEATURE_BUNDLE_1 lets action timeouts and notify periods be format strings; they are resolved
 * in template scope, so job creation can already tell whether they yield valid numbers.
 */
import type { PathSegment } from "../errors";
import type { Action, Environment, StepScript } from "../model";
import { resolveIntField, type Symbols } from "./resolve-fields";
import { MAX_NOTIFY_PERIOD } from "../validate/actions";

export function checkActionNumbers(
  actions: ReadonlyArray<Action | undefined>,
  symbols: Symbols,
  report: (segments: PathSegment[], message: string) => void,
): void {
  for (const action of actions) {
    if (!action) continue;
    if (action.timeout) {
      const timeout = resolveIntField(action.timeout, symbols);
      if (!timeout.ok) report([...action.timeout.path], timeout.message);
      else if (timeout.value !== null && timeout.value <= 0n) report([...action.timeout.path], `timeout resolved to ${timeout.value}; it must be a positive number of seconds`);
    }
    const period = action.cancelation?.notifyPeriodInSeconds;
    if (period) {
      const value = resolveIntField(period, symbols);
      if (!value.ok) report([...period.path], value.message);
      else if (value.value !== null && (value.value < 1n || value.value > BigInt(MAX_NOTIFY_PERIOD))) {
        report([...period.path], `notifyPeriodInSeconds resolved to ${value.value}; it must be between 1 and ${MAX_NOTIFY_PERIOD}`);
      }
    }
  }
}

export function environmentActions(environments: readonly Environment[]): Array<Action | undefined> {
  return environments.flatMap((e) => [e.script?.actions.onEnter, e.script?.actions.onExit]);
}

export function scriptActions(script: StepScript): Array<Action | undefined> {
  return [script.actions.onRun];
}
