/**
 * WRAP_ACTIONS (RFC 0008; spec digest §13.5) in templates: the extension gates, the
 * all-or-nothing hook set, optional onEnter/onExit, where each `Wrapped*` symbol exists (its own
 * hooks' command, args, timeout and cancelation — nowhere else), FEATURE_BUNDLE_1 gating of
 * format-string timeouts, notify periods and modes, and one wrapping environment per stack.
 */
import { describe, it } from "vitest";
import { WRAP_HOOKS, type WrapHook } from "../model";
import { expectError, expectValid, set, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const WRAP_EXPR = ["WRAP_ACTIONS", "EXPR"];
const WITH_FB1 = [...WRAP_EXPR, "FEATURE_BUNDLE_1"];
const A = "environment.script.actions";
const hookSet = (): Doc => ({ onWrapEnvEnter: { command: "enter" }, onWrapTaskRun: { command: "run" }, onWrapEnvExit: { command: "exit" } });

/** An environment template whose script has these actions (and any other script fields). */
function wrapEnv(actions: Doc, extensions: string[] = WRAP_EXPR, script: Doc = {}): Doc {
  return { specificationVersion: "environment-2023-09", extensions, environment: { name: "Wrap", script: { ...script, actions } } };
}

/** The full hook set with one change at `path` below `environment.script.actions`. */
function hooksWith(path: string, value: unknown, extensions: string[] = WRAP_EXPR): Doc {
  return set(wrapEnv(hookSet(), extensions), `${A}.${path}`, value);
}

const jobWith = (extensions: string[], fields: Doc): Doc => ({
  specificationVersion: "jobtemplate-2023-09",
  extensions,
  name: "J",
  steps: [{ name: "S", script: { actions: { onRun: { command: "echo" } } } }],
  ...fields,
});
const wrapping = (name: string): Doc => ({ name, script: { actions: hookSet() } });
const plain = (name: string): Doc => ({ name, script: { actions: { onEnter: { command: "echo" } } } });

describe("valid wrapping environments", () => {
  it.each<ValidRow>([
    ["the three hooks alone (onEnter/onExit become optional)", wrapEnv(hookSet())],
    ["hooks with onEnter and onExit", wrapEnv({ onEnter: { command: "up" }, ...hookSet(), onExit: { command: "down" } })],
    ["hooks with only onExit", wrapEnv({ ...hookSet(), onExit: { command: "down" } })],
    ["WRAP_ACTIONS declared without any hook", wrapEnv({ onEnter: { command: "up" } })],
    ["the RFC's argv forwarding", hooksWith("onWrapTaskRun.args", ["{{ flatten([['-e', e] for e in WrappedAction.Environment]) }}", "--", "{{WrappedAction.Command}}", "{{WrappedAction.Args}}"])],
    ["repr_sh of command and args", hooksWith("onWrapEnvExit.args", ["-c", "{{ repr_sh(WrappedAction.Command) }} {{ repr_sh(WrappedAction.Args) }}"])],
    ["null-coalescing a nullable value", hooksWith("onWrapTaskRun.args", ["T={{ WrappedAction.Timeout or 'NONE' }}", "M={{ WrappedAction.Cancelation.Mode or 'UNDECLARED' }}"])],
    ["the environment's let bindings in hooks", wrapEnv({ ...hookSet(), onWrapTaskRun: { command: "{{ greeting }}" } }, WRAP_EXPR, { let: ["greeting = 'hi'"] })],
    [
      "the environment's parameters and files in hooks",
      {
        ...wrapEnv({ ...hookSet(), onWrapEnvEnter: { command: "{{Env.File.Wrap}}", args: ["{{Param.Image}}"] } }, WRAP_EXPR, { embeddedFiles: [{ name: "Wrap", type: "TEXT", data: 'exec "$@"' }] }),
        parameterDefinitions: [{ name: "Image", type: "STRING", default: "ubuntu" }],
      },
    ],
    [
      "FB1: timeout, mode and notify period forwarded as whole-field expressions",
      hooksWith(
        "onWrapTaskRun",
        {
          command: "run",
          timeout: "{{WrappedAction.Timeout}}",
          cancelation: { mode: "{{WrappedAction.Cancelation.Mode}}", notifyPeriodInSeconds: "{{WrappedAction.Cancelation.NotifyPeriodInSeconds}}" },
        },
        WITH_FB1,
      ),
    ],
    [
      "FB1: a literal mode with a forwarded notify period",
      hooksWith("onWrapTaskRun.cancelation", { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: "{{WrappedAction.Cancelation.NotifyPeriodInSeconds}}" }, WITH_FB1),
    ],
    ["FB1: a partially interpolated mode", hooksWith("onWrapTaskRun.cancelation", { mode: "{{ 'NOTIFY' }}_THEN_TERMINATE", notifyPeriodInSeconds: 45 }, WITH_FB1)],
    ["FB1: a hook timeout from a parameter", { ...hooksWith("onWrapEnvExit.timeout", "{{Param.T}}", WITH_FB1), parameterDefinitions: [{ name: "T", type: "INT", default: 60 }] }],
    [
      "FB1: a cancelation mode format string outside hooks, from a parameter",
      {
        ...set(wrapEnv({ onEnter: { command: "up", cancelation: { mode: "{{Param.M}}" } } }, ["FEATURE_BUNDLE_1"]), "parameterDefinitions", [{ name: "M", type: "STRING", default: "TERMINATE" }]),
      },
    ],
    ["a job template with a wrapping job environment", jobWith(WRAP_EXPR, { jobEnvironments: [wrapping("W")] })],
    ["a job template with a wrapping step environment", jobWith(WRAP_EXPR, { steps: [{ name: "S", stepEnvironments: [wrapping("W")], script: { actions: { onRun: { command: "x" } } } }] })],
    [
      "a wrapping job environment around plain step environments",
      jobWith(WRAP_EXPR, {
        jobEnvironments: [wrapping("W"), plain("P")],
        steps: [{ name: "S", stepEnvironments: [plain("Q")], script: { actions: { onRun: { command: "x" } } } }],
      }),
    ],
    [
      "wrapping step environments in two different steps",
      jobWith(WRAP_EXPR, {
        steps: ["S", "T"].map((name) => ({ name, stepEnvironments: [wrapping("W")], script: { actions: { onRun: { command: "x" } } } })),
      }),
    ],
  ])("%s", (_name, doc) => expectValid(doc));
});

describe("extensions and the hook set", () => {
  const subsets: WrapHook[][] = [
    ["onWrapEnvEnter"],
    ["onWrapTaskRun"],
    ["onWrapEnvExit"],
    ["onWrapEnvEnter", "onWrapTaskRun"],
    ["onWrapEnvEnter", "onWrapEnvExit"],
    ["onWrapTaskRun", "onWrapEnvExit"],
  ];
  const only = (hooks: WrapHook[]) => Object.fromEntries(hooks.map((h) => [h, { command: "x" }]));
  it.each<InvalidRow>([
    ...subsets.map((hooks): InvalidRow => [
      `only ${hooks.join(" + ")}`,
      wrapEnv(only(hooks)),
      A,
      new RegExp(`must define all three .*missing ${WRAP_HOOKS.filter((h) => !hooks.includes(h)).join(", ")}$`),
    ]),
    ["a partial set beside onEnter", wrapEnv({ onEnter: { command: "up" }, onWrapTaskRun: { command: "x" } }), A, /must define all three/],
    ["no actions at all", wrapEnv({}), A, /need onEnter, onExit, or the three wrap hooks/],
    ["WRAP_ACTIONS without EXPR", wrapEnv(hookSet(), ["WRAP_ACTIONS"]), "extensions[0]", /'WRAP_ACTIONS' requires extension EXPR/],
    ["WRAP_ACTIONS without EXPR in a job template", jobWith(["WRAP_ACTIONS"], {}), "extensions[0]", /'WRAP_ACTIONS' requires extension EXPR/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it.each(WRAP_HOOKS)("%s without WRAP_ACTIONS is refused where it is written", (hook) => {
    expectError(wrapEnv({ onEnter: { command: "up" }, [hook]: { command: "x" } }, ["EXPR"]), `${A}.${hook}`, /requires extension WRAP_ACTIONS \(add it to 'extensions'\)/);
  });

  it("hooks in a job template need WRAP_ACTIONS declared by the job template itself", () => {
    expectError(
      jobWith(["EXPR"], { jobEnvironments: [{ name: "W", script: { actions: { onEnter: { command: "e" }, onWrapTaskRun: { command: "x" } } } }] }),
      "jobEnvironments[0].script.actions.onWrapTaskRun",
      /requires extension WRAP_ACTIONS/,
    );
  });
});

const SYMBOLS = [
  "WrappedAction.Command",
  "WrappedAction.Args",
  "WrappedAction.Environment",
  "WrappedAction.Timeout",
  "WrappedAction.Cancelation.Mode",
  "WrappedAction.Cancelation.NotifyPeriodInSeconds",
  "WrappedEnv.Name",
  "WrappedStep.Name",
] as const;

function availableIn(symbol: string, hook: WrapHook): boolean {
  if (symbol.startsWith("WrappedEnv.")) return hook !== "onWrapTaskRun";
  if (symbol.startsWith("WrappedStep.")) return hook === "onWrapTaskRun";
  return true;
}

describe("each Wrapped* symbol in each hook", () => {
  const cases = SYMBOLS.flatMap((symbol) => WRAP_HOOKS.map((hook) => ({ symbol, hook, ok: availableIn(symbol, hook) })));
  it.each(cases.filter((c) => c.ok))("$symbol in $hook args and command", ({ symbol, hook }) => {
    expectValid(hooksWith(hook, { command: `run {{ ${symbol} }}`, args: [`{{ ${symbol} }}`] }));
  });
  it.each(cases.filter((c) => !c.ok))("$symbol is refused in $hook", ({ symbol, hook }) => {
    const namespace = symbol.split(".")[0] as string;
    expectError(hooksWith(`${hook}.args`, [`x{{ ${symbol} }}`]), `${A}.${hook}.args[0]`, new RegExp(`unknown name '${symbol}'.*${namespace}\\.\\* only exists in the wrap hook`));
  });
  it.each(cases.filter((c) => !c.ok))("$symbol is refused in $hook timeout (FB1)", ({ symbol, hook }) => {
    expectError(hooksWith(`${hook}.timeout`, `{{ 1 if ${symbol} else 2 }}`, WITH_FB1), `${A}.${hook}.timeout`, new RegExp(`unknown name '${symbol}'`));
  });
});

describe("Wrapped* symbols outside the hooks' own fields", () => {
  const file = (data: string) => ({ embeddedFiles: [{ name: "F", type: "TEXT", data }] });
  const places: Array<[where: string, doc: (expr: string) => Doc, path: string]> = [
    ["onEnter command", (e) => wrapEnv({ ...hookSet(), onEnter: { command: `x{{ ${e} }}` } }), `${A}.onEnter.command`],
    ["onExit args", (e) => wrapEnv({ ...hookSet(), onExit: { command: "x", args: [`{{ ${e} }}`] } }), `${A}.onExit.args[0]`],
    ["an EXPR call in onEnter", (e) => wrapEnv({ ...hookSet(), onEnter: { command: `{{ repr_py(${e}) }}` } }), `${A}.onEnter.command`],
    ["embedded file data", (e) => wrapEnv(hookSet(), WRAP_EXPR, file(`{{ ${e} }}`)), "environment.script.embeddedFiles[0].data"],
    ["a script let", (e) => wrapEnv(hookSet(), WRAP_EXPR, { let: [`v = ${e}`] }), "environment.script.let[0]"],
    ["onEnter cancelation mode (FB1)", (e) => wrapEnv({ ...hookSet(), onEnter: { command: "x", cancelation: { mode: `{{ ${e} }}` } } }, WITH_FB1), `${A}.onEnter.cancelation.mode`],
    ["onExit timeout (FB1)", (e) => wrapEnv({ ...hookSet(), onExit: { command: "x", timeout: `{{ 1 if ${e} else 2 }}` } }, WITH_FB1), `${A}.onExit.timeout`],
    [
      "onEnter notify period (FB1)",
      (e) => wrapEnv({ ...hookSet(), onEnter: { command: "x", cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: `{{ 1 if ${e} else 2 }}` } } }, WITH_FB1),
      `${A}.onEnter.cancelation.notifyPeriodInSeconds`,
    ],
    ["environment variables", (e) => ({ ...wrapEnv(hookSet()), environment: { name: "Wrap", variables: { V: `{{ ${e} }}` }, script: { actions: hookSet() } } }), "environment.variables.V"],
    [
      "a step's onRun",
      (e) => jobWith(WRAP_EXPR, { jobEnvironments: [wrapping("W")], steps: [{ name: "S", script: { actions: { onRun: { command: `x{{ ${e} }}` } } } }] }),
      "steps[0].script.actions.onRun.command",
    ],
  ];
  const rows = places.flatMap(([where, doc, path]) => SYMBOLS.map((symbol) => ({ where, symbol, doc: doc(symbol), path })));
  it.each(rows)("$symbol in $where", ({ symbol, doc, path }) => {
    expectError(doc, path, new RegExp(`unknown name '${symbol}'`));
  });
});

describe("FEATURE_BUNDLE_1 gates format strings in hook timeouts and cancelations", () => {
  it.each<InvalidRow>([
    ["a forwarded timeout", hooksWith("onWrapEnvEnter.timeout", "{{WrappedAction.Timeout}}"), `${A}.onWrapEnvEnter.timeout`, /requires extension FEATURE_BUNDLE_1/],
    [
      "a forwarded mode",
      hooksWith("onWrapTaskRun.cancelation", { mode: "{{WrappedAction.Cancelation.Mode}}" }),
      `${A}.onWrapTaskRun.cancelation.mode`,
      /format string as cancelation mode requires extension FEATURE_BUNDLE_1/,
    ],
    [
      "a forwarded notify period",
      hooksWith("onWrapTaskRun.cancelation", { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: "{{WrappedAction.Cancelation.NotifyPeriodInSeconds}}" }),
      `${A}.onWrapTaskRun.cancelation.notifyPeriodInSeconds`,
      /requires extension FEATURE_BUNDLE_1/,
    ],
    ["a mode that is neither name nor format string", hooksWith("onWrapTaskRun.cancelation", { mode: "KILL" }, WITH_FB1), `${A}.onWrapTaskRun.cancelation.mode`, /TERMINATE/],
    [
      "a literal TERMINATE with a notify period",
      hooksWith("onWrapTaskRun.cancelation", { mode: "TERMINATE", notifyPeriodInSeconds: "{{WrappedAction.Cancelation.NotifyPeriodInSeconds}}" }, WITH_FB1),
      `${A}.onWrapTaskRun.cancelation.notifyPeriodInSeconds`,
      /only applies to mode NOTIFY_THEN_TERMINATE/,
    ],
    ["a literal hook timeout of 0", hooksWith("onWrapTaskRun.timeout", 0), `${A}.onWrapTaskRun.timeout`, /positive/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("one wrapping environment per Session stack (within a job template)", () => {
  const step = (envs: Doc[]) => [{ name: "S", stepEnvironments: envs, script: { actions: { onRun: { command: "x" } } } }];
  it.each<InvalidRow>([
    [
      "two wrapping job environments",
      jobWith(WRAP_EXPR, { jobEnvironments: [wrapping("A"), wrapping("B")] }),
      "jobEnvironments[1]",
      /'A' and 'B' both define wrap hooks; a Session can have at most one/,
    ],
    [
      "a wrapping job environment and step environment",
      jobWith(WRAP_EXPR, { jobEnvironments: [wrapping("A")], steps: step([wrapping("B")]) }),
      "steps[0].stepEnvironments[0]",
      /'A' and 'B' both define wrap hooks \(in the Session of step 'S'\)/,
    ],
    ["two wrapping step environments", jobWith(WRAP_EXPR, { steps: step([wrapping("A"), plain("P"), wrapping("B")]) }), "steps[0].stepEnvironments[2]", /'A' and 'B' both define wrap hooks/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});
