/**
 * Parameter spaces at job creation (spec §3.4, TASK_CHUNKING; digest §5.2, §11, §13.1): range
 * format strings are resolved and re-parsed, limits re-checked, INT items normalized; the
 * combination decides count and order; chunked steps lay out balanced chunks.
 */
import { describe, expect, it } from "vitest";
import type { Job } from "./types";
import { createErrors, createOk } from "./job-test-support";

function template(space: string, extensions = ""): string {
  return `specificationVersion: jobtemplate-2023-09
${extensions ? `extensions: [${extensions}]\n` : ""}name: J
parameterDefinitions:
- name: R
  type: STRING
  default: "1"
- name: I
  type: INT
  default: 2
steps:
- name: S
  parameterSpace:
${space}
  script:
    actions:
      onRun:
        command: echo
`;
}

const one = (type: string, range: string, extra = "") => `    taskParameterDefinitions:\n    - name: F\n      type: ${type}\n      range: ${range}\n${extra}`;
/** Every dispatched unit of the only step as `value/value/...` in parameter-name order. */
const units = (job: Job) => {
  const space = job.steps[0]!.parameterSpace;
  return [...space].map((set) => space.names.map((n) => set[n]?.value).join("/"));
};
const rangeError = (suffix = "") => `template steps[0].parameterSpace.taskParameterDefinitions[0].range${suffix}: `;

describe("task parameter ranges from format strings", () => {
  it.each([
    ["1-5", ["1", "2", "3", "4", "5"]],
    ["10-15:2,1-3", ["1", "2", "3", "10", "12", "14"]],
    [" -1 - 1 ", ["-1", "0", "1"]],
    ["5", ["5"]],
    ["1-1024", Array.from({ length: 1024 }, (_, i) => String(i + 1))],
  ])("a range expression %j is re-parsed", (r, expected) => {
    expect(units(createOk({ template: template(one("INT", '"{{Param.R}}"')), parameterValues: { R: r } }))).toEqual(expected);
  });

  it.each([
    ["1-1025", "the range has 1025 values; a task parameter may have at most 1024"],
    ["1-10:4,10-15", "'1-10:4,10-15' is not a valid range expression"],
    ["", "'' is not a valid range expression"],
    ["1-5:0", "'1-5:0' is not a valid range expression"],
    ["a-b", "'a-b' is not a valid range expression"],
    ["1-9223372036854775808", "'1-9223372036854775808' is not a valid range expression: 9223372036854775808 at offset 2 is outside the 64-bit integer range"],
  ])("a range expression %j is refused", (r, message) => {
    expect(createErrors({ template: template(one("INT", '"{{Param.R}}"')), parameterValues: { R: r } })).toEqual([expect.stringContaining(rangeError() + message)]);
  });

  it("normalizes INT list items written as intstrings or resolved from format strings", () => {
    const job = createOk({ template: template(one("INT", `['1', '02', "{{Param.R}}", 4, "-{{Param.I}}"]`)), parameterValues: { R: "003" } });
    expect(units(job)).toEqual(["1", "2", "3", "4", "-2"]);
  });

  it.each([
    ["INT", "1.5", "'1.5' is not an integer"],
    ["INT", "9223372036854775808", "9223372036854775808 is outside the 64-bit integer range"],
    ["FLOAT", "fast", "'fast' is not a number"],
    ["FLOAT", "inf", "'inf' is not a number"],
    ["STRING", "", "task parameter values must not be empty"],
    ["PATH", "", "task parameter values must not be empty"],
  ])("a %s list item resolving to %j is refused", (type, r, message) => {
    expect(createErrors({ template: template(one(type, `[ok1, "{{Param.R}}"]`.replace("ok1", type === "FLOAT" ? "1.5" : type === "INT" ? "1" : "ok"))), parameterValues: { R: r } })).toEqual([
      expect.stringContaining(rangeError("[1]") + message),
    ]);
  });

  it("task STRING values are limited to 1024 characters after resolution", () => {
    const input = (n: number) => ({ template: template(one("STRING", '["{{Param.R}}{{Param.R}}"]')), parameterValues: { R: "x".repeat(n) } });
    expect(units(createOk(input(512)))).toEqual(["x".repeat(1024)]);
    expect(createErrors(input(513))).toEqual([rangeError("[0]") + "the value is 1026 characters long; at most 1024 are allowed"]);
  });

  it("FLOAT and STRING items keep the text they resolve to", () => {
    expect(units(createOk({ template: template(one("FLOAT", '["{{Param.R}}", 2, 0.50]')), parameterValues: { R: "1.250" } }))).toEqual(["1.250", "2", "0.50"]);
    expect(units(createOk({ template: template(one("STRING", '["{{Param.R}} shot", "{{Param.I}}"]')), parameterValues: { R: "a" } }))).toEqual(["a shot", "2"]);
  });

  it("reports every bad item of every parameter at once", () => {
    const space = one("INT", '["{{Param.R}}", "{{Param.R}}"]') + `    - name: G\n      type: INT\n      range: "{{Param.R}}"\n`;
    expect(createErrors({ template: template(space), parameterValues: { R: "x" } })).toHaveLength(3);
  });
});

