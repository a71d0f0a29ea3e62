/** Which hook fields wait for the worker (they use `Wrapped*` values), and which environments wrap. */
import { describe, expect, it } from "vitest";
import { scanExprFormatString } from "./expr/format-string-expr";
import { parseFormatString, type FormatString } from "./format-string";
import type { Environment } from "./model";
import { toFormatSegment } from "./validate/format-fields";
import { dependsOnWrappedValues, isWrappingEnvironment } from "./wrap-stack";

function exprFormat(raw: string): FormatString {
  const scanned = scanExprFormatString(raw);
  if (!scanned.ok) throw new Error(scanned.message);
  return { raw, segments: scanned.segments.map(toFormatSegment) };
}

describe("dependsOnWrappedValues", () => {
  it.each([
    ["{{WrappedAction.Timeout}}", true],
    ["{{ (WrappedAction.Timeout or 60) * 2 }}", true],
    ["{{ 30 if WrappedStep.Name == 'A' else 60 }}", true],
    ["{{ len([e for e in WrappedAction.Environment if e]) }}", true],
    ["{{ WrappedEnv.Name.upper() }}", true],
    ["{{ repr_sh(WrappedAction.Args[1:]) }}", true],
    ["{{Param.T}}", false],
    ["{{ Param.T * 2 }}", false],
    ["{{ 'WrappedAction.Timeout' }}", false],
    ["60", false],
  ])("%s → %s", (raw, expected) => {
    expect(dependsOnWrappedValues(exprFormat(raw))).toBe(expected);
  });

  it("base format strings: by reference", () => {
    const parse = (raw: string) => {
      const parsed = parseFormatString(raw);
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.value;
    };
    expect(dependsOnWrappedValues(parse("{{WrappedAction.Timeout}}"))).toBe(true);
    expect(dependsOnWrappedValues(parse("{{Param.T}}"))).toBe(false);
  });
});

describe("isWrappingEnvironment", () => {
  const action = { command: { raw: "x", segments: [{ kind: "literal" as const, text: "x" }] }, path: [] };
  it.each<[string, Environment, boolean]>([
    ["hooks", { name: "W", path: [], script: { embeddedFiles: [], actions: { onWrapEnvEnter: action, onWrapTaskRun: action, onWrapEnvExit: action } } }, true],
    ["onEnter/onExit only", { name: "E", path: [], script: { embeddedFiles: [], actions: { onEnter: action, onExit: action } } }, false],
    ["variables only", { name: "V", path: [], variables: [] }, false],
  ])("%s → %s", (_name, env, expected) => {
    expect(isWrappingEnvironment(env)).toBe(expected);
  });
});
