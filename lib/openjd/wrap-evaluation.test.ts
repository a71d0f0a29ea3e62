/**
 * The worker side of WRAP_ACTIONS: the `Wrapped*` values of a hook invocation (declared timeout,
 * declared mode, effective notify period — pinned by the WRAP_ACTIONS/jobs `wrap-cancelation-*`
 * fixtures), and hooks resolved against them, including the FEATURE_BUNDLE_1 round trip.
 */
import { describe, expect, it } from "vitest";
import { ExprError } from "./expr/errors";
import { toText, type ExprValue } from "./expr/values";
import type { FormatEnvironment } from "./format-evaluation";
import { resolveAction, type ActionRole } from "./host-evaluation";
import { environmentTemplate, jobTemplate } from "./job/job-test-support";
import type { Action } from "./model";
import { HOOK_POSITION } from "./wrap-stack";
import { hookEnvironment, wrappedActionOf, wrappedSymbols, type WrappedActionValues } from "./wrap-evaluation";

const ENV: FormatEnvironment = { symbols: new Map(), scope: "host", pathFormat: "POSIX" };

/** The onRun of a one-step FEATURE_BUNDLE_1 job template, written as a YAML flow mapping. */
function onRun(action: string): Action {
  return jobTemplate(`specificationVersion: jobtemplate-2023-09
extensions: [FEATURE_BUNDLE_1]
name: J
parameterDefinitions:
- {name: P, type: INT, default: 1}
steps:
- name: S
  script:
    actions:
      onRun: ${action}
`).steps[0]!.script.actions.onRun;
}

/** The three hooks of a FEATURE_BUNDLE_1 wrapping environment template; `hook` replaces onWrapTaskRun's fields. */
function hooks(taskRun: string): Record<"onWrapEnvEnter" | "onWrapTaskRun" | "onWrapEnvExit", Action> {
  const actions = environmentTemplate(`specificationVersion: environment-2023-09
extensions: [WRAP_ACTIONS, EXPR, FEATURE_BUNDLE_1]
environment:
  name: Wrap
  script:
    actions:
      onWrapEnvEnter: {command: enter, args: ["{{WrappedEnv.Name}}"]}
      onWrapTaskRun: ${taskRun}
      onWrapEnvExit: {command: exit, timeout: "{{WrappedAction.Timeout}}"}
`).environment.script!.actions;
  return { onWrapEnvEnter: actions.onWrapEnvEnter!, onWrapTaskRun: actions.onWrapTaskRun!, onWrapEnvExit: actions.onWrapEnvExit! };
}

const plain = (symbols: Map<string, ExprValue>) => Object.fromEntries([...symbols].map(([k, v]) => [k, v.kind === "null" ? null : v.kind === "list" ? v.items.map(toText) : toText(v)]));
const wrapped = (fields: Partial<WrappedActionValues>): WrappedActionValues => ({ command: "render", args: ["-f", "1"], environment: ["A=1"], timeout: null, cancelation: null, ...fields });

