/**
 * WRAP_ACTIONS in a Session (RFC 0008, seed 000-session-semantics): the wrapping environment's
 * hooks replace inner onEnter / onRun / onExit (only where the inner action exists), its own
 * onEnter/onExit are never wrapped, a hook's exit status is the action's, and cleanup is
 * symmetric. The public WRAP_ACTIONS conformance cases (run by `npm test`) cover the details of
 * every WrappedAction.* value; these tests pin the Session-level order and outcomes.
 */
import { describe, expect, it } from "vitest";
import { buildJob, py, runSession } from "./session-test-support";

/** An action printing `text` (Python, so a format string can sit inside the literal). */
const say = (text: string, exitCode = 0) => py(`print(${JSON.stringify(text)})${exitCode ? `\nraise SystemExit(${exitCode})` : ""}`);

function wrapEnvironment(hooks: { enter?: number; task?: number; exit?: number } = {}): string {
  return [
    "specificationVersion: environment-2023-09",
    "extensions: [WRAP_ACTIONS, EXPR]",
    "environment:",
    "  name: Wrap",
    "  script:",
    "    actions:",
    `      onEnter: ${say("WRAP OWN ENTER")}`,
    `      onWrapEnvEnter: ${say("HOOK ENTER {{WrappedEnv.Name}} {{WrappedAction.Command}}", hooks.enter)}`,
    `      onWrapTaskRun: ${say("HOOK TASK {{WrappedStep.Name}} {{WrappedAction.Args[1]}}", hooks.task)}`,
    `      onWrapEnvExit: ${say("HOOK EXIT {{WrappedEnv.Name}}", hooks.exit)}`,
    `      onExit: ${say("WRAP OWN EXIT")}`,
  ].join("\n");
}

/** Step Render (`tasks` tasks) inside `innerEnvironments`, under the Wrap environment template whose hooks exit with `hooks`. */
function job(innerEnvironments: string, tasks = 1, hooks: Parameters<typeof wrapEnvironment>[0] = {}): ReturnType<typeof buildJob> {
  return buildJob(
    [
      "specificationVersion: jobtemplate-2023-09",
      "name: J",
      innerEnvironments,
      "steps:",
      "- name: Render",
      ...(tasks > 1 ? ["  parameterSpace:", "    taskParameterDefinitions:", "    - {name: F, type: INT, range: " + JSON.stringify(`1-${tasks}`) + "}"] : []),
      "  script:",
      "    actions:",
      `      onRun: ${py("print('TASK BODY')", {}, "frame")}`,
    ].join("\n"),
    { environments: [wrapEnvironment(hooks)] },
  );
}

const INNER = ["jobEnvironments:", "- name: Inner", "  script:", "    actions:", `      onEnter: ${say("INNER ENTER BODY")}`, `      onExit: ${say("INNER EXIT BODY")}`].join("\n");

/** The lines the run printed that are one of the markers, in order. */
function markers(logs: readonly string[]): string[] {
  return logs.filter((line) => /^(WRAP OWN|HOOK|INNER|TASK BODY)/.test(line));
}

describe("wrap hooks in a Session", () => {
  it("replace inner onEnter, each task's onRun and inner onExit; the wrapper's own actions run unwrapped", async () => {
    const run = await runSession(job(INNER, 2));
    expect(run.result.status).toBe("SUCCEEDED");
    expect(markers(run.ofType("log").map((e) => e.line))).toEqual([
      "WRAP OWN ENTER",
      "HOOK ENTER Inner python3",
      "HOOK TASK Render print('TASK BODY')",
      "HOOK TASK Render print('TASK BODY')",
      "HOOK EXIT Inner",
      "WRAP OWN EXIT",
    ]);
    expect(run.ofType("action_started").map((e) => `${e.kind} ${e.name} ${e.wrappedBy ?? "-"}`)).toEqual([
      "ENV_ENTER Wrap -",
      "ENV_ENTER Inner onWrapEnvEnter",
      "TASK_RUN Render onWrapTaskRun",
      "TASK_RUN Render onWrapTaskRun",
      "ENV_EXIT Inner onWrapEnvExit",
      "ENV_EXIT Wrap -",
    ]);
  });

  it("an inner environment without onEnter/onExit (variables only) gets no enter or exit hook", async () => {
    const variablesOnly = ["jobEnvironments:", "- name: Vars", "  variables:", "    A: '1'"].join("\n");
    const run = await runSession(job(variablesOnly));
    expect(markers(run.ofType("log").map((e) => e.line))).toEqual(["WRAP OWN ENTER", "HOOK TASK Render print('TASK BODY')", "WRAP OWN EXIT"]);
  });

  it.each([
    ["onWrapEnvEnter", { enter: 7 }, ["WRAP OWN ENTER", "HOOK ENTER Inner python3", "HOOK EXIT Inner", "WRAP OWN EXIT"], "ENV_ENTER"],
    ["onWrapTaskRun", { task: 7 }, ["WRAP OWN ENTER", "HOOK ENTER Inner python3", "HOOK TASK Render print('TASK BODY')", "HOOK EXIT Inner", "WRAP OWN EXIT"], "TASK_RUN"],
  ] as const)("a failing %s is the failure of the action it replaces; cleanup is symmetric", async (_hook, exits, expected, failedKind) => {
    const run = await runSession(job(INNER, 3, exits));
    expect(run.result.status).toBe("FAILED");
    expect(markers(run.ofType("log").map((e) => e.line))).toEqual(expected);
    const failed = run.actions.filter((a) => a.status !== "SUCCEEDED");
    expect(failed.map((a) => [a.kind, a.exitCode])).toEqual([[failedKind, 7]]);
  });

  it("a failing onWrapEnvExit fails the Session, and the wrapper's own onExit still runs", async () => {
    const run = await runSession(job(INNER, 1, { exit: 3 }));
    expect(run.result.status).toBe("FAILED");
    expect(run.summary).toEqual(["ENV_ENTER Wrap SUCCEEDED", "ENV_ENTER Inner SUCCEEDED", "TASK_RUN Render SUCCEEDED", "ENV_EXIT Inner FAILED", "ENV_EXIT Wrap SUCCEEDED"]);
  });
});
