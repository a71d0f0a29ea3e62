/**
 * `userInterface` of job parameters (spec §2.1–§2.8; digest §4.1–§4.4, §18.9; catalogue rows
 * 58–67): every control × allowedValues combination, CHECK_BOX pairs, labels, file filters,
 * singleStepDelta and decimals.
 */
import { describe, expect, it } from "vitest";
import type { JobParameterDefinition } from "../model";
import { expectError, expectValid, withParams, type Doc, type InvalidRow } from "./template-test-support";
import { effectiveControl, isCheckBoxPair } from "./user-interface";

const UI = "parameterDefinitions[0].userInterface";
const ALLOWED: Record<string, unknown[]> = { INT: [1, 2], FLOAT: [1.5, 2], STRING: ["a", "b"], PATH: ["/a", "/b"] };

function param(type: string, control: string | undefined, withAllowed: boolean, extra: Doc = {}): Doc {
  const definition: Doc = { name: "P", type, ...extra };
  if (withAllowed) definition.allowedValues = ALLOWED[type];
  if (control !== undefined) definition.userInterface = { control, ...(definition.userInterface ?? {}) };
  return withParams(definition);
}

describe("control × allowedValues", () => {
  // [type, control, valid without allowedValues, valid with allowedValues, extra fields]
  const table: Array<[string, string, boolean, boolean, Doc?]> = [
    ["STRING", "LINE_EDIT", true, false],
    ["STRING", "MULTILINE_EDIT", true, false],
    ["STRING", "DROPDOWN_LIST", false, true],
    ["STRING", "HIDDEN", true, true],
    ["INT", "SPIN_BOX", true, false],
    ["INT", "DROPDOWN_LIST", false, true],
    ["INT", "HIDDEN", true, true],
    ["FLOAT", "SPIN_BOX", true, false],
    ["FLOAT", "DROPDOWN_LIST", false, true],
    ["FLOAT", "HIDDEN", true, true],
    ["PATH", "CHOOSE_INPUT_FILE", true, false, { objectType: "FILE" }],
    ["PATH", "CHOOSE_OUTPUT_FILE", true, false, { objectType: "FILE", dataFlow: "OUT" }],
    ["PATH", "CHOOSE_DIRECTORY", true, false, { objectType: "DIRECTORY" }],
    ["PATH", "DROPDOWN_LIST", false, true],
    ["PATH", "HIDDEN", true, true],
  ];
  const rows = table.flatMap(([type, control, without, withA, extra]) => [
    [`${type} ${control} without allowedValues`, type, control, false, without, extra ?? {}] as const,
    [`${type} ${control} with allowedValues`, type, control, true, withA, extra ?? {}] as const,
  ]);
  it.each(rows)("%s", (_name, type, control, withAllowed, valid, extra) => {
    const doc = param(type, control, withAllowed, extra);
    if (valid) expectValid(doc);
    else expectError(doc, `${UI}.control`, withAllowed ? /cannot be used with allowedValues/ : /requires allowedValues/);
  });

  it.each(["INT", "FLOAT", "STRING", "PATH"])("%s without a control takes allowedValues (default DROPDOWN_LIST)", (type) => {
    expectValid(param(type, undefined, true, { userInterface: { label: "L" } }));
  });
});

