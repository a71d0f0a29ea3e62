import { readFileSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTemplateText } from "../template";
import { definitions, field } from "./form-test-support";
import { buildParameterForm } from "./parameter-form";

describe("buildParameterForm: controls", () => {
  it.each([
    ["STRING without allowedValues", "- {name: A, type: STRING}", "LINE_EDIT"],
    ["STRING with allowedValues", "- {name: A, type: STRING, allowedValues: [x, y]}", "DROPDOWN_LIST"],
    ["explicit MULTILINE_EDIT", "- {name: A, type: STRING, userInterface: {control: MULTILINE_EDIT}}", "MULTILINE_EDIT"],
    ["STRING CHECK_BOX", "- {name: A, type: STRING, allowedValues: ['On', 'Off'], default: 'On', userInterface: {control: CHECK_BOX}}", "CHECK_BOX"],
    ["INT", "- {name: A, type: INT}", "SPIN_BOX"],
    ["INT with allowedValues", "- {name: A, type: INT, allowedValues: [1, 2]}", "DROPDOWN_LIST"],
    ["FLOAT", "- {name: A, type: FLOAT}", "SPIN_BOX"],
    ["PATH FILE OUT", "- {name: A, type: PATH, objectType: FILE, dataFlow: OUT}", "CHOOSE_OUTPUT_FILE"],
    ["PATH FILE IN", "- {name: A, type: PATH, objectType: FILE, dataFlow: IN}", "CHOOSE_INPUT_FILE"],
    ["PATH FILE NONE", "- {name: A, type: PATH, objectType: FILE}", "CHOOSE_INPUT_FILE"],
    ["PATH without objectType", "- {name: A, type: PATH}", "CHOOSE_DIRECTORY"],
    ["PATH with allowedValues", "- {name: A, type: PATH, allowedValues: [/a, /b]}", "DROPDOWN_LIST"],
    ["HIDDEN with a default", "- {name: A, type: INT, default: 3, userInterface: {control: HIDDEN}}", "HIDDEN"],
    ["HIDDEN without a default is shown", "- {name: A, type: INT, userInterface: {control: HIDDEN}}", "SPIN_BOX"],
  ])("%s → %s", (_case, yaml, control) => {
    expect(field(yaml).control).toBe(control);
  });

  it.each([
    ["BOOL", "- {name: A, type: BOOL}", "CHECK_BOX"],
    ["LIST[INT]", "- {name: A, type: 'LIST[INT]'}", "LIST"],
    ["LIST[LIST[INT]] without a default", "- {name: A, type: 'LIST[LIST[INT]]'}", "LIST"],
    ["RANGE_EXPR", "- {name: A, type: RANGE_EXPR}", "LINE_EDIT"],
  ])("EXPR %s → %s", (_case, yaml, control) => {
    expect(field(yaml, "extensions: [EXPR]\n").control).toBe(control);
  });
});

