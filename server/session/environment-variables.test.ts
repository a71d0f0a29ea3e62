import { describe, expect, it } from "vitest";
import { EnvironmentStack, type VariableChange } from "./environment-variables";

const BASE = { HOME: "/home/job", PATH: "/usr/bin", SHARED: "host", OVR: "host" };
const EXTRA = { OPENJD_SESSION_WORKING_DIR: "/tmp/session", OVR: "action" };

type Step = ["enter", string, Record<string, string>?] | ["set", string, string, string] | ["unset", string, string] | ["task", VariableChange] | ["exit", string];

function run(steps: Step[]): EnvironmentStack {
  const stack = new EnvironmentStack(BASE);
  for (const step of steps) {
    if (step[0] === "enter")
      stack.enter(
        step[1],
        Object.entries(step[2] ?? {}).map(([name, value]) => ({ name, value })),
      );
    else if (step[0] === "set") stack.change(step[1], { kind: "set", name: step[2], value: step[3] });
    else if (step[0] === "unset") stack.change(step[1], { kind: "unset", name: step[2] });
    else if (step[0] === "task") stack.taskChange(step[1]);
    else stack.exit(step[1]);
  }
  return stack;
}

/** The variables an action would see that differ from the base environment (undefined = absent). */
function seen(stack: EnvironmentStack, names: string[]): Record<string, string | undefined> {
  const env = stack.processEnv(EXTRA);
  return Object.fromEntries(names.map((name) => [name, env[name]]));
}

describe("process environment layering (reference behaviour §3.4, §3.11 rows 10–18)", () => {
  it.each<[string, Step[], Record<string, string | undefined>]>([
    ["base and extras with nothing entered", [], { HOME: "/home/job", OPENJD_SESSION_WORKING_DIR: "/tmp/session", OVR: "action" }],
    ["env variables beat the action's extras (verified OVR=env)", [["enter", "e1", { OVR: "env" }]], { OVR: "env" }],
    ["row 10: variables visible once entered", [["enter", "e1", { A: "1" }]], { A: "1" }],
    [
      "row 11: onEnter openjd_env reaches later actions",
      [
        ["enter", "e1"],
        ["set", "e1", "B", "2"],
      ],
      { B: "2" },
    ],
    [
      "row 12: the inner environment wins",
      [
        ["enter", "outer", { X: "outer" }],
        ["enter", "inner", { X: "inner" }],
      ],
      { X: "inner" },
    ],
    [
      "row 12: exit restores the outer value",
      [
        ["enter", "outer", { X: "outer" }],
        ["enter", "inner", { X: "inner" }],
        ["exit", "inner"],
      ],
      { X: "outer" },
    ],
    [
      "row 13: openjd_env overrides the same env's variables",
      [
        ["enter", "e1", { X: "var" }],
        ["set", "e1", "X", "env"],
      ],
      { X: "env" },
    ],
    [
      "row 17: unset removes the env's own variable",
      [
        ["enter", "e1", { FOO: "v" }],
        ["unset", "e1", "FOO"],
      ],
      { FOO: undefined },
    ],
    [
      "row 17: unset removes a base variable",
      [
        ["enter", "e1"],
        ["unset", "e1", "SHARED"],
      ],
      { SHARED: undefined },
    ],
    [
      "unset removes an outer env's variable",
      [
        ["enter", "o", { X: "o" }],
        ["enter", "i"],
        ["unset", "i", "X"],
      ],
      { X: undefined },
    ],
    [
      "an exited env's unset is undone",
      [
        ["enter", "o", { X: "o" }],
        ["enter", "i"],
        ["unset", "i", "X"],
        ["exit", "i"],
      ],
      { X: "o" },
    ],
    [
      "an exited env's set is undone",
      [
        ["enter", "o"],
        ["enter", "i"],
        ["set", "i", "SHARED", "i"],
        ["exit", "i"],
      ],
      { SHARED: "host" },
    ],
    [
      "unset-takes-precedence: set then unset",
      [
        ["enter", "e1"],
        ["set", "e1", "MY_VAR", "s"],
        ["unset", "e1", "MY_VAR"],
      ],
      { MY_VAR: undefined },
    ],
    [
      "unset wins within one env even if set later",
      [
        ["enter", "e1"],
        ["unset", "e1", "X"],
        ["set", "e1", "X", "late"],
      ],
      { X: undefined },
    ],
    [
      "a later env overrides an earlier env's unset",
      [
        ["enter", "o"],
        ["unset", "o", "X"],
        ["enter", "i"],
        ["set", "i", "X", "i"],
      ],
      { X: "i" },
    ],
    [
      "row 18: task changes never reach processes",
      [
        ["task", { kind: "set", name: "T", value: "1" }],
        ["task", { kind: "unset", name: "HOME" }],
      ],
      { T: undefined, HOME: "/home/job" },
    ],
    [
      "the last change of a name wins within one env",
      [
        ["enter", "e1"],
        ["set", "e1", "X", "1"],
        ["set", "e1", "X", "2"],
      ],
      { X: "2" },
    ],
  ])("%s", (_, steps, expected) => {
    expect(seen(run(steps), Object.keys(expected))).toEqual(expected);
  });

  it("keeps a variable named __proto__", () => {
    const stack = run([
      ["enter", "e1"],
      ["set", "e1", "__proto__", "p"],
    ]);
    expect(Object.getOwnPropertyDescriptor(stack.processEnv(), "__proto__")?.value).toBe("p");
  });

  it("an environment's onExit still sees its own changes; they vanish at exit", () => {
    const stack = run([
      ["enter", "e1", { A: "1" }],
      ["set", "e1", "B", "2"],
    ]);
    expect(seen(stack, ["A", "B"])).toEqual({ A: "1", B: "2" }); // onExit runs now
    stack.change("e1", { kind: "set", name: "C", value: "3" }); // printed by onExit
    stack.exit("e1");
    expect(seen(stack, ["A", "B", "C"])).toEqual({ A: undefined, B: undefined, C: undefined });
    expect(stack.entered).toEqual([]);
  });

  it("returns a fresh object and leaves the base alone", () => {
    const stack = run([
      ["enter", "e1"],
      ["unset", "e1", "HOME"],
    ]);
    const env = stack.processEnv();
    env.PATH = "changed";
    expect(stack.processEnv().PATH).toBe("/usr/bin");
    expect(BASE.HOME).toBe("/home/job");
    expect(stack.processEnv()).toEqual({ PATH: "/usr/bin", SHARED: "host", OVR: "host" });
  });
});

