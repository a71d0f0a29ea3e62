import { describe, expect, it } from "vitest";
import { field } from "@/lib/openjd/testing";
import { fieldHint } from "./field-hint";

describe("fieldHint", () => {
  it.each([
    ["no constraints, unit steps", "- {name: A, type: INT}", null],
    ["bounds, capitalised", "- {name: A, type: INT, minValue: 1, maxValue: 9}", /^From 1 to 9$/],
    ["INT step", "- {name: A, type: INT, userInterface: {singleStepDelta: 30}}", "Steps of 30"],
    ["bounds and a step", "- {name: A, type: INT, minValue: 0, userInterface: {singleStepDelta: 5}}", /; steps of 5$/],
    ["FLOAT decimals", "- {name: A, type: FLOAT, userInterface: {decimals: 1}}", "1 decimal, steps of 0.1"],
    ["FLOAT fraction", "- {name: A, type: FLOAT, userInterface: {singleStepDelta: 0.25}}", "Each step changes the value by 25%"],
    ["FLOAT adaptive", "- {name: A, type: FLOAT}", null],
    ["not a spin box", "- {name: A, type: STRING, maxLength: 8}", /^At most 8 characters$/],
  ])("%s", (_case, yaml, expected) => {
    const hint = fieldHint(field(yaml));
    if (expected instanceof RegExp) expect(hint).toMatch(expected);
    else expect(hint).toBe(expected);
  });
});