describe("wrappedSymbols", () => {
  it.each<[string, Partial<WrappedActionValues>, Record<string, unknown>]>([
    ["no cancelation, no timeout: both null", {}, { "WrappedAction.Timeout": null, "WrappedAction.Cancelation.Mode": null, "WrappedAction.Cancelation.NotifyPeriodInSeconds": null }],
    [
      "TERMINATE: no notify period",
      { cancelation: { mode: "TERMINATE", notifyPeriodInSeconds: null } },
      { "WrappedAction.Cancelation.Mode": "TERMINATE", "WrappedAction.Cancelation.NotifyPeriodInSeconds": null },
    ],
    ["TERMINATE ignores a stray period", { cancelation: { mode: "TERMINATE", notifyPeriodInSeconds: 30 } }, { "WrappedAction.Cancelation.NotifyPeriodInSeconds": null }],
    [
      "NOTIFY_THEN_TERMINATE with its period",
      { cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 45 } },
      { "WrappedAction.Cancelation.Mode": "NOTIFY_THEN_TERMINATE", "WrappedAction.Cancelation.NotifyPeriodInSeconds": "45" },
    ],
    ["a declared timeout", { timeout: 300 }, { "WrappedAction.Timeout": "300" }],
    ["command, args and environment", { args: [], environment: ["A=1", "B=x=y"] }, { "WrappedAction.Command": "render", "WrappedAction.Args": [], "WrappedAction.Environment": ["A=1", "B=x=y"] }],
  ])("%s", (_name, fields, expected) => {
    expect(plain(wrappedSymbols(wrapped(fields), {}))).toMatchObject(expected);
  });

  it("types: ints are ints, lists are list[string] even when empty", () => {
    const symbols = wrappedSymbols(wrapped({ args: [], timeout: 5, cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 9 } }), {});
    expect(symbols.get("WrappedAction.Timeout")).toEqual({ kind: "int", value: 5n });
    expect(symbols.get("WrappedAction.Cancelation.NotifyPeriodInSeconds")).toEqual({ kind: "int", value: 9n });
    expect(symbols.get("WrappedAction.Args")).toMatchObject({ kind: "list", items: [], itemType: { code: "string" } });
  });

  it.each([
    ["an environment hook", { envName: "Conda" }, { "WrappedEnv.Name": "Conda" }, "WrappedStep.Name"],
    ["the task hook", { stepName: "Render" }, { "WrappedStep.Name": "Render" }, "WrappedEnv.Name"],
  ])("names for %s", (_name, names, expected, absent) => {
    const symbols = wrappedSymbols(wrapped({}), names);
    expect(plain(symbols)).toMatchObject(expected);
    expect(symbols.has(absent)).toBe(false);
  });
});

describe("wrappedActionOf: declared timeout and mode, effective notify period", () => {
  const params = { ...ENV, symbols: new Map([["Param.P", { kind: "int", value: 47n } as ExprValue]]) };
  it.each<[string, string, ActionRole, Pick<WrappedActionValues, "timeout" | "cancelation">]>([
    ["no cancelation", "{command: echo}", "onRun", { timeout: null, cancelation: null }],
    ["TERMINATE", "{command: echo, cancelation: {mode: TERMINATE}}", "onRun", { timeout: null, cancelation: { mode: "TERMINATE", notifyPeriodInSeconds: null } }],
    [
      "NOTIFY_THEN_TERMINATE 45",
      "{command: echo, cancelation: {mode: NOTIFY_THEN_TERMINATE, notifyPeriodInSeconds: 45}}",
      "onRun",
      { timeout: null, cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 45 } },
    ],
    [
      "default period of onRun: 120",
      "{command: echo, cancelation: {mode: NOTIFY_THEN_TERMINATE}}",
      "onRun",
      { timeout: null, cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 120 } },
    ],
    [
      "default period of onEnter: 30",
      "{command: echo, cancelation: {mode: NOTIFY_THEN_TERMINATE}}",
      "onEnter",
      { timeout: null, cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 30 } },
    ],
    [
      "default period of onExit: 30; its 300 s timeout is a default, not declared",
      "{command: echo, cancelation: {mode: NOTIFY_THEN_TERMINATE}}",
      "onExit",
      { timeout: null, cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 30 } },
    ],
    [
      "a period from a format string",
      '{command: echo, cancelation: {mode: NOTIFY_THEN_TERMINATE, notifyPeriodInSeconds: "{{Param.P}}"}}',
      "onRun",
      { timeout: null, cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 47 } },
    ],
    ["a declared timeout", "{command: echo, timeout: 300}", "onExit", { timeout: 300, cancelation: null }],
  ])("%s", (_name, action, role, expected) => {
    expect(wrappedActionOf(onRun(action), params, role, ["A=1"])).toEqual({ command: "echo", args: [], environment: ["A=1"], ...expected });
  });
});

