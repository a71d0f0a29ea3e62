import { describe, expect, it } from "vitest";
import { parseOutputLine, type OpenjdMessage } from "./stdout-messages";

const ENV = { inEnvironmentAction: true };
const TASK = { inEnvironmentAction: false };
const ASSIGNMENT = " -- ERROR: Failed to parse environment variable assignment.";
const NAME = " -- ERROR: Failed to parse environment variable name.";
const PROGRESS = " -- ERROR: Progress must be a floating point value between 0.0 and 100.0, inclusive.";
const unterminated = (at: number) => ` -- ERROR: Unterminated string starting at: line 1 column ${at + 1} (char ${at})`;

describe("recognised messages (reference behaviour §3.5, §3.11 rows 5–9, 14–15)", () => {
  const cases: Array<[string, OpenjdMessage]> = [
    ["openjd_progress: 50", { kind: "progress", value: 50 }],
    ["openjd_progress: 50.0", { kind: "progress", value: 50 }],
    ["openjd_progress:  7", { kind: "progress", value: 7 }],
    ["openjd_progress: 7 \t", { kind: "progress", value: 7 }],
    ["openjd_progress: 5_0", { kind: "progress", value: 50 }],
    ["openjd_progress: 1_0.2_5", { kind: "progress", value: 10.25 }],
    ["openjd_progress: 1e1", { kind: "progress", value: 10 }],
    ["openjd_progress: +.5e-1", { kind: "progress", value: 0.05 }],
    ["openjd_progress: 5.", { kind: "progress", value: 5 }],
    ["openjd_progress: 0", { kind: "progress", value: 0 }],
    ["openjd_progress: -0", { kind: "progress", value: 0 }],
    ["openjd_progress: 100.0", { kind: "progress", value: 100 }],
    ["openjd_progress: 1e-400", { kind: "progress", value: 0 }],
    ["openjd_progress: \u0665\u0660", { kind: "progress", value: 50 }],
    ["openjd_progress: \u{1D7D3}\u{1D7D8}", { kind: "progress", value: 50 }],
    ["openjd_progress: \u00a042\u3000", { kind: "progress", value: 42 }],
    ["openjd_status: a status string", { kind: "status", message: "a status string" }],
    ["openjd_status:  two spaces", { kind: "status", message: " two spaces" }],
    ["openjd_status: a: b", { kind: "status", message: "a: b" }],
    ["openjd_fail: nope", { kind: "fail", message: "nope" }],
    ["openjd_env: foo=bar", { kind: "env", name: "foo", value: "bar" }],
    ["openjd_env: F_F_12=bar", { kind: "env", name: "F_F_12", value: "bar" }],
    ["openjd_env: _x=a=b", { kind: "env", name: "_x", value: "a=b" }],
    ["openjd_env: foo=", { kind: "env", name: "foo", value: "" }],
    ["openjd_env: foo= ", { kind: "env", name: "foo", value: " " }],
    ["openjd_env:  \t foo=bar", { kind: "env", name: "foo", value: "bar" }],
    ['openjd_env: FOO="bar"', { kind: "env", name: "FOO", value: '"bar"' }],
    ['openjd_env: "FOO=12\\n34"', { kind: "env", name: "FOO", value: "12\n34" }],
    ['openjd_env: "FOO="', { kind: "env", name: "FOO", value: "" }],
    ['openjd_env: "FOO=\\u00e9\\/\\"\\t" \t', { kind: "env", name: "FOO", value: 'é/"\t' }],
    ['openjd_env: "FOO=\\ud83d\\ude01"', { kind: "env", name: "FOO", value: "😁" }],
    ["openjd_unset_env: foo", { kind: "unset_env", name: "foo" }],
    ["openjd_unset_env:  \t F_F_12", { kind: "unset_env", name: "F_F_12" }],
    ["openjd_redacted_env: PASSWORD=secret123", { kind: "redacted_env", name: "PASSWORD", value: "secret123" }],
    ["openjd_session_runtime_loglevel: DEBUG", { kind: "loglevel", level: "DEBUG" }],
    ["openjd_session_runtime_loglevel: info", { kind: "loglevel", level: "INFO" }],
    ["openjd_session_runtime_loglevel:  Warning ", { kind: "loglevel", level: "WARNING" }],
    ["openjd_session_runtime_loglevel: ERROR", { kind: "loglevel", level: "ERROR" }],
  ];
  it.each(cases)("%j", (line, message) => {
    for (const context of [ENV, TASK]) {
      const parsed = parseOutputLine(line, context);
      expect(parsed.message).toEqual(message);
      expect(parsed.annotation).toBeNull();
      expect(parsed.fatal).toBeNull();
    }
  });
});

