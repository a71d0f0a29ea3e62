/**
 * EXPR job parameter definitions (spec §2.9–§2.16, RFC 0007; digest §4.5): case-insensitive type
 * names, BOOL, RANGE_EXPR and the LIST[...] types with list-level counts, `item:` constraints
 * mirroring the scalar types, and defaults that must satisfy all of them.
 */
import { describe, expect, it } from "vitest";
import { checkTemplateText } from "../template";
import { expectError, expectValid, toText, withExtensions, withParams, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const P = "parameterDefinitions[0]";
const INT64_MAX = 9223372036854775807n;
const expr = (...definitions: Doc[]) => withExtensions(withParams(...definitions), "EXPR");
const one = (type: string, fields: Doc = {}) => expr({ name: "P", type, ...fields });

/** The definitions the validator stores for a valid template. */
function definitions(doc: Doc): unknown[] {
  const checked = checkTemplateText(toText(doc), "yaml");
  expect(checked.errors).toEqual([]);
  return checked.template?.kind === "job" ? checked.template.template.parameterDefinitions : [];
}

describe("type names", () => {
  it.each([
    ["int", "INT"],
    ["Float", "FLOAT"],
    ["sTrInG", "STRING"],
    ["pAtH", "PATH"],
    ["bOoL", "BOOL"],
    ["range_expr", "RANGE_EXPR"],
    ["list[string]", "LIST[STRING]"],
    ["liST[paTH]", "LIST[PATH]"],
    ["LiSt[iNt]", "LIST[INT]"],
    ["LisT[fLOat]", "LIST[FLOAT]"],
    ["lIsT[bOoL]", "LIST[BOOL]"],
    ["LiSt[lIsT[iNt]]", "LIST[LIST[INT]]"],
  ])("with EXPR, %s is stored as %s", (written, canonical) => {
    expect(definitions(one(written))).toEqual([expect.objectContaining({ name: "P", type: canonical })]);
  });

  it.each<InvalidRow>([
    ["three levels of lists (conformance 2--triple-nested-list-type)", one("LIST[LIST[LIST[INT]]]"), `${P}.type`, /lists nest at most two deep/],
    ["an unknown item type", one("LIST[DOUBLE]"), `${P}.type`, /unknown parameter type 'LIST\[DOUBLE\]'; expected one of INT, .*LIST\[LIST\[INT\]\] \(in any case\)/],
    ["a list of lists of strings", one("LIST[LIST[STRING]]"), `${P}.type`, /unknown parameter type/],
    ["spaces inside the brackets", one("LIST[ INT ]"), `${P}.type`, /unknown parameter type/],
    ["a task parameter type", one("CHUNK[INT]"), `${P}.type`, /unknown parameter type/],
    ["a non-ASCII letter that upper-cases to ASCII (ı → I)", one("\u0131nt"), `${P}.type`, /unknown parameter type/],
    ["long s (ſ → S)", one("\u017ftring"), `${P}.type`, /unknown parameter type/],
    ["a type that is not a string", one(5 as never), `${P}.type`, /expected one of INT, FLOAT, STRING, PATH, BOOL, RANGE_EXPR/],
    ["without EXPR, lower case", withParams({ name: "P", type: "int" }), `${P}.type`, /type names are case-sensitive, write INT/],
    ["without EXPR, BOOL", withParams({ name: "P", type: "BOOL" }), `${P}.type`, /parameter type BOOL requires extension EXPR \(add it to 'extensions'\)/],
    ["without EXPR, list[int]", withParams({ name: "P", type: "list[int]" }), `${P}.type`, /requires extension EXPR/],
    ["without EXPR, LIST[LIST[LIST[INT]]]", withParams({ name: "P", type: "LIST[LIST[LIST[INT]]]" }), `${P}.type`, /requires extension EXPR/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("BOOL (§2.9)", () => {
  it.each<[unknown, boolean]>([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    [1.5 - 0.5, true],
    ["TRUE", true],
    ["Yes", true],
    ["on", true],
    ["1", true],
    ["False", false],
    ["NO", false],
    ["oFF", false],
    ["0", false],
  ])("default %j is %s", (value, expected) => {
    expect(definitions(one("BOOL", { default: value }))).toEqual([expect.objectContaining({ type: "BOOL", default: expected })]);
  });

  it("a float 0.0 in YAML is false", () => {
    const doc = toText(one("BOOL", { default: 0 })).replace("default: 0", "default: 0.0");
    expect(checkTemplateText(doc, "yaml").template?.template).toMatchObject({ parameterDefinitions: [{ default: false }] });
  });

  it.each<InvalidRow>([
    ["default 'maybe'", one("BOOL", { default: "maybe" }), `${P}.default`, /'maybe' is not a boolean/],
    ["default 2", one("BOOL", { default: 2 }), `${P}.default`, /2 is not a boolean; only 1 and 0/],
    ["default 0.5", one("BOOL", { default: 0.5 }), `${P}.default`, /0.5 is not a boolean/],
    ["default 't'", one("BOOL", { default: "t" }), `${P}.default`, /not a boolean/],
    ["default ' true' (no trimming)", one("BOOL", { default: " true" }), `${P}.default`, /not a boolean/],
    ["default [true]", one("BOOL", { default: [true] }), `${P}.default`, /expected a boolean, got a list/],
    ["allowedValues (a BOOL has none)", one("BOOL", { allowedValues: [true] }), `${P}.allowedValues`, /unknown field 'allowedValues'/],
    ["minLength", one("BOOL", { minLength: 1 }), `${P}.minLength`, /unknown field/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("RANGE_EXPR (§2.10)", () => {
  it.each<ValidRow>([
    [
      "the conformance forms",
      expr(
        ...["42", "-100", "-10-10", "0-100:10", "10-1:-1", "-1--10:-1", "1-10,20-30:2,42", "20-29,0-9,10-19", " 0 - 1 : 1, 2 - 100 : 1"].map((d, i) => ({
          name: `R${i}`,
          type: "RANGE_EXPR",
          default: d,
        })),
      ),
    ],
    ["int64 endpoints", one("RANGE_EXPR", { default: `-9223372036854775808-${INT64_MAX}` })],
    ["minLength 1 and maxLength 1024", one("RANGE_EXPR", { default: "1-100", minLength: 1, maxLength: 1024 })],
    ["minLength == maxLength == the default's length", one("RANGE_EXPR", { default: "1-9", minLength: 3, maxLength: 3 })],
    ["a default of 1024 characters (trailing blanks are allowed)", one("RANGE_EXPR", { default: "1".padEnd(1024, " ") })],
    ["maxLength above 1024 allows longer defaults", one("RANGE_EXPR", { default: "1".padEnd(1100, " "), maxLength: 2000 })],
    ["no default", one("RANGE_EXPR", { maxLength: 10 })],
  ])("%s", (_name, doc) => expectValid(doc));

  it("keeps the default as written", () => {
    expect(definitions(one("RANGE_EXPR", { default: "10-1:-1", minLength: 2 }))).toEqual([expect.objectContaining({ default: "10-1:-1", minLength: 2 })]);
  });

  it.each<InvalidRow>([
    ["not a range (conformance 2.10--range-expr-param-invalid-default)", one("RANGE_EXPR", { default: "not-a-range" }), `${P}.default`, /'not-a-range' is not a range expression: unexpected 'n'/],
    ["an endpoint past int64 (conformance 2.10--range-expr-endpoint-int64-overflow)", one("RANGE_EXPR", { default: "1-9223372036854775808" }), `${P}.default`, /outside the 64-bit integer range/],
    ["empty", one("RANGE_EXPR", { default: "" }), `${P}.default`, /empty range expression/],
    ["overlapping items", one("RANGE_EXPR", { default: "1-5,3" }), `${P}.default`, /overlap/],
    ["a step of 0", one("RANGE_EXPR", { default: "1-5:0" }), `${P}.default`, /step 0/],
    ["an integer default (a range expression is a string)", one("RANGE_EXPR", { default: 5 }), `${P}.default`, /expected a string, got an integer/],
    ["minLength 0", one("RANGE_EXPR", { minLength: 0 }), `${P}.minLength`, /minLength must be greater than zero/],
    ["maxLength below minLength", one("RANGE_EXPR", { minLength: 5, maxLength: 4 }), `${P}.maxLength`, /greater than or equal to minLength/],
    ["default shorter than minLength", one("RANGE_EXPR", { default: "1", minLength: 2 }), `${P}.default`, /shorter than minLength 2/],
    ["default longer than maxLength", one("RANGE_EXPR", { default: "1-100", maxLength: 4 }), `${P}.default`, /5 characters long; maxLength allows 4/],
    ["default of 1025 characters without maxLength", one("RANGE_EXPR", { default: "1".padEnd(1025, " ") }), `${P}.default`, /1025 characters long; at most 1024/],
    ["allowedValues", one("RANGE_EXPR", { allowedValues: ["1"] }), `${P}.allowedValues`, /unknown field/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("valid list definitions", () => {
  it.each<ValidRow>([
    ["LIST[STRING] with an empty default and minLength 0", one("LIST[STRING]", { default: [], minLength: 0 })],
    [
      "LIST[STRING] fully constrained (conformance 2.11 FullyConstrained)",
      one("LIST[STRING]", { default: ["hello", "world"], minLength: 1, maxLength: 5, item: { allowedValues: ["hello", "world", "foo"], minLength: 3, maxLength: 5 } }),
    ],
    ["LIST[STRING] items of 1024 characters and empty ones", one("LIST[STRING]", { default: ["x".repeat(1024), ""] })],
    ["LIST[STRING] an empty item mapping", one("LIST[STRING]", { item: {} })],
    ["LIST[PATH] with objectType, dataFlow and absolute defaults (refused only at job creation)", one("LIST[PATH]", { objectType: "FILE", dataFlow: "INOUT", default: ["/data/a.exr", "s3://b/k"] })],
    ["LIST[PATH] item.allowedValues (conformance 2.12--list-path-item-allowed-values)", one("LIST[PATH]", { default: ["/a"], item: { allowedValues: ["/a", "/b"] } })],
    ["LIST[INT] intstrings and int64 limits", one("LIST[INT]", { default: ["007", INT64_MAX, -5], item: { minValue: "-10", maxValue: INT64_MAX } })],
    ["LIST[INT] item.allowedValues compared numerically", one("LIST[INT]", { default: [4, "2"], item: { allowedValues: ["04", 2] } })],
    ["LIST[FLOAT] integers, floats and floatstrings", one("LIST[FLOAT]", { default: [1, 2.5, "3.50"], item: { minValue: "0.5", maxValue: 10, allowedValues: [1, 2.5, 3.5] } })],
    ["LIST[BOOL] with every spelling (conformance 2.15)", one("LIST[BOOL]", { default: [true, "no", 1, "OFF", 0, "Yes"], minLength: 6, maxLength: 6 })],
    ["LIST[LIST[INT]] with an empty inner list", one("LIST[LIST[INT]]", { default: [[1, 2], [], ["3"]] })],
    [
      "LIST[LIST[INT]] constrained at every level",
      one("LIST[LIST[INT]]", { default: [[1, 2], [3]], minLength: 1, maxLength: 3, item: { minLength: 1, maxLength: 2, item: { minValue: 1, maxValue: 3, allowedValues: [1, 2, 3] } } }),
    ],
  ])("%s", (_name, doc) => expectValid(doc));

  it("stores typed defaults and item constraints", () => {
    const doc = expr(
      { name: "S", type: "list[string]", default: ["a"], item: { maxLength: 3 } },
      { name: "I", type: "LIST[INT]", default: ["2"], item: { maxValue: "9" } },
      { name: "F", type: "LIST[FLOAT]", default: ["1.50"] },
      { name: "B", type: "LIST[BOOL]", default: ["on", 0] },
      { name: "M", type: "LIST[LIST[INT]]", default: [[1], []], item: { item: { minValue: 0 } } },
    );
    expect(definitions(doc)).toMatchObject([
      { type: "LIST[STRING]", default: ["a"], item: { maxLength: 3 } },
      { type: "LIST[INT]", default: [2n], item: { maxValue: 9n } },
      { type: "LIST[FLOAT]", default: [{ value: 1.5, text: "1.50" }] },
      { type: "LIST[BOOL]", default: [true, false] },
      { type: "LIST[LIST[INT]]", default: [[1n], []], item: { item: { minValue: 0n } } },
    ]);
  });
});

describe("invalid list definitions", () => {
  const D = `${P}.default`;
  it.each<InvalidRow>([
    ["a scalar default (conformance 2.11--list-string-scalar-not-list)", one("LIST[STRING]", { default: "notalist" }), D, /expected a list, got a string/],
    ["numbers in LIST[STRING] (conformance 2.11--list-string-wrong-item-type)", one("LIST[STRING]", { default: ["a", 123] }), `${D}[1]`, /expected a string, got an integer/],
    ["a null item", one("LIST[STRING]", { default: ["a", null] }), `${D}[1]`, /null is not allowed in a list/],
    ["too many items (conformance 2.11--list-string-too-long)", one("LIST[STRING]", { default: ["a", "b", "c"], maxLength: 2 }), D, /the list has 3 items; maxLength is 2/],
    ["too few items (conformance 2.11--list-string-too-short)", one("LIST[STRING]", { default: [], minLength: 1 }), D, /the list has 0 items; minLength is 1/],
    [
      "an item not allowed (conformance 2.11--list-string-item-not-in-allowed)",
      one("LIST[STRING]", { default: ["a", "x"], item: { allowedValues: ["a", "b"] } }),
      `${D}[1]`,
      /'x' is not one of item.allowedValues \('a', 'b'\)/,
    ],
    ["an item too long", one("LIST[STRING]", { default: ["abcdef"], item: { maxLength: 3 } }), `${D}[0]`, /longer than item.maxLength 3/],
    ["an item too short", one("LIST[PATH]", { default: [""], item: { minLength: 1 } }), `${D}[0]`, /shorter than item.minLength 1/],
    ["an item of 1025 characters", one("LIST[STRING]", { default: ["x".repeat(1025)] }), `${D}[0]`, /1025 characters long; at most 1024/],
    ["a LIST[PATH] item outside item.allowedValues as written", one("LIST[PATH]", { default: ["/a", "/z"], item: { allowedValues: ["/a"] } }), `${D}[1]`, /'\/z' is not one of item.allowedValues/],
    ["minLength -1", one("LIST[STRING]", { minLength: -1 }), `${P}.minLength`, /zero or greater/],
    ["maxLength 0", one("LIST[STRING]", { maxLength: 0 }), `${P}.maxLength`, /greater than zero/],
    ["maxLength below minLength", one("LIST[INT]", { minLength: 3, maxLength: 2 }), `${P}.maxLength`, /greater than or equal to minLength/],
    ["top-level allowedValues", one("LIST[STRING]", { allowedValues: ["a"] }), `${P}.allowedValues`, /unknown field 'allowedValues'/],
    ["item that is not a mapping", one("LIST[STRING]", { item: ["a"] }), `${P}.item`, /expected a mapping/],
    ["empty item.allowedValues", one("LIST[STRING]", { item: { allowedValues: [] } }), `${P}.item.allowedValues`, /must not be empty/],
    ["item.minValue on LIST[STRING]", one("LIST[STRING]", { item: { minValue: 1 } }), `${P}.item.minValue`, /unknown field 'minValue'/],
    [
      "an item.allowedValues entry longer than item.maxLength",
      one("LIST[STRING]", { item: { allowedValues: ["abcd"], maxLength: 3 } }),
      `${P}.item.allowedValues[0]`,
      /longer than item.maxLength \(3\)/,
    ],
    ["objectType of LIST[PATH] misspelled", one("LIST[PATH]", { objectType: "FOLDER" }), `${P}.objectType`, /not one of FILE, DIRECTORY/],
    ["objectType on LIST[STRING]", one("LIST[STRING]", { objectType: "FILE" }), `${P}.objectType`, /unknown field/],
    ["a float in LIST[INT]", one("LIST[INT]", { default: [1, 1.5] }), `${D}[1]`, /expected an integer, got a number \(1.5\)/],
    ["a boolean in LIST[INT]", one("LIST[INT]", { default: [true] }), `${D}[0]`, /expected an integer, got a boolean/],
    ["past int64 in LIST[INT]", one("LIST[INT]", { default: [INT64_MAX + 1n] }), `${D}[0]`, /64-bit/],
    ["above item.maxValue", one("LIST[INT]", { default: [1, 11], item: { maxValue: 10 } }), `${D}[1]`, /11 is above item.maxValue 10/],
    ["below item.minValue, written as intstrings", one("LIST[INT]", { default: ["9"], item: { minValue: "010" } }), `${D}[0]`, /9 is below item.minValue 10/],
    ["not in item.allowedValues", one("LIST[INT]", { default: [3], item: { allowedValues: [1, 2] } }), `${D}[0]`, /3 is not one of item.allowedValues \(1, 2\)/],
    ["item.minValue above item.maxValue", one("LIST[INT]", { item: { minValue: 5, maxValue: 4 } }), `${P}.item.maxValue`, /greater than or equal to minValue/],
    ["an item.allowedValues entry below item.minValue", one("LIST[INT]", { item: { minValue: 5, allowedValues: [4] } }), `${P}.item.allowedValues[0]`, /below item.minValue/],
    ["item.minLength on LIST[INT]", one("LIST[INT]", { item: { minLength: 1 } }), `${P}.item.minLength`, /unknown field/],
    ["a word in LIST[FLOAT]", one("LIST[FLOAT]", { default: ["abc"] }), `${D}[0]`, /'abc' is not a number/],
    ["LIST[FLOAT] below item.minValue", one("LIST[FLOAT]", { default: [0.25], item: { minValue: "0.5" } }), `${D}[0]`, /0.25 is below item.minValue 0.5/],
    ["LIST[BOOL] with item constraints", one("LIST[BOOL]", { item: {} }), `${P}.item`, /LIST\[BOOL\] takes no item constraints/],
    ["LIST[BOOL] item 'maybe'", one("LIST[BOOL]", { default: [true, "maybe"] }), `${D}[1]`, /'maybe' is not a boolean/],
    ["LIST[BOOL] item 2", one("LIST[BOOL]", { default: [2] }), `${D}[0]`, /not a boolean/],
    ["LIST[LIST[INT]] with scalar items", one("LIST[LIST[INT]]", { default: [[1], 2] }), `${D}[1]`, /expected a list, got an integer/],
    ["LIST[LIST[INT]] with a null inner item", one("LIST[LIST[INT]]", { default: [[1], [2, null]] }), `${D}[1][1]`, /null is not allowed/],
    ["LIST[LIST[INT]] three levels deep", one("LIST[LIST[INT]]", { default: [[[1]]] }), `${D}[0][0]`, /expected an integer, got a list/],
    ["LIST[LIST[INT]] inner list too long", one("LIST[LIST[INT]]", { default: [[1], [1, 2, 3]], item: { maxLength: 2 } }), `${D}[1]`, /the inner list has 3 items; item.maxLength is 2/],
    ["LIST[LIST[INT]] integer above item.item.maxValue", one("LIST[LIST[INT]]", { default: [[1, 9]], item: { item: { maxValue: 5 } } }), `${D}[0][1]`, /9 is above item.item.maxValue 5/],
    ["LIST[LIST[INT]] item.allowedValues", one("LIST[LIST[INT]]", { item: { allowedValues: [1] } }), `${P}.item.allowedValues`, /unknown field/],
    ["LIST[LIST[INT]] item.item.minLength", one("LIST[LIST[INT]]", { item: { item: { minLength: 1 } } }), `${P}.item.item.minLength`, /unknown field/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});