describe("hooks resolved with the Wrapped* values", () => {
  const ROUND_TRIP = `{command: echo, args: ["MODE=<{{WrappedAction.Cancelation.Mode}}> NP=<{{WrappedAction.Cancelation.NotifyPeriodInSeconds}}> T=<{{WrappedAction.Timeout}}>", "{{WrappedAction.Args}}"],
        timeout: "{{WrappedAction.Timeout}}", cancelation: {mode: "{{WrappedAction.Cancelation.Mode}}", notifyPeriodInSeconds: "{{WrappedAction.Cancelation.NotifyPeriodInSeconds}}"}}`;
  const run = (inner: string, hook = ROUND_TRIP) => {
    const values = wrappedActionOf(onRun(inner), ENV, "onRun", []);
    return resolveAction(hooks(hook).onWrapTaskRun, hookEnvironment(ENV, wrappedSymbols(values, { stepName: "S" })), HOOK_POSITION.onWrapTaskRun);
  };

  it.each([
    [
      "NOTIFY_THEN_TERMINATE 45, timeout 300",
      "{command: x, args: [a, b], timeout: 300, cancelation: {mode: NOTIFY_THEN_TERMINATE, notifyPeriodInSeconds: 45}}",
      "MODE=<NOTIFY_THEN_TERMINATE> NP=<45> T=<300>",
      300,
      { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 45 },
    ],
    ["TERMINATE: the null period is dropped", "{command: x, args: [a, b], cancelation: {mode: TERMINATE}}", "MODE=<TERMINATE> NP=<> T=<>", null, { mode: "TERMINATE", notifyPeriodInSeconds: null }],
    ["no cancelation: the null mode drops the object", "{command: x, args: [a, b]}", "MODE=<> NP=<> T=<>", null, { mode: "TERMINATE", notifyPeriodInSeconds: null }],
  ])("round trip: %s", (_name, inner, text, timeout, cancelation) => {
    expect(run(inner)).toEqual({ command: "echo", args: [text, "a", "b"], timeout, cancelation });
  });

  it("a partially interpolated mode with a forwarded period", () => {
    const hook = `{command: echo, cancelation: {mode: "{{ 'NOTIFY' }}_THEN_TERMINATE", notifyPeriodInSeconds: "{{WrappedAction.Cancelation.NotifyPeriodInSeconds}}"}}`;
    expect(run("{command: x, cancelation: {mode: NOTIFY_THEN_TERMINATE, notifyPeriodInSeconds: 45}}", hook).cancelation).toEqual({ mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 45 });
  });

  it("a mode resolving to TERMINATE ignores a written notify period", () => {
    const hook = '{command: echo, cancelation: {mode: "{{WrappedAction.Cancelation.Mode}}", notifyPeriodInSeconds: 60}}';
    expect(run("{command: x, cancelation: {mode: TERMINATE}}", hook).cancelation).toEqual({ mode: "TERMINATE", notifyPeriodInSeconds: null });
  });

  it("a forwarded null timeout leaves the hook position's default (onWrapEnvExit: 300 s)", () => {
    const values = wrappedActionOf(onRun("{command: x}"), ENV, "onExit", []);
    const env = hookEnvironment(ENV, wrappedSymbols(values, { envName: "Inner" }));
    expect(resolveAction(hooks(ROUND_TRIP).onWrapEnvExit, env, HOOK_POSITION.onWrapEnvExit).timeout).toBe(300);
    expect(resolveAction(hooks(ROUND_TRIP).onWrapEnvEnter, env, HOOK_POSITION.onWrapEnvEnter).args).toEqual(["Inner"]);
  });

  it.each([
    ["a mode that is not a method name", '{command: echo, cancelation: {mode: "{{ WrappedAction.Command }}"}}', /cancelation mode resolved to 'x'; it must be TERMINATE or NOTIFY_THEN_TERMINATE/],
    [
      "a notify period out of range",
      '{command: echo, cancelation: {mode: NOTIFY_THEN_TERMINATE, notifyPeriodInSeconds: "{{ WrappedAction.Cancelation.NotifyPeriodInSeconds * 100 }}"}}',
      /notifyPeriodInSeconds resolved to 4500; it must be between 1 and 600/,
    ],
    ["a timeout of 0", '{command: echo, timeout: "{{ len(WrappedAction.Args) }}"}', /timeout resolved to 0; it must be a positive number of seconds/],
    ["a timeout that is not a number", '{command: echo, timeout: "{{ WrappedAction.Command }}s"}', /'\{\{ WrappedAction.Command \}\}s' resolved to 'xs' is not an integer/],
  ])("fails the hook on %s", (_name, hook, message) => {
    const attempt = () => run("{command: x, cancelation: {mode: NOTIFY_THEN_TERMINATE, notifyPeriodInSeconds: 45}}", hook);
    expect(attempt).toThrow(ExprError);
    expect(attempt).toThrow(message);
  });
});
