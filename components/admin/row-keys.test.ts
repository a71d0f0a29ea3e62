import { describe, expect, it } from "vitest";
import { nextFocus } from "./row-keys";

const controls = [3, 1, 0, 4];

describe("nextFocus", () => {
  it.each([
    { name: "down keeps the column", key: "ArrowDown", row: 0, control: 0, expected: [1, 0] },
    { name: "down to a row with fewer controls takes its last", key: "ArrowDown", row: 0, control: 2, expected: [1, 0] },
    { name: "up into a row without controls does nothing", key: "ArrowUp", row: 3, control: 3, expected: null },
    { name: "up from the first row does nothing", key: "ArrowUp", row: 0, control: 1, expected: null },
    { name: "down from the last row does nothing", key: "ArrowDown", row: 3, control: 0, expected: null },
    { name: "other keys are left alone", key: "Enter", row: 1, control: 0, expected: null },
    { name: "up into a row with controls", key: "ArrowUp", row: 1, control: 0, expected: [0, 0] },
  ])("$name", ({ key, row, control, expected }) => {
    expect(nextFocus(key, row, control, controls.length, (r) => controls[r] ?? 0)).toEqual(expected);
  });
});
