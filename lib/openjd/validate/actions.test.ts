/**
 * Actions, cancelation, timeouts and embedded files (spec §5, §6; digest §7, §8, §13.3, §18.15–
 * §18.16; catalogue rows 19–35). `args: []` is accepted (the conformance suite expects it; the
 * 2024 reference's refusal is a noted deviation).
 */
import { describe, it } from "vitest";
import { expectError, expectValid, job, withExtensions, withOnRun, withStep, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const A = "steps[0].script.actions.onRun";
const C = `${A}.cancelation`;
const F = "steps[0].script.embeddedFiles";
const fb1 = (doc: Doc) => withExtensions(doc, "FEATURE_BUNDLE_1");
const files = (...list: Doc[]) => job(["steps[0].script.embeddedFiles", list]);
const file = (fields: Doc = {}): Doc => ({ name: "F", type: "TEXT", data: "x", ...fields });

describe("valid actions", () => {
  it.each<ValidRow>([
    ["command with spaces and unicode", withOnRun({ command: "/opt/My App/rénder" })],
    ["empty args list", withOnRun({ args: [] })],
    ["empty arg", withOnRun({ args: [""] })],
    ["timeout 1", withOnRun({ timeout: 1 })],
    ["timeout above 600 (no spec maximum)", withOnRun({ timeout: 86400 })],
    ["timeout int64 max", withOnRun({ timeout: 9223372036854775807n })],
    ["TERMINATE", withOnRun({ cancelation: { mode: "TERMINATE" } })],
    ["NOTIFY_THEN_TERMINATE without a period", withOnRun({ cancelation: { mode: "NOTIFY_THEN_TERMINATE" } })],
    ["notifyPeriodInSeconds 1", withOnRun({ cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 1 } })],
    ["notifyPeriodInSeconds 600", withOnRun({ cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 600 } })],
    ["FEATURE_BUNDLE_1 timeout and period as intstrings", fb1(withOnRun({ timeout: "30", cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: "600" } }))],
    ["FEATURE_BUNDLE_1 timeout from RawParam of a PATH parameter (template scope)", { ...fb1(withOnRun({ timeout: "{{RawParam.P}}" })), parameterDefinitions: [{ name: "P", type: "PATH" }] }],
    ["embedded file with every field", files(file({ filename: "run.sh", runnable: true, data: "#!/bin/sh\necho {{Task.File.F}}\n" }))],
    ["embedded file filename of 64 characters", files(file({ filename: "f".repeat(64) }))],
    ["embedded files referring to each other", files(file({ name: "A", data: "{{Task.File.B}}" }), file({ name: "B", data: "{{Task.File.A}}" }))],
    [
      "embedded file data using Task, Session and Param values",
      {
        ...withStep({
          parameterSpace: { taskParameterDefinitions: [{ name: "T", type: "INT", range: [1] }] },
          script: {
            actions: { onRun: { command: "{{Task.File.F}}" } },
            embeddedFiles: [file({ data: "{{Task.Param.T}} {{Task.RawParam.T}} {{Session.WorkingDirectory}} {{Param.P}}" })],
          },
        }),
        parameterDefinitions: [{ name: "P", type: "PATH" }],
      },
    ],
    ["FEATURE_BUNDLE_1 filename of 256 characters and endOfLine CRLF", fb1(files(file({ filename: "f".repeat(256), endOfLine: "CRLF" })))],
  ])("%s", (_name, doc) => expectValid(doc));
});

