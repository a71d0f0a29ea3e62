import { describe, expect, it } from "vitest";
import { markerSpans } from "./marker-spans";

const LINES = ["steps:", "- name: S", '  bogus: "a b"', "    command: ''", ""];
const span = (line: number | null, column: number | null) => {
  const [s] = markerSpans(LINES, [{ path: "p", line, column, message: "m" }]);
  return [s!.startLineNumber, s!.startColumn, s!.endColumn];
};

describe("markerSpans", () => {
  it.each([
    ["a key", 3, 3, [3, 3, 8]],
    ["a quoted value", 3, 10, [3, 10, 15]],
    ["an empty single-quoted value", 4, 14, [4, 14, 16]],
    ["a column past the end: the whole line", 2, 40, [2, 1, 10]],
    ["an error without a place: line 1", null, null, [1, 1, 6]],
    ["a line past the end: the last line", 9, 1, [5, 1, 2]],
  ])("%s", (_label, line, column, expected) => {
    expect(span(line, column)).toEqual(expected);
  });

  it("carries the message as `loom check` prints it", () => {
    expect(markerSpans(LINES, [{ path: "steps[0].bogus", line: 3, column: 3, message: "unknown field" }])[0]?.message).toBe("steps[0].bogus (3:3): unknown field");
  });
});