describe("parameter spaces", () => {
  const abc = (combination: string, b = "[10, 11, 12]") => `    taskParameterDefinitions:
    - name: A
      type: INT
      range: "1-2"
    - name: B
      type: INT
      range: ${b}
    - name: C
      type: STRING
      range: [x, y, z]
    combination: "${combination}"`;

  it.each([
    ["A * (B, C)", ["1/10/x", "1/11/y", "1/12/z", "2/10/x", "2/11/y", "2/12/z"]],
    ["(B, C) * A", ["1/10/x", "2/10/x", "1/11/y", "2/11/y", "1/12/z", "2/12/z"]],
    ["A * B * C", 18],
    ["C * B * A", 18],
  ])("%s", (combination, expected) => {
    const job = createOk({ template: template(abc(combination)) });
    const got = units(job);
    if (typeof expected === "number") {
      expect(got).toHaveLength(expected);
      expect(job.steps[0]?.parameterSpace.taskCount).toBe(expected);
    } else expect(got).toEqual(expected);
    expect(job.steps[0]?.taskParameters).toEqual([
      { name: "A", type: "INT", valueCount: 2 },
      { name: "B", type: "INT", valueCount: 3 },
      { name: "C", type: "STRING", valueCount: 3 },
    ]);
  });

  it("without a combination the parameters multiply in definition order", () => {
    expect(units(createOk({ template: template(abc("A * (B, C)").replace(/\n {4}combination:.*$/, "")) })).slice(0, 4)).toEqual(["1/10/x", "1/10/y", "1/10/z", "1/11/x"]);
  });

  it("a step without a parameter space has exactly one task", () => {
    const job = createOk({ template: template("").replace("  parameterSpace:\n\n", "") });
    expect([job.steps[0]?.parameterSpace.count, job.steps[0]?.parameterSpace.taskCount]).toEqual([1, 1]);
  });

  it.each([
    ["a range resolving to another length", abc("A * (B, C)", '"{{Param.R}}"'), { R: "1-4" }, "association (B, C) has members of lengths 4 and 3"],
    ["a list with a format string resolving differently", abc("A * (B, C)", '["{{Param.R}}"]'), { R: "7" }, "association (B, C) has members of lengths 1 and 3"],
    ["a nested product", abc("(A, B * C)"), {}, "association"],
  ])("an association length mismatch is refused at creation: %s", (_, space, values, message) => {
    expect(createErrors({ template: template(space), parameterValues: values })).toEqual([expect.stringContaining(`template steps[0].parameterSpace.combination: ${message}`)]);
  });
});