describe("stack discipline (reference behaviour §3.2, §3.11 row 22)", () => {
  it.each<[string, Step[], string]>([
    [
      "entering the same id twice",
      [
        ["enter", "a"],
        ["enter", "a"],
      ],
      "Environment a has already been entered in this Session.",
    ],
    [
      "exiting out of order",
      [
        ["enter", "a"],
        ["enter", "b"],
        ["exit", "a"],
      ],
      "Cannot exit Environment a. Must exit Environment b first.",
    ],
    [
      "exiting an unknown id",
      [
        ["enter", "a"],
        ["exit", "zz"],
      ],
      "Cannot exit unknown Environment with identifier zz",
    ],
    [
      "exiting twice",
      [
        ["enter", "a"],
        ["exit", "a"],
        ["exit", "a"],
      ],
      "Cannot exit unknown Environment with identifier a",
    ],
    [
      "changing an environment that is not entered",
      [
        ["enter", "a"],
        ["set", "b", "X", "1"],
      ],
      "Cannot change variables of Environment b: it is not entered.",
    ],
  ])("%s throws", (_, steps, message) => {
    expect(() => run(steps)).toThrow(message);
  });

  it("lists entered environments in entry order and allows re-entry after exit", () => {
    const stack = run([
      ["enter", "job"],
      ["enter", "step-a"],
      ["exit", "step-a"],
      ["enter", "step-b"],
    ]);
    expect(stack.entered).toEqual(["job", "step-b"]);
    stack.exit("step-b");
    stack.enter("step-b", []);
    expect(stack.entered).toEqual(["job", "step-b"]);
  });
});

describe("sessionDefined: WrappedAction.Environment", () => {
  it.each<[string, Step[], string[]]>([
    ["nothing defined: no host variables", [], []],
    [
      "wrap-environment-includes-variables-map / excludes-host-vars",
      [
        ["enter", "wrap"],
        ["enter", "inner", { STATIC_VAR: "hello" }],
        ["set", "inner", "DYNAMIC_VAR", "world"],
      ],
      ["DYNAMIC_VAR=world", "STATIC_VAR=hello"],
    ],
    [
      "wrap-variables-only-inner-env-skips-hooks",
      [
        ["enter", "wrap"],
        ["enter", "vars", { STATIC_FROM_VARS: "vars-value" }],
      ],
      ["STATIC_FROM_VARS=vars-value"],
    ],
    ["host variables set again by an environment are session-defined", [["enter", "e", { PATH: "/opt/bin" }]], ["PATH=/opt/bin"]],
    [
      "unset removes",
      [
        ["enter", "e", { A: "1" }],
        ["set", "e", "B", "2"],
        ["unset", "e", "A"],
        ["unset", "e", "B"],
      ],
      [],
    ],
    [
      "unset wins within one env",
      [
        ["enter", "e"],
        ["unset", "e", "X"],
        ["set", "e", "X", "late"],
      ],
      [],
    ],
    [
      "wrap-openjd-env-grand-child-under-exit-hook: an exited env's exports remain",
      [
        ["enter", "wrap"],
        ["enter", "alpha"],
        ["enter", "beta"],
        ["set", "beta", "EXIT_VAR", "set-during-exit"],
        ["exit", "beta"],
      ],
      ["EXIT_VAR=set-during-exit"],
    ],
    [
      "an exited env's variables map does not remain",
      [
        ["enter", "o", { X: "o" }],
        ["enter", "i", { X: "i", Y: "i" }],
        ["exit", "i"],
      ],
      ["X=o"],
    ],
    [
      "entered environments win over older exports",
      [
        ["enter", "o", { X: "o" }],
        ["enter", "i"],
        ["set", "i", "X", "i"],
        ["exit", "i"],
      ],
      ["X=o"],
    ],
    [
      "wrap-openjd-env-task-grand-child-visible-next-task",
      [
        ["enter", "wrap"],
        ["task", { kind: "set", name: "TASK1_VAR", value: "set-by-task-1" }],
      ],
      ["TASK1_VAR=set-by-task-1"],
    ],
    [
      "a task's unset removes an export",
      [
        ["task", { kind: "set", name: "T", value: "1" }],
        ["task", { kind: "unset", name: "T" }],
      ],
      [],
    ],
    [
      "values keep '=' and newlines",
      [
        ["enter", "e", { A: "x=y" }],
        ["set", "e", "B", "1\n2"],
      ],
      ["A=x=y", "B=1\n2"],
    ],
    ["sorted by name", [["enter", "e", { b: "1", B: "2", a_1: "3", A: "4" }]], ["A=4", "B=2", "a_1=3", "b=1"]],
  ])("%s", (_, steps, expected) => {
    expect(run(steps).sessionDefined()).toEqual(expected);
  });
});
