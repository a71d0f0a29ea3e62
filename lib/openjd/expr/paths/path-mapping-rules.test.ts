import { describe, expect, it } from "vitest";
import { validatePathMappingRules } from "./path-mapping-rules";

const rule = { source_path_format: "POSIX", source_path: "/src/data", destination_path: "/mnt/data" };
const document = (rules: unknown[]): unknown => ({ version: "pathmapping-1.0", path_mapping_rules: rules });

describe("validatePathMappingRules", () => {
  it("reads a document, upper-casing the formats", () => {
    const result = validatePathMappingRules(document([rule, { ...rule, source_path_format: "windows", source_path: "C:\\src" }, { ...rule, source_path_format: "Uri", source_path: "s3://b/k" }]));
    expect(result).toEqual({
      ok: true,
      rules: [rule, { source_path_format: "WINDOWS", source_path: "C:\\src", destination_path: "/mnt/data" }, { source_path_format: "URI", source_path: "s3://b/k", destination_path: "/mnt/data" }],
    });
  });

  it.each([
    ["the empty object a Session without rules writes", {}],
    ["an empty rule list", document([])],
    ["other top-level keys", { ...(document([]) as object), note: "ignored" }],
  ])("accepts %s", (_label, json) => {
    expect(validatePathMappingRules(json)).toEqual({ ok: true, rules: [] });
  });

  it.each<[string, unknown, string]>([
    ["an array", [], "Path mapping rules must be a JSON object"],
    ["null", null, "Path mapping rules must be a JSON object"],
    ["a string", "pathmapping-1.0", "Path mapping rules must be a JSON object"],
    ["no version", { path_mapping_rules: [] }, "Path mapping rules must have a 'version' value of 'pathmapping-1.0'"],
    ["another version", { version: "pathmapping-2.0", path_mapping_rules: [] }, "Path mapping rules must have a 'version' value of 'pathmapping-1.0'"],
    ["no rule list", { version: "pathmapping-1.0" }, "Path mapping rules must contain a list named 'path_mapping_rules'"],
    ["a rule map", { version: "pathmapping-1.0", path_mapping_rules: {} }, "Path mapping rules must contain a list named 'path_mapping_rules'"],
    ["a rule that is not an object", document(["/a"]), "path_mapping_rules[0]: A path mapping rule must be a JSON object"],
    ["an empty rule", document([rule, {}]), "path_mapping_rules[1]: Empty path mapping rule"],
    [
      "a missing field",
      document([{ source_path_format: "POSIX", source_path: "/a" }]),
      "path_mapping_rules[0]: Path mapping rule requires the following fields: ['source_path_format', 'source_path', 'destination_path']",
    ],
    ["an extra field", document([{ ...rule, x: 1, y: 2 }]), "path_mapping_rules[0]: Unsupported fields for constructing path mapping rule: {'x', 'y'}"],
    ["an unknown format", document([{ ...rule, source_path_format: "MAC" }]), "path_mapping_rules[0]: 'MAC' is not a valid PathFormat"],
    ["a format that is not a string", document([{ ...rule, source_path_format: 1 }]), "path_mapping_rules[0]: 'source_path_format' must be a string"],
    ["a source that is not a string", document([{ ...rule, source_path: ["/a"] }]), "path_mapping_rules[0]: 'source_path' must be a non-empty string"],
    ["an empty source", document([{ ...rule, source_path: "" }]), "path_mapping_rules[0]: 'source_path' must be a non-empty string"],
    ["an empty destination", document([{ ...rule, destination_path: "" }]), "path_mapping_rules[0]: 'destination_path' must be a non-empty string"],
    [
      "a URI rule without a URI",
      document([{ ...rule, source_path_format: "URI" }]),
      "path_mapping_rules[0]: A URI path mapping rule needs a 'source_path' of the form scheme://authority/path, not '/src/data'",
    ],
  ])("refuses %s", (_label, json, message) => {
    expect(validatePathMappingRules(json)).toEqual({ ok: false, message });
  });
});