describe("CHECK_BOX", () => {
  const pairs: Array<[string, string]> = [
    ["true", "false"],
    ["yes", "no"],
    ["on", "off"],
    ["1", "0"],
  ];
  const variants = pairs.flatMap(([t, f]) => [
    [t, f],
    [f, t],
    [t.toUpperCase(), f.toUpperCase()],
    [f.charAt(0).toUpperCase() + f.slice(1), t],
  ]);
  it.each(variants)("accepts [%s, %s]", (a, b) => {
    expectValid(withParams({ name: "P", type: "STRING", allowedValues: [a, b], userInterface: { control: "CHECK_BOX" } }));
  });
  it.each([[["true", "no"]], [["yes", "off"]], [["true"]], [["true", "false", "yes"]], [["TRUE", "true"]], [["y", "n"]], [["t", "f"]]])("refuses %j", (values) => {
    const doc = withParams({ name: "P", type: "STRING", allowedValues: values, userInterface: { control: "CHECK_BOX" } });
    expectError(doc, `${UI}.control`, /CHECK_BOX requires allowedValues to be exactly one of the pairs/);
  });
  it("isCheckBoxPair agrees", () => {
    expect(isCheckBoxPair(["Off", "ON"])).toBe(true);
    expect(isCheckBoxPair(["0", "1", "1"])).toBe(false);
  });
});

describe("effectiveControl (spec defaults)", () => {
  const path = ["parameterDefinitions", 0];
  const def = (d: Partial<JobParameterDefinition> & { type: JobParameterDefinition["type"] }) => ({ name: "P", path, ...d }) as JobParameterDefinition;
  it.each<[string, JobParameterDefinition, string]>([
    ["INT", def({ type: "INT" }), "SPIN_BOX"],
    ["FLOAT with allowedValues", def({ type: "FLOAT", allowedValues: [{ value: 1, text: "1" }] }), "DROPDOWN_LIST"],
    ["STRING", def({ type: "STRING" }), "LINE_EDIT"],
    ["PATH without objectType (DIRECTORY)", def({ type: "PATH" }), "CHOOSE_DIRECTORY"],
    ["PATH FILE", def({ type: "PATH", objectType: "FILE" }), "CHOOSE_INPUT_FILE"],
    ["PATH FILE + INOUT", def({ type: "PATH", objectType: "FILE", dataFlow: "INOUT" }), "CHOOSE_INPUT_FILE"],
    ["PATH FILE + OUT", def({ type: "PATH", objectType: "FILE", dataFlow: "OUT" }), "CHOOSE_OUTPUT_FILE"],
    ["PATH DIRECTORY + OUT", def({ type: "PATH", objectType: "DIRECTORY", dataFlow: "OUT" }), "CHOOSE_DIRECTORY"],
    ["PATH FILE + allowedValues", def({ type: "PATH", objectType: "FILE", allowedValues: ["/a"] }), "DROPDOWN_LIST"],
  ])("%s → %s", (_name, definition, control) => expect(effectiveControl(definition)).toBe(control));
});

describe("valid user interface hints", () => {
  it.each<[string, Doc]>([
    ["label and groupLabel of 64 characters", { name: "P", type: "INT", userInterface: { label: "L".repeat(64), groupLabel: "G".repeat(64) } }],
    ["label of 64 code points (emoji are one character each)", { name: "P", type: "INT", userInterface: { label: "🎬".repeat(64) } }],
    ["INT SPIN_BOX singleStepDelta 1", { name: "P", type: "INT", userInterface: { control: "SPIN_BOX", singleStepDelta: 1 } }],
    ["INT singleStepDelta with the default control (SPIN_BOX)", { name: "P", type: "INT", userInterface: { singleStepDelta: 2 } }],
    ["FLOAT SPIN_BOX singleStepDelta 0.5 and decimals 2", { name: "P", type: "FLOAT", userInterface: { control: "SPIN_BOX", singleStepDelta: 0.5, decimals: 2 } }],
    [
      "20 file filters with *, *.* and *.<ext>",
      { name: "P", type: "PATH", objectType: "FILE", userInterface: { fileFilters: Array.from({ length: 20 }, (_, i) => ({ label: `F${i}`, patterns: ["*", "*.*", "*.tar.gz"] })) } },
    ],
    ["pattern of 20 characters", { name: "P", type: "PATH", objectType: "FILE", userInterface: { fileFilters: [{ label: "L", patterns: [`*.${"e".repeat(18)}`] }] } }],
    ["fileFilterDefault on CHOOSE_OUTPUT_FILE", { name: "P", type: "PATH", objectType: "FILE", dataFlow: "OUT", userInterface: { fileFilterDefault: { label: "EXR", patterns: ["*.exr"] } } }],
  ])("%s", (_name, definition) => expectValid(withParams(definition)));
});

