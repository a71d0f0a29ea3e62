import { describe, expect, it } from "vitest";
import { handleLine } from "./output-handler";
import { REDACTION_MASK } from "../../lib/openjd";
import { Redactor, redactedEnvLine } from "./redaction";

const M = REDACTION_MASK;

function redactor(...values: string[]): Redactor {
  const r = new Redactor();
  for (const value of values) r.add(value);
  return r;
}

describe("Redactor.redact", () => {
  it.each([
    [["secret"], "a secret b", `a ${M} b`],
    [["secret"], "no match here", "no match here"],
    [["secret"], "secret", M],
    [["secret"], "secret and secret again: secret", `${M} and ${M} again: ${M}`],
    [["s"], "s", M],
    [["x"], "a very long secret value", "a very long secret value"],
    [["secret"], "secretsecret", M],
    [["abc", "def"], "abcdef", M],
    [["abc", "def"], "abc-def", `${M}-${M}`],
    [["abcd", "cdef"], "xabcdefx", `x${M}x`],
    [["abc", "b"], "abc b", `${M} ${M}`],
    [["b", "abc"], "xabcx", `x${M}x`],
    [["aa"], "aaa", M],
    [["aab", "ab", "b"], "aaab aab ab b", `a${M} ${M} ${M} ${M}`],
    [["bcd", "abcde"], "abcdef", `${M}f`],
    [["bc", "abcdefgh", "fg"], "_abcdefgh_", `_${M}_`],
    [[".*"], "a.*b abc", `a${M}b abc`],
    [["$1"], "cost $1 (not a regex)", `cost ${M} (not a regex)`],
    [["пароль😁"], "это пароль😁!", `это ${M}!`],
    [["actual_secret_value"], "openjd_redacted_env: MY_SECRET=actual_secret_value", `openjd_redacted_env: MY_SECRET=${M}`],
    [["secret_value_xyz"], "LEAK:secret_value_xyz", `LEAK:${M}`],
  ])("%j in %j", (values, line, expected) => {
    expect(redactor(...values).redact(line)).toBe(expected);
  });

  it("masks each line of a multi-line value, wherever it appears", () => {
    const r = redactor("first line\nmiddle\r\nlast\n");
    expect(r.redact("first line")).toBe(M);
    expect(r.redact("middle")).toBe(M);
    expect(r.redact("xx last yy")).toBe(`xx ${M} yy`);
    expect(r.redact("first")).toBe("first");
  });

  it("ignores empty values and keeps working as values are added", () => {
    const r = redactor("", "\n\n");
    expect(r.active).toBe(false);
    expect(r.redact("anything")).toBe("anything");
    r.add("one");
    expect(r.active).toBe(true);
    expect(r.redact("one two")).toBe(`${M} two`);
    r.add("two");
    expect(r.redact("one two three")).toBe(`${M} ${M} three`);
  });

  it("masks values in the middle of 64,000-character lines", () => {
    const r = redactor("needle-1", "needle-2");
    const half = "x".repeat(32_000);
    expect(r.redact(`${half}needle-1${half}`)).toBe(`${half}${M}${half}`);
    const many = Array.from({ length: 4000 }, (_, i) => (i % 2 ? "needle-1" : "needle-2")).join("_");
    expect(r.redact(many)).toBe(Array.from({ length: 4000 }, () => M).join("_"));
  });

  it("stays linear with many values and pathological overlaps", () => {
    const values = Array.from({ length: 1000 }, (_, i) => `${"a".repeat(i % 50)}value-${i}`);
    const r = redactor(...values, "a".repeat(200));
    const line = "a".repeat(63_000) + "value-7" + "b".repeat(1_000);
    const started = performance.now();
    expect(r.redact(line)).toBe(M + "b".repeat(1_000));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("redactedEnvLine", () => {
  it.each([
    ["openjd_redacted_env: SECRETVAR=hunter2", "SECRETVAR", `openjd_redacted_env: SECRETVAR=${M}`],
    ['openjd_redacted_env: "K=a\\nb"', "K", `openjd_redacted_env: K=${M}`],
    ["openjd_redacted_env: nosecret", null, `openjd_redacted_env: ${M}`],
    [`python -c "print('openjd_redacted_env: K=v')"`, null, `python -c "print('openjd_redacted_env: ${M}`],
    ["plain output", "K", "plain output"],
  ])("%j", (line, name, expected) => {
    expect(redactedEnvLine(line, name)).toBe(expected);
  });
});

describe("conformance REDACTED_ENV_VARS: what the log shows", () => {
  // The log lines the Session's output handler emits for `lines`, printed by one action.
  function log(lines: string[], inEnvironmentAction: boolean, r = new Redactor()): string[] {
    const shown: string[] = [];
    const target = { actionId: "a1", inEnvironmentAction, applyChange: () => undefined, redactedSetsVariable: false };
    for (const line of lines) {
      handleLine(line, target, { failMessage: null }, r, (event) => {
        if (event.type === "log") shown.push(event.line);
      });
    }
    return shown;
  }

  it("initial-line-redacted and redaction-without-extension", () => {
    const r = new Redactor();
    expect(log(["openjd_redacted_env: SECRET_VAR=secret_value_xyz"], true, r)).toEqual([`openjd_redacted_env: SECRET_VAR=${M}`]);
    expect(log(["VAR:NOT_SET", "LEAK:secret_value_xyz"], false, r)).toEqual(["VAR:NOT_SET", `LEAK:${M}`]);
  });

  it("multi-line JSON secrets and malformed directives never leak", () => {
    const shown = log(['openjd_redacted_env: "KEY=top\\nsecret"', "top", "a secret b", "openjd_redacted_env: 1BAD=hidden", "hidden", " openjd_redacted_env: K=quiet", "quiet"], true);
    expect(shown.join("\n")).not.toMatch(/top|secret\b|hidden|quiet/);
    expect(shown[0]).toBe(`openjd_redacted_env: KEY=${M}`);
    // No valid name to keep: everything after the token is masked.
    expect(shown[3]).toBe(`openjd_redacted_env: ${M} -- ERROR: Failed to parse environment variable assignment.`);
  });
});
