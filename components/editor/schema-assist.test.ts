import { describe, expect, it } from "vitest";
import { hoverAt, suggestionsAt } from "./schema-assist";

function split(source: string) {
  const offset = source.indexOf("‸");
  return { text: source.slice(0, offset) + source.slice(offset + 1), offset };
}

const labels = (source: string, format: "yaml" | "json" = "yaml") => {
  const { text, offset } = split(source);
  return suggestionsAt(text, offset, format).items.map((i) => i.label);
};

describe("suggestionsAt", () => {
  it.each([
    [
      "job template root keys, minus those present",
      "specificationVersion: jobtemplate-2023-09\n‸",
      ["$schema", "extensions", "parameterDefinitions", "name", "description", "jobEnvironments", "steps"],
    ],
    ["environment template root keys", "specificationVersion: environment-2023-09\n‸", ["$schema", "extensions", "parameterDefinitions", "environment"]],
    ["the version values", "specificationVersion: ‸", ["jobtemplate-2023-09"]],
    ["cancelation modes", "steps:\n- script:\n    actions:\n      onRun:\n        cancelation:\n          mode: ‸", ["TERMINATE", "NOTIFY_THEN_TERMINATE"]],
    ["extension names in a block list", "extensions:\n- ‸", ["TASK_CHUNKING", "REDACTED_ENV_VARS", "FEATURE_BUNDLE_1", "EXPR", "WRAP_ACTIONS", "TASK_DEPENDENCIES"]],
    ["a dependency's keys", "steps:\n- dependencies:\n  - ‸", ["dependsOn", "dependsOnSubspace"]],
    ["a subspace's allOf and anyOf", "steps:\n- dependencies:\n  - dependsOn: S\n    dependsOnSubspace:\n      ‸", ["allOf", "anyOf"]],
    ["a subspace entry's keys", "steps:\n- dependencies:\n  - dependsOn: S\n    dependsOnSubspace:\n    - ‸", ["name", "range"]],
    ["an anyOf entry's keys", "steps:\n- dependencies:\n  - dependsOn: S\n    dependsOnSubspace:\n      anyOf:\n      - ‸", ["name", "range"]],
    ["booleans", "steps:\n- script:\n    embeddedFiles:\n    - runnable: ‸", ["true", "false"]],
    ["nothing under an unknown key", "bogus:\n  ‸", []],
  ])("%s", (_label, source, expected) => {
    expect(labels(source)).toEqual(expected);
  });

  it("offers the step's keys in JSON, quoted, replacing the typed quote", () => {
    const { text, offset } = split('{"steps": [{"name": "S", "‸');
    const result = suggestionsAt(text, offset, "json");
    expect(result.replaceFrom).toBe(offset - 1);
    expect(result.items.find((i) => i.label === "script")).toMatchObject({ insertText: '"script": ', kind: "property", detail: "object" });
    expect(result.items.map((i) => i.label)).not.toContain("name");
  });

  it("quotes string values in JSON", () => {
    const { text, offset } = split('{"parameterDefinitions": [{"name": "P", "type": ‸');
    expect(suggestionsAt(text, offset, "json").items.find((i) => i.label === "LIST[INT]")?.insertText).toBe('"LIST[INT]"');
  });

  it("marks required keys", () => {
    const items = suggestionsAt("steps:\n- ", 9, "yaml").items;
    expect(items.find((i) => i.label === "name")?.detail).toBe("string (required)");
    expect(items.find((i) => i.label === "script")?.detail).toBe("object");
  });
});

describe("hoverAt", () => {
  it("documents a YAML key with its path", () => {
    const { text, offset } = split("steps:\n- name: S\n  parameterSpace:\n    combi‸nation: A * B\n");
    const hover = hoverAt(text, offset, "yaml");
    expect(hover?.contents).toMatch(/^\*\*combination\*\* \(string\)/);
    expect(hover?.contents).toContain("`steps[0].parameterSpace.combination`");
    expect(text.slice(hover!.start, hover!.end)).toBe("combination");
  });

  it("documents a JSON key and says when it is required", () => {
    const { text, offset } = split('{\n  "specificationVersion": "jobtemplate-2023-09",\n  "st‸eps": []\n}');
    const hover = hoverAt(text, offset, "json");
    expect(hover?.contents).toMatch(/^\*\*steps\*\* \(list · required\)/);
    expect(text.slice(hover!.start, hover!.end)).toBe('"steps"');
  });

  it("says nothing for unknown keys or plain text", () => {
    expect(hoverAt("bogus: 1\n", 2, "yaml")).toBeNull();
    expect(hoverAt("steps:\n- name: S\n  script:\n    embeddedFiles:\n    - data: |\n        echo hi\n", 60, "yaml")).toBeNull();
  });
});
