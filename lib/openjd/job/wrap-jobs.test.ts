/**
 * WRAP_ACTIONS at job creation: the one-wrapper rule over the whole Session stack (environment
 * templates, job environments, each step's environments), and hook fields that use `Wrapped*`
 * values left for the worker while the others are resolved and checked as usual.
 */
import { describe, expect, it } from "vitest";
import { createErrors, createOk } from "./job-test-support";

const HOOKS = `      onWrapEnvEnter: {command: enter}
      onWrapTaskRun: {command: run}
      onWrapEnvExit: {command: exit}`;

function wrapEnv(name: string, extra = "", extensions = "[WRAP_ACTIONS, EXPR]"): string {
  return `specificationVersion: environment-2023-09
extensions: ${extensions}
${extra}environment:
  name: ${name}
  script:
    actions:
${HOOKS}
`;
}

const PLAIN_ENV = `specificationVersion: environment-2023-09
environment:
  name: Plain
  variables: {A: "1"}
`;

function job(fields = "", steps = "- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n"): string {
  return `specificationVersion: jobtemplate-2023-09
extensions: [WRAP_ACTIONS, EXPR, FEATURE_BUNDLE_1]
name: J
${fields}steps:
${steps}`;
}

const wrappingJobEnv = (name: string) => `- name: ${name}\n  script:\n    actions:\n${HOOKS.replace(/^ {6}/gm, "      ")}\n`;
const stepWithEnvs = (name: string, envs: string) => `- name: ${name}\n  stepEnvironments:\n${envs.replace(/^/gm, "  ").trimEnd()}\n  script:\n    actions:\n      onRun: {command: echo}\n`;

describe("one wrapping environment per Session stack", () => {
  it.each<[string, Parameters<typeof createErrors>[0], string[]]>([
    [
      "two wrapping environment templates",
      { template: job(), environments: [wrapEnv("WrapA"), wrapEnv("WrapB")] },
      ["environment[1] environment: environments 'WrapA' and 'WrapB' both define wrap hooks; a Session can have at most one wrapping environment"],
    ],
    [
      "an environment template and a job environment",
      { template: job(`jobEnvironments:\n${wrappingJobEnv("JobWrap")}`), environments: [wrapEnv("WrapA")] },
      ["template jobEnvironments[0]: environments 'WrapA' and 'JobWrap' both define wrap hooks; a Session can have at most one wrapping environment"],
    ],
    [
      "an environment template and the step environments of two steps",
      { template: job("", stepWithEnvs("S1", wrappingJobEnv("StepWrap")) + stepWithEnvs("S2", wrappingJobEnv("StepWrap"))), environments: [PLAIN_ENV, wrapEnv("WrapA")] },
      [
        "template steps[0].stepEnvironments[0]: environments 'WrapA' and 'StepWrap' both define wrap hooks (in the Session of step 'S1'); a Session can have at most one wrapping environment",
        "template steps[1].stepEnvironments[0]: environments 'WrapA' and 'StepWrap' both define wrap hooks (in the Session of step 'S2'); a Session can have at most one wrapping environment",
      ],
    ],
    [
      "reported even when parameter values are missing too",
      { template: job("parameterDefinitions:\n- {name: N, type: INT}\n"), environments: [wrapEnv("WrapA"), wrapEnv("WrapB")] },
      [
        "environment[1] environment: environments 'WrapA' and 'WrapB' both define wrap hooks; a Session can have at most one wrapping environment",
        "parameters : values are missing for required parameters: N",
      ],
    ],
  ])("%s", (_name, input, errors) => {
    expect(createErrors(input)).toEqual(errors);
  });

  it.each<[string, Parameters<typeof createOk>[0]]>([
    ["one wrapping environment template around plain ones", { template: job(), environments: [PLAIN_ENV, wrapEnv("WrapA")] }],
    ["a wrapping job environment without environment templates", { template: job(`jobEnvironments:\n${wrappingJobEnv("JobWrap")}`) }],
    ["a wrapping step environment in each of two steps", { template: job("", stepWithEnvs("S1", wrappingJobEnv("W")) + stepWithEnvs("S2", wrappingJobEnv("W"))) }],
  ])("%s is accepted", (_name, input) => {
    expect(createOk(input).name).toBe("J");
  });
});

describe("hook fields at job creation", () => {
  const fb1 = "[WRAP_ACTIONS, EXPR, FEATURE_BUNDLE_1]";
  const envWithHookFields = (fields: string, params = "") => wrapEnv("Wrap", params, fb1).replace("onWrapTaskRun: {command: run}", `onWrapTaskRun: {command: run, ${fields}}`);

  it.each([
    ["a forwarded timeout", 'timeout: "{{WrappedAction.Timeout}}"'],
    ["a forwarded cancelation", 'cancelation: {mode: "{{WrappedAction.Cancelation.Mode}}", notifyPeriodInSeconds: "{{WrappedAction.Cancelation.NotifyPeriodInSeconds}}"}'],
    ["a timeout computed from a Wrapped value", 'timeout: "{{ (WrappedAction.Timeout or 60) * 2 }}"'],
  ])("%s is left for the worker", (_name, fields) => {
    expect(createOk({ template: job(), environments: [envWithHookFields(fields)] }).environmentTemplates).toHaveLength(1);
  });

  it.each([
    ["a hook timeout from a parameter resolving to 0", 'timeout: "{{Param.T}}"', "parameterDefinitions:\n- {name: T, type: INT, default: 0}\n", /timeout resolved to 0; it must be a positive/],
    ["a hook mode resolving to an unknown name", 'cancelation: {mode: "{{Param.M}}"}', "parameterDefinitions:\n- {name: M, type: STRING, default: KILL}\n", /cancelation mode resolved to 'KILL'/],
    [
      "a hook notify period from a parameter out of range",
      'cancelation: {mode: NOTIFY_THEN_TERMINATE, notifyPeriodInSeconds: "{{Param.P}}"}',
      "parameterDefinitions:\n- {name: P, type: INT, default: 601}\n",
      /between 1 and 600/,
    ],
  ])("%s is refused", (_name, fields, params, message) => {
    const errors = createErrors({ template: job(), environments: [envWithHookFields(fields, params)] });
    expect(errors).toEqual([expect.stringMatching(message)]);
    expect(errors[0]).toMatch(/^environment\[0\] environment\.script\.actions\.onWrapTaskRun\./);
  });
});

describe("format-string cancelation modes outside hooks (FEATURE_BUNDLE_1)", () => {
  const withMode = (mode: string, value: string) =>
    job(`parameterDefinitions:\n- {name: M, type: STRING, default: "${value}"}\n`, `- name: S\n  script:\n    actions:\n      onRun: {command: echo, cancelation: {mode: "${mode}"}}\n`);

  it.each([
    ["a whole-field mode", "{{Param.M}}", "NOTIFY_THEN_TERMINATE"],
    ["a partial mode", "{{Param.M}}_THEN_TERMINATE", "NOTIFY"],
    ["a whole-field null (drops the cancelation)", "{{ Param.M if Param.M != '' else null }}", ""],
  ])("%s resolves", (_name, mode, value) => {
    expect(createOk({ template: withMode(mode, value) }).steps).toHaveLength(1);
  });

  it("a mode resolving to another name is refused where it is written", () => {
    expect(createErrors({ template: withMode("{{Param.M}}", "terminate") })).toEqual([
      "template steps[0].script.actions.onRun.cancelation.mode: cancelation mode resolved to 'terminate'; it must be TERMINATE or NOTIFY_THEN_TERMINATE",
    ]);
  });
});
