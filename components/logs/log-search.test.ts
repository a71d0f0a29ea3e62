import { describe, expect, it } from "vitest";
import { REDACTION_MASK } from "@/lib/openjd";
import { Redactor } from "../../server/session/redaction";
import { findMatches, lineSegments, stepMatch } from "./log-search";

const lines = (texts: string[]) => ({ length: texts.length, at: (i: number) => (texts[i] === undefined ? undefined : { line: texts[i]! }) });

describe("findMatches", () => {
  const log = lines(["Rendering frame 1", "rendering FRAME 2", "done", "Frame 3 failed"]);
  it.each([
    ["frame", 0, [0, 1, 3]],
    ["RENDER", 0, [0, 1]],
    ["frame", 2, [3]],
    ["nothing", 0, []],
    ["", 0, []],
  ] as const)("%j from line %d → %j", (query, from, expected) => {
    expect(findMatches(log, query, from)).toEqual(expected);
  });
});

describe("stepMatch", () => {
  it.each([
    [0, -1, 1, -1],
    [3, -1, 1, 0],
    [3, -1, -1, 2],
    [3, 0, 1, 1],
    [3, 2, 1, 0],
    [3, 0, -1, 2],
  ] as const)("%d matches, at %d, step %d → %d", (count, current, direction, expected) => {
    expect(stepMatch(count, current, direction)).toBe(expected);
  });
});

describe("lineSegments", () => {
  it("masks what the session runtime writes for a redacted value", () => {
    const redactor = new Redactor();
    redactor.add("hunter2");
    const line = redactor.redact("the secret is hunter2, still hunter2");
    expect(lineSegments(line, "")).toEqual([
      { kind: "plain", text: "the secret is " },
      { kind: "masked", text: REDACTION_MASK },
      { kind: "plain", text: ", still " },
      { kind: "masked", text: REDACTION_MASK },
    ]);
  });

  it.each([
    ["plain", "abc", "", [["plain", "abc"]]],
    [
      "hits in any case",
      "Frame frame",
      "FRAME",
      [
        ["match", "Frame"],
        ["plain", " "],
        ["match", "frame"],
      ],
    ],
    [
      "a hit mid-line",
      "a-b-a",
      "b",
      [
        ["plain", "a-"],
        ["match", "b"],
        ["plain", "-a"],
      ],
    ],
    [
      "a query inside a mask is not a hit",
      `x=${"*".repeat(8)}`,
      "*",
      [
        ["plain", "x="],
        ["masked", "********"],
      ],
    ],
    ["an empty line", "", "a", []],
  ] as const)("%s", (_name, line, query, expected) => {
    expect(lineSegments(line, query).map((s) => [s.kind, s.text])).toEqual(expected);
  });
});
