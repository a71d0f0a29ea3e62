import { describe, expect, it } from "vitest";
import { foldReports, reportOf, shownReport, type ActionReport } from "./action-report";

describe("reportOf", () => {
  it.each([
    ["openjd_progress: 50", { progress: 50 }],
    ["openjd_progress: 12.5", { progress: 12.5 }],
    ["openjd_progress: 100", { progress: 100 }],
    ["openjd_progress: 101 -- ERROR: Progress must be a floating point value between 0.0 and 100.0, inclusive.", null],
    ["openjd_progress: abc", null],
    ["openjd_status: Rendering frame 3", { status: "Rendering frame 3" }],
    ["openjd_status: key ********", { status: "key ********" }],
    ["OPENJD_STATUS: shout", null],
    [" openjd_progress: 5", null],
    ["echo openjd_progress: 5", null],
    ["plain output", null],
  ] as const)("%j → %j", (line, expected) => {
    expect(reportOf(line)).toEqual(expected);
  });
});

describe("foldReports", () => {
  const line = (actionId: string | null, text: string, id = 1) => ({ id, actionId, time: 0, line: text });

  it("keeps the newest progress and status per action", () => {
    const reports = foldReports(new Map(), [
      line("a", "openjd_progress: 10"),
      line("a", "openjd_status: first"),
      line("b", "openjd_progress: 70"),
      line("a", "openjd_progress: 40"),
      line(null, "openjd_progress: 99"),
    ]);
    expect(Object.fromEntries(reports)).toEqual({ a: { progress: 40, status: "first" }, b: { progress: 70, status: null } });
  });

  it("returns the same map when nothing reports", () => {
    const before = new Map<string, ActionReport>([["a", { progress: 1, status: null }]]);
    expect(foldReports(before, [line("a", "hello"), line("a", "openjd_progress: x")])).toBe(before);
  });
});

describe("shownReport", () => {
  it.each([
    [{ progress: 20, statusMessage: "synced" }, undefined, { progress: 20, status: "synced" }],
    [
      { progress: 20, statusMessage: "synced" },
      { progress: 50, status: null },
      { progress: 50, status: "synced" },
    ],
    [
      { progress: null, statusMessage: null },
      { progress: null, status: "from log" },
      { progress: null, status: "from log" },
    ],
  ] as const)("%j with %j → %j", (synced, fromLog, expected) => {
    expect(shownReport(synced, fromLog)).toEqual(expected);
  });
});
