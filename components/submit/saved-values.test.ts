import { describe, expect, it } from "vitest";
import { definitions } from "@/lib/openjd/testing";
import { buildParameterForm, fieldInput } from "@/lib/openjd";
import { savedValues } from "./saved-values";

const FORM = buildParameterForm(
  definitions(
    `- {name: Shot, type: STRING}
- {name: Frames, type: INT}
- {name: Layers, type: 'LIST[STRING]'}
- {name: Ranges, type: 'LIST[LIST[INT]]'}`,
    "extensions: [EXPR]\n",
  ),
);

describe("savedValues", () => {
  it("writes scalars as text, lists one item a line, nested lists as JSON; skips absent, null and unknown names", () => {
    const saved = { Shot: "sh010", Frames: 5n, Layers: ["bg", "fg"], Ranges: [[1, 2], [3]], Missing: null, Other: "x" };
    expect(savedValues(FORM, saved)).toEqual({ Shot: "sh010", Frames: "5", Layers: "bg\nfg", Ranges: "[1,2]\n[3]" });
    expect(savedValues(FORM, undefined)).toEqual({});
  });

  it("gives text the form reads back as the saved values", () => {
    const text = savedValues(FORM, { Layers: ["bg", "fg"], Ranges: [[1, 2], [3]] });
    const byName = new Map(FORM.fields.map((f) => [f.name, f]));
    expect(fieldInput(byName.get("Layers")!, text.Layers!)).toEqual(["bg", "fg"]);
    expect(fieldInput(byName.get("Ranges")!, text.Ranges!)).toEqual([["1", "2"], ["3"]]);
  });
});