describe("plain output (not messages, not fatal)", () => {
  it.each([
    "hello",
    "",
    "openjd_status: ",
    "openjd_progress:",
    "openjd_progress:50",
    "OPENJD_PROGRESS: 50",
    " openjd_progress: 50",
    "x openjd_progress: 50",
    "OPENJD_FAIL: x",
    " openjd_status: x",
    "openjd_fail:x",
    "openjd_foo: bar",
    "openjd_environment: x",
    "openjd_environment_ready",
    "openjd_envoy started",
    "OPENJD_ENVIRONMENT=prod",
  ])("%j", (line) => {
    expect(parseOutputLine(line, ENV)).toEqual({ message: null, annotation: null, fatal: null, redact: [] });
  });
});

describe("rejected values: annotated, never fatal", () => {
  it.each([
    ["openjd_progress: 150", PROGRESS],
    ["openjd_progress: 100.1", PROGRESS],
    ["openjd_progress: -0.01", PROGRESS],
    ["openjd_progress: nan", PROGRESS],
    ["openjd_progress: inf", PROGRESS],
    ["openjd_progress: 1e400", PROGRESS],
    ["openjd_progress: fifty", PROGRESS],
    ["openjd_progress: 5__0", PROGRESS],
    ["openjd_progress: _5", PROGRESS],
    ["openjd_progress: 5_", PROGRESS],
    ["openjd_progress: 5._0", PROGRESS],
    ["openjd_progress: 0x10", PROGRESS],
    ["openjd_progress: 1e", PROGRESS],
    ["openjd_progress: .", PROGRESS],
    ["openjd_progress: 5 0", PROGRESS],
    ["openjd_progress: \x1c5", PROGRESS],
    ["openjd_progress: \ufeff5", PROGRESS],
    ["openjd_session_runtime_loglevel: verbose", " -- ERROR: Unknown log level: VERBOSE. Known values: DEBUG,INFO,WARNING,ERROR"],
    ['openjd_env: "FOO=12', unterminated(0)],
    ['openjd_env: "FOO=\\', unterminated(0)],
    ['openjd_env: "FOO=\\"', unterminated(0)],
    ['openjd_env: "FOO=1"x', unterminated(7)],
    ['openjd_env: "FOO=""', unterminated(6)],
    ['openjd_env: "FOO=1"\x0b', unterminated(7)],
    ['openjd_env: "FOO=a\tb"', unterminated(6)],
    ['openjd_env: "FOO=\\q"', unterminated(5)],
    ['openjd_env: "FOO=\\u12"', unterminated(6)],
    ['openjd_env: "FOO=\\u0041', unterminated(6)],
    ['openjd_env: "FOO=\\ud800\\uZZ12"', unterminated(12)],
  ])("%j", (line, annotation) => {
    for (const context of [ENV, TASK]) {
      expect(parseOutputLine(line, context)).toEqual({ message: null, annotation, fatal: null, redact: [] });
    }
  });
});