describe("TASK_CHUNKING", () => {
  const chunked = (range: string, count: string, constraint: string, target = "") =>
    one("CHUNK[INT]", `"${range}"`, `      chunks:\n        defaultTaskCount: ${count}\n        rangeConstraint: ${constraint}\n${target}`);
  const create = (space: string, values: Record<string, string | number> = {}) => createOk({ template: template(space, "TASK_CHUNKING"), parameterValues: values });

  it.each([
    ["1-12", "5", "CONTIGUOUS", ["1-4", "5-8", "9-12"]],
    ["1-8", "3", "CONTIGUOUS", ["1-3", "4-6", "7-8"]],
    ["1-8", "3", "NONCONTIGUOUS", ["1-3", "4-6", "7,8"]],
    ["1-5", "100", "CONTIGUOUS", ["1-5"]],
    ["5", "1", "CONTIGUOUS", ["5-5"]],
    ["1,10-12,18-20", "10", "CONTIGUOUS", ["1-1", "10-12", "18-20"]],
    ["1,10-12,18-20", "10", "NONCONTIGUOUS", ["1,10-12,18-20"]],
  ])("%s by %s %s → %j", (range, count, constraint, expected) => {
    const job = create(chunked(range, count, constraint));
    expect(units(job)).toEqual(expected);
    expect(job.steps[0]?.parameterSpace.count).toBe(expected.length);
  });

  it("counts tasks and chunks apart and keeps the chunk settings", () => {
    const job = create(chunked("1-12", '"{{Param.I}}"', "CONTIGUOUS", `        targetRuntimeSeconds: "{{Param.R}}"\n`), { I: 5, R: "00" });
    expect([job.steps[0]?.parameterSpace.taskCount, job.steps[0]?.parameterSpace.count]).toEqual([12, 3]);
    expect(job.steps[0]?.chunking).toEqual({ parameter: "F", defaultTaskCount: 5, targetRuntimeSeconds: 0, rangeConstraint: "CONTIGUOUS" });
  });

  it("a chunked parameter multiplies with the others", () => {
    const space = chunked("1-4", "2", "CONTIGUOUS") + `    - name: Cam\n      type: STRING\n      range: [L, R]\n`;
    expect(units(create(space))).toEqual(["1-2/L", "1-2/R", "3-4/L", "3-4/R"]);
  });

  const chunkError = "template steps[0].parameterSpace.taskParameterDefinitions[0].chunks.";
  it.each([
    ['"{{Param.I}}"', "", { I: 0 }, `${chunkError}defaultTaskCount: defaultTaskCount resolved to 0; it must be at least 1`],
    ['"{{Param.R}}"', "", { R: "three" }, `${chunkError}defaultTaskCount: '{{Param.R}}' resolved to 'three' is not an integer`],
    ["2", `        targetRuntimeSeconds: "{{Param.R}}"\n`, { R: "-1" }, `${chunkError}targetRuntimeSeconds: targetRuntimeSeconds resolved to -1; it must be zero or greater`],
    ["2", `        targetRuntimeSeconds: "{{Param.R}}"\n`, { R: "1.5" }, `${chunkError}targetRuntimeSeconds: '{{Param.R}}' resolved to '1.5' is not an integer`],
  ])("refuses defaultTaskCount %s / target %j with %j", (count, target, values, expected) => {
    expect(createErrors({ template: template(chunked("1-8", count, "CONTIGUOUS", target), "TASK_CHUNKING"), parameterValues: values })).toEqual([expected]);
  });

  it("refuses a CHUNK[INT] list that repeats a value (it would count tasks that never run)", () => {
    const space = one("CHUNK[INT]", '[3, 1, "{{Param.R}}", 2]', "      chunks:\n        defaultTaskCount: 2\n        rangeConstraint: CONTIGUOUS\n");
    expect(createErrors({ template: template(space, "TASK_CHUNKING"), parameterValues: { R: "01" } })).toEqual([
      "template steps[0].parameterSpace.taskParameterDefinitions[0].range[2]: 1 appears more than once; CHUNK[INT] values must be distinct",
    ]);
  });

  it.each([
    ["00", 0],
    ["0", 0],
    ["3600", 3600],
    ["007", 7],
  ])("targetRuntimeSeconds %j resolves to %d", (r, expected) => {
    const job = create(chunked("1-8", "2", "CONTIGUOUS", `        targetRuntimeSeconds: "{{Param.R}}"\n`), { R: r });
    expect(job.steps[0]?.chunking?.targetRuntimeSeconds).toBe(expected);
  });
});