describe("actions", () => {
  it.each<InvalidRow>([
    ["missing command", job([`${A}`, { args: ["x"] }]), `${A}.command`, /missing required field 'command'/],
    ["empty command", withOnRun({ command: "" }), `${A}.command`, /must not be empty/],
    ["command that is a number", withOnRun({ command: 5 }), `${A}.command`, /expected a string/],
    ["command with a newline", withOnRun({ command: "a\nb" }), `${A}.command`, /control characters/],
    ["command with a tab", withOnRun({ command: "a\tb" }), `${A}.command`, /control characters/],
    ["command with a C1 control character (U+0085)", withOnRun({ command: "a\u0085b" }), `${A}.command`, /control characters/],
    ["unknown key in an action", withOnRun({ env: {} }), `${A}.env`, /unknown field 'env'/],
    ["args that is a string", withOnRun({ args: "x" }), `${A}.args`, /expected a list/],
    ["arg that is a number", withOnRun({ args: ["a", 1] }), `${A}.args[1]`, /expected a string/],
    ["arg with a BEL control character", withOnRun({ args: ["a\u0007b"] }), `${A}.args[0]`, /control characters/],
    ["timeout 0", withOnRun({ timeout: 0 }), `${A}.timeout`, /positive/],
    ["timeout -1", withOnRun({ timeout: -1 }), `${A}.timeout`, /positive/],
    ["timeout 1.5", withOnRun({ timeout: 1.5 }), `${A}.timeout`, /expected an integer/],
    ["timeout true", withOnRun({ timeout: true }), `${A}.timeout`, /expected an integer/],
    ["timeout int64 max + 1", withOnRun({ timeout: 9223372036854775808n }), `${A}.timeout`, /64-bit/],
    ["timeout as a string without FEATURE_BUNDLE_1", withOnRun({ timeout: "10" }), `${A}.timeout`, /requires extension FEATURE_BUNDLE_1/],
    ["FEATURE_BUNDLE_1 timeout '0'", fb1(withOnRun({ timeout: "0" })), `${A}.timeout`, /positive/],
    ["FEATURE_BUNDLE_1 timeout '1.5'", fb1(withOnRun({ timeout: "1.5" })), `${A}.timeout`, /not an integer/],
    ["FEATURE_BUNDLE_1 timeout from Task.Param", fb1(withOnRun({ timeout: "{{Task.Param.X}}" })), `${A}.timeout`, /Task\.Param\.X does not exist/],
    [
      "FEATURE_BUNDLE_1 timeout from Param of a PATH parameter",
      { ...fb1(withOnRun({ timeout: "{{Param.P}}" })), parameterDefinitions: [{ name: "P", type: "PATH" }] },
      `${A}.timeout`,
      /use RawParam\.P/,
    ],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("cancelation", () => {
  const notify = (notifyPeriodInSeconds: unknown) => withOnRun({ cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds } });
  it.each<InvalidRow>([
    ["missing mode", withOnRun({ cancelation: {} }), `${C}.mode`, /missing required field 'mode'/],
    ["mode is case-sensitive", withOnRun({ cancelation: { mode: "terminate" } }), `${C}.mode`, /not one of TERMINATE, NOTIFY_THEN_TERMINATE/],
    ["unknown mode", withOnRun({ cancelation: { mode: "KILL" } }), `${C}.mode`, /not one of/],
    ["notifyPeriodInSeconds with TERMINATE", withOnRun({ cancelation: { mode: "TERMINATE", notifyPeriodInSeconds: 5 } }), `${C}.notifyPeriodInSeconds`, /only applies to mode NOTIFY_THEN_TERMINATE/],
    ["notifyPeriodInSeconds 0", notify(0), `${C}.notifyPeriodInSeconds`, /between 1 and 600/],
    ["notifyPeriodInSeconds 601", notify(601), `${C}.notifyPeriodInSeconds`, /between 1 and 600/],
    ["notifyPeriodInSeconds 1.5", notify(1.5), `${C}.notifyPeriodInSeconds`, /expected an integer/],
    ["notifyPeriodInSeconds as a string without FEATURE_BUNDLE_1", notify("30"), `${C}.notifyPeriodInSeconds`, /requires extension FEATURE_BUNDLE_1/],
    ["FEATURE_BUNDLE_1 notifyPeriodInSeconds '601'", fb1(notify("601")), `${C}.notifyPeriodInSeconds`, /between 1 and 600/],
    ["unknown key in cancelation", withOnRun({ cancelation: { mode: "TERMINATE", signal: "INT" } }), `${C}.signal`, /unknown field/],
    ["cancelation that is a string", withOnRun({ cancelation: "TERMINATE" }), C, /expected a mapping/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("embedded files", () => {
  it.each<InvalidRow>([
    ["empty embeddedFiles", files(), F, /must not be empty/],
    ["missing name", files({ type: "TEXT", data: "x" }), `${F}[0].name`, /missing required field 'name'/],
    ["missing type", files({ name: "F", data: "x" }), `${F}[0].type`, /missing required field 'type'/],
    ["missing data", files({ name: "F", type: "TEXT" }), `${F}[0].data`, /missing required field 'data'/],
    ["empty data", files(file({ data: "" })), `${F}[0].data`, /must not be empty/],
    ["type is case-sensitive", files(file({ type: "text" })), `${F}[0].type`, /not one of TEXT/],
    ["type BINARY", files(file({ type: "BINARY" })), `${F}[0].type`, /not one of TEXT/],
    ["name starting with a digit", files(file({ name: "1F" })), `${F}[0].name`, /must start with a letter/],
    ["name of 65 characters", files(file({ name: "F".repeat(65) })), `${F}[0].name`, /at most 64/],
    ["duplicate names", files(file(), file()), `${F}[1].name`, /duplicate embedded file name 'F'/],
    ["filename of 65 characters", files(file({ filename: "f".repeat(65) })), `${F}[0].filename`, /at most 64/],
    ["empty filename", files(file({ filename: "" })), `${F}[0].filename`, /must not be empty/],
    ["filename with '/'", files(file({ filename: "dir/a.sh" })), `${F}[0].filename`, /plain file name/],
    ["filename with '\\'", files(file({ filename: "dir\\a.bat" })), `${F}[0].filename`, /plain file name/],
    ["filename '..'", files(file({ filename: ".." })), `${F}[0].filename`, /plain file name/],
    ["filename is literal (a format string is just text, so '/' still counts)", files(file({ filename: "{{Param.X}}/a" })), `${F}[0].filename`, /plain file name/],
    ["runnable 'true' (a string)", files(file({ runnable: "true" })), `${F}[0].runnable`, /expected true or false/],
    ["runnable 1", files(file({ runnable: 1 })), `${F}[0].runnable`, /expected true or false/],
    ["unknown key", files(file({ mode: "0644" })), `${F}[0].mode`, /unknown field 'mode'/],
    ["endOfLine without FEATURE_BUNDLE_1", files(file({ endOfLine: "LF" })), `${F}[0].endOfLine`, /requires extension FEATURE_BUNDLE_1/],
    ["FEATURE_BUNDLE_1 endOfLine is case-sensitive", fb1(files(file({ endOfLine: "lf" }))), `${F}[0].endOfLine`, /not one of AUTO, LF, CRLF/],
    ["FEATURE_BUNDLE_1 filename of 257 characters", fb1(files(file({ filename: "f".repeat(257) }))), `${F}[0].filename`, /at most 256/],
    ["data referring to an undefined file", files(file({ data: "{{Task.File.G}}" })), `${F}[0].data`, /Task\.File\.G does not exist/],
    ["data using Env.File in a step", files(file({ data: "{{Env.File.F}}" })), `${F}[0].data`, /Env\.File\.F does not exist/],
    ["data with a stray '}}' (shell ${a}})", files(file({ data: "echo ${a}}" })), `${F}[0].data`, /'}}' without a matching '{{'/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it("runnable: yes is a string in YAML 1.2, not a boolean", () => {
    const text = `specificationVersion: jobtemplate-2023-09
name: J
steps:
- name: S
  script:
    actions: {onRun: {command: echo}}
    embeddedFiles:
    - {name: F, type: TEXT, data: x, runnable: yes}
`;
    expectError(text, `${F}[0].runnable`, /expected true or false, got a string/);
  });
});