describe("malformed env directives: fatal only inside environment actions (rows 16, 20)", () => {
  it.each([
    ["openjd_env: FOO", ASSIGNMENT],
    ["openjd_env: foo =value", ASSIGNMENT],
    ["openjd_env: 1F_F_12=bar", ASSIGNMENT],
    ["openjd_env: F😁=x", ASSIGNMENT],
    ["openjd_env: =x", ASSIGNMENT],
    ['openjd_env: "F\\u0041=x"', ASSIGNMENT],
    ["openjd_unset_env: foo=bar", NAME],
    ["openjd_unset_env: 1F", NAME],
    ["openjd_unset_env: F😁", NAME],
    ["openjd_unset_env: FOO ", NAME],
  ])("%j", (line, annotation) => {
    const failMessage = annotation.slice(" -- ERROR: ".length);
    expect(parseOutputLine(line, ENV)).toEqual({ message: null, annotation, fatal: { failMessage }, redact: [] });
    expect(parseOutputLine(line, TASK)).toEqual({ message: null, annotation, fatal: null, redact: [] });
  });
});

describe("near-misses of env directives: fatal in every action (row 19)", () => {
  it.each([
    ["OPENJD_ENV: x=1", []],
    [" openjd_env: x=1", []],
    ["openjd_env:x=1", []],
    ["\topenjd_unset_env: foo", []],
    ["openjd_unset_env:foo", []],
    ["OPENJD_UNSET_ENV: foo", []],
    ["openjd_env: ", []],
    ["openjd_env", []],
    ["openjd_env =x", []],
    ["Openjd_Redacted_Env: KEY=hunter2", ["hunter2"]],
    ["openjd_redacted_env:hunter2", ["hunter2"]],
  ])("%j", (line, redact) => {
    const failMessage = `Open Job Description: Incorrectly formatted openjd env command (${line})`;
    for (const context of [ENV, TASK]) {
      expect(parseOutputLine(line, context)).toEqual({ message: null, annotation: ` -- ERROR: ${failMessage}`, fatal: { failMessage }, redact });
    }
  });
});

describe("openjd_redacted_env: what to redact", () => {
  it.each([
    ["openjd_redacted_env: MY_SECRET=actual_secret_value", ["actual_secret_value"]],
    ["openjd_redacted_env:   K=x", ["x"]],
    ["openjd_redacted_env: K=", []],
    ['openjd_redacted_env: "K=line1\\nline2"', ["line1\nline2", 'line1\\nline2"']],
  ])("well-formed %j", (line, redact) => {
    const parsed = parseOutputLine(line, TASK);
    expect(parsed.message?.kind).toBe("redacted_env");
    expect(parsed.redact).toEqual(redact);
    expect(parsed.fatal).toBeNull();
  });

  it.each([
    ["openjd_redacted_env: nosecret", ["nosecret"], ASSIGNMENT],
    ["openjd_redacted_env: 1BAD=topsecret", ["topsecret"], ASSIGNMENT],
    ['openjd_redacted_env: "K=unterminated', ["unterminated"], unterminated(0)],
  ])("malformed %j still redacts", (line, redact, annotation) => {
    const parsed = parseOutputLine(line, ENV);
    expect(parsed.message).toBeNull();
    expect(parsed.redact).toEqual(redact);
    expect(parsed.annotation).toBe(annotation);
    expect(parsed.fatal).toEqual(annotation === ASSIGNMENT ? { failMessage: ASSIGNMENT.slice(11) } : null);
  });
});

describe("robustness", () => {
  it("parses 64,000-character lines of padding quickly", () => {
    const started = performance.now();
    for (const line of [
      `openjd_progress: ${" ".repeat(64_000)}x`,
      `openjd_session_runtime_loglevel: ${" ".repeat(64_000)}x`,
      `openjd_env: ${" ".repeat(64_000)}`,
      `openjd_env: A${"1".repeat(64_000)}`,
      `openjd_progress: ${"1".repeat(64_000)}x`,
    ]) {
      expect(parseOutputLine(line, ENV).message).toBeNull();
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
