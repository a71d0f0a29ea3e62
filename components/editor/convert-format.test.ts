import { describe, expect, it } from "vitest";
import { checkTemplateText } from "@/lib/openjd";
import { convertTemplate, detectContentFormat } from "./convert-format";

const YAML =
  "specificationVersion: jobtemplate-2023-09\nname: J # a comment\nparameterDefinitions:\n- {name: N, type: INT, default: 9007199254740993}\n- {name: F, type: FLOAT, default: 1.50}\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo, args: ['a \"b\"']}\n";

describe("detectContentFormat", () => {
  it.each([
    ['{"a": 1}', "json"],
    ["\n  [1]", "json"],
    ["a: 1", "yaml"],
    ["", "yaml"],
    ["# {comment}\na: 1", "yaml"],
  ])("%j is %s", (text, format) => {
    expect(detectContentFormat(text)).toBe(format);
  });
});

describe("convertTemplate", () => {
  it("turns YAML into JSON that checks the same, keeping exact integers and written floats", () => {
    const result = convertTemplate(YAML, "yaml", "json");
    if (!result.ok) throw new Error(result.message);
    expect(result.text).toContain('"default": 9007199254740993');
    expect(result.text).toContain('"default": 1.50');
    expect(result.text).toContain('"args": [\n');
    expect(detectContentFormat(result.text)).toBe("json");
    expect(checkTemplateText(result.text, "json").errors).toEqual([]);
  });

  it("round-trips back to YAML that checks clean", () => {
    const json = convertTemplate(YAML, "yaml", "json");
    if (!json.ok) throw new Error(json.message);
    const yaml = convertTemplate(json.text, "json", "yaml");
    if (!yaml.ok) throw new Error(yaml.message);
    expect(detectContentFormat(yaml.text)).toBe("yaml");
    expect(checkTemplateText(yaml.text, "yaml").errors).toEqual([]);
    expect(yaml.text).toContain("9007199254740993");
  });

  it("refuses to convert text that does not parse, saying where", () => {
    expect(convertTemplate("a: [1,\n", "yaml", "json")).toMatchObject({ ok: false, message: expect.stringMatching(/^fix the YAML syntax first \(\d+:\d+\)/) });
  });
});
