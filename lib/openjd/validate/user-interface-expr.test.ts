/**
 * `userInterface` of the EXPR parameter types (spec §2.9–§2.16; digest §4.5): the controls each
 * type allows and defaults to, and the per-control fields (singleStepDelta, decimals, file
 * filters) of the list controls.
 */
import { describe, expect, it } from "vitest";
import type { JobParameterDefinition } from "../model";
import { expectError, expectValid, withExtensions, withParams, type Doc, type InvalidRow } from "./template-test-support";
import { effectiveControl } from "./user-interface";

const UI = "parameterDefinitions[0].userInterface";
const one = (type: string, userInterface: Doc, extra: Doc = {}) => withExtensions(withParams({ name: "P", type, userInterface, ...extra }), "EXPR");

describe("controls per type", () => {
  const allowed: Array<[string, string[], Doc?]> = [
    ["BOOL", ["CHECK_BOX", "HIDDEN"]],
    ["RANGE_EXPR", ["LINE_EDIT", "HIDDEN"]],
    ["LIST[STRING]", ["LINE_EDIT_LIST", "HIDDEN"]],
    ["LIST[PATH]", ["CHOOSE_INPUT_FILE_LIST", "CHOOSE_OUTPUT_FILE_LIST", "HIDDEN"], { objectType: "FILE" }],
    ["LIST[PATH]", ["CHOOSE_DIRECTORY_LIST", "HIDDEN"], { objectType: "DIRECTORY" }],
    ["LIST[INT]", ["SPIN_BOX_LIST", "HIDDEN"]],
    ["LIST[FLOAT]", ["SPIN_BOX_LIST", "HIDDEN"]],
    ["LIST[BOOL]", ["CHECK_BOX_LIST", "HIDDEN"]],
    ["LIST[LIST[INT]]", ["HIDDEN"]],
  ];
  const rows = allowed.flatMap(([type, controls, extra]) => controls.map((control) => [type, control, extra ?? {}] as const));
  it.each(rows)("%s accepts %s", (type, control, extra) => expectValid(one(type, { control, label: "L", groupLabel: "G" }, extra)));

  it.each<InvalidRow>([
    ["BOOL DROPDOWN_LIST", one("BOOL", { control: "DROPDOWN_LIST" }), `${UI}.control`, /not one of CHECK_BOX, HIDDEN/],
    ["BOOL LINE_EDIT", one("BOOL", { control: "LINE_EDIT" }), `${UI}.control`, /not one of CHECK_BOX, HIDDEN/],
    ["RANGE_EXPR MULTILINE_EDIT", one("RANGE_EXPR", { control: "MULTILINE_EDIT" }), `${UI}.control`, /not one of LINE_EDIT, HIDDEN/],
    ["LIST[STRING] LINE_EDIT (the scalar control)", one("LIST[STRING]", { control: "LINE_EDIT" }), `${UI}.control`, /not one of LINE_EDIT_LIST, HIDDEN/],
    ["LIST[PATH] CHOOSE_INPUT_FILE (the scalar control)", one("LIST[PATH]", { control: "CHOOSE_INPUT_FILE" }), `${UI}.control`, /not one of CHOOSE_INPUT_FILE_LIST/],
    ["LIST[INT] SPIN_BOX", one("LIST[INT]", { control: "SPIN_BOX" }), `${UI}.control`, /not one of SPIN_BOX_LIST, HIDDEN/],
    ["LIST[FLOAT] DROPDOWN_LIST", one("LIST[FLOAT]", { control: "DROPDOWN_LIST" }), `${UI}.control`, /not one of SPIN_BOX_LIST/],
    ["LIST[BOOL] CHECK_BOX", one("LIST[BOOL]", { control: "CHECK_BOX" }), `${UI}.control`, /not one of CHECK_BOX_LIST, HIDDEN/],
    ["LIST[LIST[INT]] SPIN_BOX_LIST (only HIDDEN)", one("LIST[LIST[INT]]", { control: "SPIN_BOX_LIST" }), `${UI}.control`, /not one of HIDDEN/],
    ["control names are case-sensitive", one("BOOL", { control: "check_box" }), `${UI}.control`, /not one of/],
    [
      "LIST[PATH] FILE with CHOOSE_DIRECTORY_LIST",
      one("LIST[PATH]", { control: "CHOOSE_DIRECTORY_LIST" }, { objectType: "FILE" }),
      `${UI}.control`,
      /CHOOSE_DIRECTORY_LIST cannot be used with objectType FILE/,
    ],
    ["LIST[PATH] DIRECTORY with CHOOSE_OUTPUT_FILE_LIST", one("LIST[PATH]", { control: "CHOOSE_OUTPUT_FILE_LIST" }, { objectType: "DIRECTORY" }), `${UI}.control`, /objectType DIRECTORY/],
    ["a label of 65 characters", one("LIST[BOOL]", { label: "L".repeat(65) }), `${UI}.label`, /at most 64/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("per-control fields", () => {
  const filters = { fileFilters: [{ label: "EXR", patterns: ["*.exr"] }], fileFilterDefault: { label: "EXR", patterns: ["*.exr"] } };
  it.each<[string, Doc]>([
    ["BOOL CHECK_BOX needs no allowedValues (unlike STRING)", one("BOOL", { control: "CHECK_BOX" }, { default: true })],
    ["LIST[INT] singleStepDelta with the default SPIN_BOX_LIST", one("LIST[INT]", { singleStepDelta: 2 })],
    ["LIST[FLOAT] decimals and singleStepDelta", one("LIST[FLOAT]", { control: "SPIN_BOX_LIST", decimals: 3, singleStepDelta: 0.25 })],
    ["LIST[PATH] file filters on the implied CHOOSE_INPUT_FILE_LIST", one("LIST[PATH]", filters, { objectType: "FILE" })],
    ["LIST[PATH] file filters on CHOOSE_OUTPUT_FILE_LIST", one("LIST[PATH]", { control: "CHOOSE_OUTPUT_FILE_LIST", ...filters }, { objectType: "FILE", dataFlow: "OUT" })],
  ])("%s", (_name, doc) => expectValid(doc));

  it.each<InvalidRow>([
    ["LIST[INT] singleStepDelta with HIDDEN", one("LIST[INT]", { control: "HIDDEN", singleStepDelta: 1 }), `${UI}.singleStepDelta`, /only applies to the SPIN_BOX_LIST control, not HIDDEN/],
    ["LIST[INT] singleStepDelta 1.5", one("LIST[INT]", { singleStepDelta: 1.5 }), `${UI}.singleStepDelta`, /expected an integer/],
    ["LIST[INT] singleStepDelta 0", one("LIST[INT]", { singleStepDelta: 0 }), `${UI}.singleStepDelta`, /greater than zero/],
    ["LIST[INT] decimals", one("LIST[INT]", { decimals: 2 }), `${UI}.decimals`, /unknown field 'decimals'/],
    ["LIST[FLOAT] decimals with HIDDEN", one("LIST[FLOAT]", { control: "HIDDEN", decimals: 2 }), `${UI}.decimals`, /only applies to the SPIN_BOX_LIST control/],
    ["LIST[FLOAT] decimals -1", one("LIST[FLOAT]", { decimals: -1 }), `${UI}.decimals`, /zero or greater/],
    ["LIST[STRING] singleStepDelta", one("LIST[STRING]", { singleStepDelta: 1 }), `${UI}.singleStepDelta`, /unknown field/],
    ["LIST[STRING] fileFilters", one("LIST[STRING]", { fileFilters: [{ label: "A", patterns: ["*"] }] }), `${UI}.fileFilters`, /unknown field/],
    ["BOOL fileFilters", one("BOOL", { fileFilters: [{ label: "A", patterns: ["*"] }] }), `${UI}.fileFilters`, /unknown field/],
    [
      "LIST[PATH] fileFilters on the implied CHOOSE_DIRECTORY_LIST",
      one("LIST[PATH]", { fileFilters: [{ label: "A", patterns: ["*"] }] }),
      `${UI}.fileFilters`,
      /file choosers \(CHOOSE_INPUT_FILE_LIST, CHOOSE_OUTPUT_FILE_LIST\), not to a directory/,
    ],
    [
      "LIST[PATH] fileFilterDefault on HIDDEN",
      one("LIST[PATH]", { control: "HIDDEN", fileFilterDefault: { label: "A", patterns: ["*"] } }, { objectType: "FILE" }),
      `${UI}.fileFilterDefault`,
      /not to HIDDEN/,
    ],
    ["LIST[PATH] a bad pattern", one("LIST[PATH]", { fileFilters: [{ label: "A", patterns: ["**"] }] }, { objectType: "FILE" }), `${UI}.fileFilters[0].patterns[0]`, /must be '\*'/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("effectiveControl of the EXPR types (spec defaults)", () => {
  const def = (d: Partial<JobParameterDefinition> & { type: JobParameterDefinition["type"] }) => ({ name: "P", path: [], ...d }) as JobParameterDefinition;
  it.each<[string, JobParameterDefinition, string]>([
    ["BOOL", def({ type: "BOOL" }), "CHECK_BOX"],
    ["RANGE_EXPR", def({ type: "RANGE_EXPR" }), "LINE_EDIT"],
    ["LIST[STRING]", def({ type: "LIST[STRING]", item: { allowedValues: ["a"] } }), "LINE_EDIT_LIST"],
    ["LIST[PATH] without objectType (DIRECTORY)", def({ type: "LIST[PATH]" }), "CHOOSE_DIRECTORY_LIST"],
    ["LIST[PATH] FILE", def({ type: "LIST[PATH]", objectType: "FILE" }), "CHOOSE_INPUT_FILE_LIST"],
    ["LIST[PATH] FILE + OUT", def({ type: "LIST[PATH]", objectType: "FILE", dataFlow: "OUT" }), "CHOOSE_OUTPUT_FILE_LIST"],
    ["LIST[PATH] DIRECTORY + OUT", def({ type: "LIST[PATH]", objectType: "DIRECTORY", dataFlow: "OUT" }), "CHOOSE_DIRECTORY_LIST"],
    ["LIST[INT] with item.allowedValues (still a spin box)", def({ type: "LIST[INT]", item: { allowedValues: [1n] } }), "SPIN_BOX_LIST"],
    ["LIST[FLOAT]", def({ type: "LIST[FLOAT]" }), "SPIN_BOX_LIST"],
    ["LIST[BOOL]", def({ type: "LIST[BOOL]" }), "CHECK_BOX_LIST"],
    ["LIST[LIST[INT]]", def({ type: "LIST[LIST[INT]]" }), "HIDDEN"],
    ["an explicit HIDDEN", def({ type: "BOOL", userInterface: { control: "HIDDEN" } }), "HIDDEN"],
  ])("%s → %s", (_name, definition, control) => expect(effectiveControl(definition)).toBe(control));
});