describe("invalid user interface hints", () => {
  const file = (userInterface: Doc, extra: Doc = {}) => withParams({ name: "P", type: "PATH", objectType: "FILE", userInterface, ...extra });
  it.each<InvalidRow>([
    ["a control of another type (STRING SPIN_BOX)", withParams({ name: "P", type: "STRING", userInterface: { control: "SPIN_BOX" } }), `${UI}.control`, /not one of LINE_EDIT/],
    ["INT CHECK_BOX", withParams({ name: "P", type: "INT", userInterface: { control: "CHECK_BOX" } }), `${UI}.control`, /not one of SPIN_BOX/],
    ["PATH LINE_EDIT", withParams({ name: "P", type: "PATH", userInterface: { control: "LINE_EDIT" } }), `${UI}.control`, /not one of CHOOSE_INPUT_FILE/],
    ["control names are case-sensitive", withParams({ name: "P", type: "STRING", userInterface: { control: "hidden" } }), `${UI}.control`, /not one of/],
    ["unknown userInterface field", withParams({ name: "P", type: "STRING", userInterface: { tooltip: "t" } }), `${UI}.tooltip`, /unknown field 'tooltip'/],
    ["userInterface that is not a mapping", withParams({ name: "P", type: "STRING", userInterface: "HIDDEN" }), UI, /expected a mapping/],
    ["label of 65 characters", withParams({ name: "P", type: "INT", userInterface: { label: "L".repeat(65) } }), `${UI}.label`, /at most 64/],
    ["groupLabel of 65 characters", withParams({ name: "P", type: "INT", userInterface: { groupLabel: "G".repeat(65) } }), `${UI}.groupLabel`, /at most 64/],
    ["label with DEL (U+007F)", withParams({ name: "P", type: "INT", userInterface: { label: "a\u007f" } }), `${UI}.label`, /control characters/],
    ["empty groupLabel", withParams({ name: "P", type: "INT", userInterface: { groupLabel: "" } }), `${UI}.groupLabel`, /must not be empty/],
    ["label with a tab", withParams({ name: "P", type: "INT", userInterface: { label: "a\tb" } }), `${UI}.label`, /control characters/],
    ["STRING with singleStepDelta", withParams({ name: "P", type: "STRING", userInterface: { singleStepDelta: 1 } }), `${UI}.singleStepDelta`, /unknown field/],
    ["INT with decimals", withParams({ name: "P", type: "INT", userInterface: { decimals: 2 } }), `${UI}.decimals`, /unknown field 'decimals'/],
    ["INT HIDDEN with singleStepDelta", withParams({ name: "P", type: "INT", userInterface: { control: "HIDDEN", singleStepDelta: 1 } }), `${UI}.singleStepDelta`, /only applies to the SPIN_BOX/],
    [
      "INT singleStepDelta with implied DROPDOWN_LIST",
      withParams({ name: "P", type: "INT", allowedValues: [1], userInterface: { singleStepDelta: 1 } }),
      `${UI}.singleStepDelta`,
      /only applies to the SPIN_BOX/,
    ],
    ["FLOAT singleStepDelta 0", withParams({ name: "P", type: "FLOAT", userInterface: { singleStepDelta: 0 } }), `${UI}.singleStepDelta`, /greater than zero/],
    ["FLOAT singleStepDelta -0.1", withParams({ name: "P", type: "FLOAT", userInterface: { singleStepDelta: -0.1 } }), `${UI}.singleStepDelta`, /greater than zero/],
    [
      "FLOAT decimals on DROPDOWN_LIST",
      withParams({ name: "P", type: "FLOAT", allowedValues: [1], userInterface: { control: "DROPDOWN_LIST", decimals: 1 } }),
      `${UI}.decimals`,
      /only applies to the SPIN_BOX/,
    ],
    ["FLOAT decimals 1.5", withParams({ name: "P", type: "FLOAT", userInterface: { decimals: 1.5 } }), `${UI}.decimals`, /expected an integer/],
    ["STRING with fileFilters", withParams({ name: "P", type: "STRING", userInterface: { fileFilters: [{ label: "A", patterns: ["*"] }] } }), `${UI}.fileFilters`, /unknown field/],
    [
      "fileFilterDefault on CHOOSE_DIRECTORY",
      withParams({ name: "P", type: "PATH", userInterface: { fileFilterDefault: { label: "A", patterns: ["*"] } } }),
      `${UI}.fileFilterDefault`,
      /file choosers/,
    ],
    ["fileFilters on HIDDEN", file({ control: "HIDDEN", fileFilters: [{ label: "A", patterns: ["*"] }] }), `${UI}.fileFilters`, /file choosers/],
    ["fileFilters on DROPDOWN_LIST", file({ fileFilters: [{ label: "A", patterns: ["*"] }] }, { allowedValues: ["/a"] }), `${UI}.fileFilters`, /file choosers/],
    ["21 file filters", file({ fileFilters: Array.from({ length: 21 }, (_, i) => ({ label: `F${i}`, patterns: ["*"] })) }), `${UI}.fileFilters`, /at most 20/],
    ["empty fileFilters", file({ fileFilters: [] }), `${UI}.fileFilters`, /must not be empty/],
    ["file filter label of 65 characters", file({ fileFilters: [{ label: "L".repeat(65), patterns: ["*"] }] }), `${UI}.fileFilters[0].label`, /at most 64/],
    ["pattern '*.?' (wildcard in the extension)", file({ fileFilters: [{ label: "A", patterns: ["*.?"] }] }), `${UI}.fileFilters[0].patterns[0]`, /must be '\*', '\*\.\*' or '\*\.<extension>'/],
    ["pattern '*.' (no extension)", file({ fileFilters: [{ label: "A", patterns: ["*."] }] }), `${UI}.fileFilters[0].patterns[0]`, /must be '\*'/],
    ["pattern 'exr' (no '*.')", file({ fileFilters: [{ label: "A", patterns: ["exr"] }] }), `${UI}.fileFilters[0].patterns[0]`, /must be '\*'/],
    ["pattern with ':' in the extension", file({ fileFilters: [{ label: "A", patterns: ["*.a:b"] }] }), `${UI}.fileFilters[0].patterns[0]`, /must be '\*'/],
    ["pattern of 21 characters", file({ fileFilters: [{ label: "A", patterns: [`*.${"e".repeat(19)}`] }] }), `${UI}.fileFilters[0].patterns[0]`, /at most 20/],
    [
      "objectType FILE with CHOOSE_DIRECTORY",
      withParams({ name: "P", type: "PATH", objectType: "FILE", userInterface: { control: "CHOOSE_DIRECTORY" } }),
      `${UI}.control`,
      /CHOOSE_DIRECTORY cannot be used with objectType FILE/,
    ],
    [
      "objectType DIRECTORY with CHOOSE_INPUT_FILE",
      withParams({ name: "P", type: "PATH", objectType: "DIRECTORY", userInterface: { control: "CHOOSE_INPUT_FILE" } }),
      `${UI}.control`,
      /objectType DIRECTORY/,
    ],
    [
      "objectType DIRECTORY with CHOOSE_OUTPUT_FILE",
      withParams({ name: "P", type: "PATH", objectType: "DIRECTORY", userInterface: { control: "CHOOSE_OUTPUT_FILE" } }),
      `${UI}.control`,
      /objectType DIRECTORY/,
    ],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});