describe("buildParameterForm: field details", () => {
  it.each([
    ["label from userInterface", "- {name: A, type: STRING, userInterface: {label: Shot name}}", { label: "Shot name", required: true, initial: "" }],
    ["label falls back to the name", "- {name: Frames, type: STRING, default: 1-10}", { label: "Frames", required: false, initial: "1-10" }],
    ["INT default and bounds", "- {name: A, type: INT, default: '007', minValue: -100, maxValue: 100}", { initial: "7", hint: "from -100 to 100" }],
    ["FLOAT default keeps its text", "- {name: A, type: FLOAT, default: 1.50, minValue: 0.5}", { initial: "1.50", hint: "at least 0.5" }],
    ["STRING lengths", "- {name: A, type: STRING, maxLength: 64}", { hint: "at most 64 characters" }],
    ["dropdown options as text", "- {name: A, type: FLOAT, allowedValues: [1.23, 3.260]}", { options: ["1.23", "3.260"] }],
    ["description", "- {name: A, type: STRING, description: The shot}", { description: "The shot" }],
  ])("%s", (_case, yaml, expected) => {
    expect(field(yaml)).toMatchObject(expected);
  });

  it.each([
    [["True", "False"], { on: "True", off: "False" }],
    [["off", "ON"], { on: "ON", off: "off" }],
    [["0", "1"], { on: "1", off: "0" }],
  ])("CHECK_BOX %j: checked means the true-like value", (pair, expected) => {
    const f = field(`- {name: A, type: STRING, default: '${pair[0]}', allowedValues: ${JSON.stringify(pair)}, userInterface: {control: CHECK_BOX}}`);
    expect(f.checkBox).toEqual(expected);
  });

  it.each([
    ["INT default step", "- {name: A, type: INT}", { integer: true, step: "1" }],
    ["INT singleStepDelta", "- {name: A, type: INT, userInterface: {singleStepDelta: 30}}", { integer: true, step: "30" }],
    ["FLOAT decimals", "- {name: A, type: FLOAT, userInterface: {decimals: 2}}", { integer: false, decimals: 2, step: "0.01" }],
    ["FLOAT adaptive", "- {name: A, type: FLOAT}", { integer: false, decimals: null, step: null }],
    ["FLOAT fixed step", "- {name: A, type: FLOAT, userInterface: {singleStepDelta: 0.875}}", { decimals: null, step: "0.875" }],
  ])("spin box: %s", (_case, yaml, expected) => {
    expect(field(yaml).spin).toMatchObject(expected);
  });

  it("keeps file filters of path choosers", () => {
    const f = field(
      "- name: A\n  type: PATH\n  objectType: FILE\n  userInterface:\n    fileFilters: [{label: Images, patterns: ['*.exr', '*.png']}]\n    fileFilterDefault: {label: Any, patterns: ['*']}",
    );
    expect(f.fileFilters).toEqual([{ label: "Images", patterns: ["*.exr", "*.png"] }]);
    expect(f.fileFilterDefault).toEqual({ label: "Any", patterns: ["*"] });
  });
});

describe("buildParameterForm: sections", () => {
  it("groups by groupLabel where the group first appears, keeps ungrouped runs together and leaves hidden fields out", () => {
    const form = buildParameterForm(
      definitions(
        [
          "- {name: A, type: STRING, userInterface: {groupLabel: G1}}",
          "- {name: B, type: STRING}",
          "- {name: C, type: STRING}",
          "- {name: D, type: STRING, userInterface: {groupLabel: G2}}",
          "- {name: E, type: STRING, userInterface: {groupLabel: G1}}",
          "- {name: H, type: STRING, default: h, userInterface: {control: HIDDEN, groupLabel: G2}}",
          "- {name: F, type: STRING}",
        ].join("\n"),
      ),
    );
    expect(form.sections.map((s) => [s.label, s.fields.map((f) => f.name)])).toEqual([
      ["G1", ["A", "E"]],
      [null, ["B", "C"]],
      ["G2", ["D"]],
      [null, ["F"]],
    ]);
    expect(form.fields.map((f) => f.name)).toEqual(["A", "B", "C", "D", "E", "H", "F"]);
  });

  const showcase = resolve("../shared/openjd-samples/ui-controls-showcase.yaml");
  it.skipIf(!existsSync(showcase))("builds the ui-controls-showcase sample", () => {
    const checked = checkTemplateText(readFileSync(showcase, "utf8"), "yaml", "job");
    if (checked.template?.kind !== "job") throw new Error("sample does not validate");
    const form = buildParameterForm(checked.template.template.parameterDefinitions ?? []);
    expect(form.sections.map((s) => s.label)).toEqual(["Text Controls", "Int Spinners", "Float Spinners", "Dropdown Controls", "Picker Controls", null]);
    expect(new Set(form.fields.map((f) => f.control))).toEqual(
      new Set(["LINE_EDIT", "MULTILINE_EDIT", "SPIN_BOX", "DROPDOWN_LIST", "HIDDEN", "CHOOSE_INPUT_FILE", "CHOOSE_OUTPUT_FILE", "CHOOSE_DIRECTORY", "CHECK_BOX"]),
    );
  });
});
