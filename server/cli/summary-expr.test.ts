/** `loom summary` with the EXPR parameter types: readable values in text, canonical text in JSON. */
import { afterAll, describe, expect, it } from "vitest";
import type { ParameterValue } from "../../lib/openjd";
import { runCli, tempTree } from "./cli-test-support";
import { displayParameterValue } from "./summary-model";

const EXPR_JOB = `specificationVersion: jobtemplate-2023-09
extensions: [EXPR]
name: Shots
parameterDefinitions:
- name: UseGpu
  type: bool
  default: "yes"
- name: Frames
  type: RANGE_EXPR
  default: "10-1:-1"
- name: Cameras
  type: list[string]
  default: [main, "close, up"]
- name: Scales
  type: LIST[FLOAT]
  default: [0.5, 2.0]
- name: Pairs
  type: LIST[LIST[INT]]
  default: [[1, 2], []]
- name: Plates
  type: LIST[PATH]
  default: [plates/a.exr]
steps:
- name: Render
  script:
    actions:
      onRun:
        command: echo
`;

const tree = tempTree({ "expr.yaml": EXPR_JOB });
afterAll(tree.remove);

describe("displayParameterValue", () => {
  it.each<[ParameterValue, string]>([
    [{ type: "BOOL", value: "true" }, "true"],
    [{ type: "RANGE_EXPR", value: "1-10,20" }, "1-10,20 (11 values)"],
    [{ type: "RANGE_EXPR", value: "7" }, "7 (1 value)"],
    [{ type: "LIST[STRING]", value: '["a","b, c"]' }, '["a", "b, c"] (2 items)'],
    [{ type: "LIST[PATH]", value: '["/a"]' }, '["/a"] (1 item)'],
    [{ type: "LIST[INT]", value: "[]" }, "[] (0 items)"],
    [{ type: "LIST[FLOAT]", value: "[1.5,2.0]" }, "[1.5, 2.0] (2 items)"],
    [{ type: "LIST[BOOL]", value: "[true,false]" }, "[true, false] (2 items)"],
    [{ type: "LIST[LIST[INT]]", value: "[[1,2],[]]" }, "[[1, 2], []] (2 items)"],
    [{ type: "INT", value: "5" }, "5"],
    [{ type: "STRING", value: "[not a list]" }, "[not a list]"],
  ])("%j → %s", (value, expected) => expect(displayParameterValue(value)).toBe(expected));
});

describe("loom summary", () => {
  it("shows the values of the EXPR types readably", async () => {
    const run = await runCli(["summary", "expr.yaml", "-p", "Scales=[1e3]", "-p", "Pairs=[[3],[4,5]]"], tree.dir);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual(
      expect.arrayContaining([
        "  - UseGpu (BOOL): true",
        "  - Frames (RANGE_EXPR): 1-10 (10 values)",
        '  - Cameras (LIST[STRING]): ["main", "close, up"] (2 items)',
        "  - Scales (LIST[FLOAT]): [1e3] (1 item)",
        "  - Pairs (LIST[LIST[INT]]): [[3], [4, 5]] (2 items)",
        `  - Plates (LIST[PATH]): ["${tree.dir}/plates/a.exr"] (1 item)`,
      ]),
    );
  });

  it("--json keeps the canonical text", async () => {
    const run = await runCli(["summary", "expr.yaml", "--json", "-p", "UseGpu=off"], tree.dir);
    expect(JSON.parse(run.out).parameters).toEqual([
      { name: "UseGpu", type: "BOOL", value: "false" },
      { name: "Frames", type: "RANGE_EXPR", value: "1-10" },
      { name: "Cameras", type: "LIST[STRING]", value: '["main","close, up"]' },
      { name: "Scales", type: "LIST[FLOAT]", value: "[0.5,2.0]" },
      { name: "Pairs", type: "LIST[LIST[INT]]", value: "[[1,2],[]]" },
      { name: "Plates", type: "LIST[PATH]", value: JSON.stringify([`${tree.dir}/plates/a.exr`]) },
    ]);
  });

  it("reports a bad list value at the parameter", async () => {
    const run = await runCli(["summary", "expr.yaml", "-p", "Cameras=main"], tree.dir);
    expect(run.code).toBe(1);
    expect(run.lines).toContain(`  parameters.Cameras: parameter Cameras: expected a list, or JSON text of one such as ["a","b"] or [1,2], got 'main'`);
  });
});
