import { describe, expect, it } from "vitest";
import { checkTemplateText } from "@/lib/openjd";
import { STARTER_TEMPLATE, suggestedName } from "./starter-template";

describe("starter template", () => {
  it("is a valid job template", () => {
    expect(checkTemplateText(STARTER_TEMPLATE, "yaml").errors).toEqual([]);
  });
});

describe("suggestedName", () => {
  it.each([
    [STARTER_TEMPLATE, "Render {{Param.Frames}}"],
    ["specificationVersion: jobtemplate-2023-09\nname: 'Shot 010'\n", "Shot 010"],
    ['{\n"specificationVersion": "jobtemplate-2023-09",\n"name": "Comp",\n"steps": []\n}', "Comp"],
    ["specificationVersion: environment-2023-09\nenvironment:\n  name: Conda\n", "Conda"],
    ["specificationVersion: jobtemplate-2023-09\n", "Untitled template"],
  ])("%j → %s", (text, expected) => {
    expect(suggestedName(text)).toBe(expected);
  });
});
