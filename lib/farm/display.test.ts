import { describe, expect, it } from "vitest";
import { ago, barSegments, elapsed, formatDuration, formatTimestamp, outcomeSummary, statusLabel, toneOf } from "./display";
import { emptyCounts, type StatusCounts } from "./statuses";

function counts(values: Partial<StatusCounts>): StatusCounts {
  return { ...emptyCounts(), ...values };
}

describe("formatDuration", () => {
  it.each([
    [0, "0 ms"],
    [849.6, "850 ms"],
    [1000, "1.0 s"],
    [12_449, "12.4 s"],
    [59_999, "60.0 s"],
    [60_000, "1 min 00 s"],
    [185_000, "3 min 05 s"],
    [3_600_000, "1 h 00 min"],
    [7_620_000, "2 h 07 min"],
    [-1, "—"],
    [Number.NaN, "—"],
  ])("%s ms → %s", (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe("elapsed and ago", () => {
  it.each([
    [null, null, 5000, "—"],
    [1000, null, 4000, "3.0 s"],
    [1000, 2500, 99_999, "1.5 s"],
  ])("elapsed(%s, %s, now %s) → %s", (start, end, now, text) => expect(elapsed(start, end, now)).toBe(text));

  it.each([
    [null, 0, "never"],
    [10_000, 12_000, "just now"],
    [0, 42_000, "42 s ago"],
    [0, 300_000, "5 min ago"],
    [0, 3 * 3_600_000, "3 h ago"],
    [0, 2 * 86_400_000 + 5, "2 d ago"],
    [10_000, 0, "just now"],
  ])("ago(%s, now %s) → %s", (at, now, text) => expect(ago(at, now)).toBe(text));
});

describe("roll-up bars", () => {
  it("lists non-empty statuses, finished first, with their share", () => {
    expect(barSegments(counts({ READY: 2, SUCCEEDED: 1, RUNNING: 1 }))).toEqual([
      { status: "SUCCEEDED", count: 1, percent: 25 },
      { status: "RUNNING", count: 1, percent: 25 },
      { status: "READY", count: 2, percent: 50 },
    ]);
  });

  it("has no segments and 0 % succeeded without tasks", () => {
    expect(barSegments(emptyCounts())).toEqual([]);
    expect(outcomeSummary(emptyCounts())).toEqual({ percentSucceeded: 0, text: "0% succeeded" });
  });

  it.each([
    [{ SUCCEEDED: 1, READY: 2 }, 33, "33% succeeded"],
    [{ SUCCEEDED: 1, FAILED: 1, CANCELED: 1, NOT_COMPATIBLE: 1 }, 25, "25% succeeded · 1 failed · 1 canceled · 1 not compatible"],
    [{ RUNNING: 3, SUCCEEDED: 1 }, 25, "25% succeeded"],
    // A canceled job with 40 of 200 frames rendered is 20 % succeeded, not "100 % done".
    [{ SUCCEEDED: 40, CANCELED: 160 }, 20, "20% succeeded · 160 canceled"],
    [{ SUCCEEDED: 1_999, FAILED: 1 }, 99, "99% succeeded · 1 failed"],
  ])("outcomeSummary(%j): %i %%, %s", (values, percent, text) => expect(outcomeSummary(counts(values))).toEqual({ percentSucceeded: percent, text }));
});

describe("labels", () => {
  it.each([
    ["NOT_COMPATIBLE", "Not compatible"],
    ["READY", "Ready"],
    ["ENV_ENTER", "Env enter"],
  ])("%s → %s", (status, label) => expect(statusLabel(status)).toBe(label));

  it("prints timestamps in UTC without milliseconds", () => {
    expect(formatTimestamp(Date.UTC(2026, 10, 30, 4, 5, 6, 789))).toBe("2026-11-30 04:05:06 UTC");
    expect(formatTimestamp(null)).toBe("—");
  });
});

describe("toneOf", () => {
  it.each([
    ["RUNNING", "active"],
    ["NOT_COMPATIBLE", "bad"],
    ["SUCCEEDED", "good"],
    ["IDLE", "ready"],
    ["NEVER_ATTEMPTED", "paused"],
    ["STOPPED", "off"],
    ["TIMEOUT", "bad"],
    ["ENDED", "waiting"],
  ])("%s → %s", (status, tone) => expect(toneOf(status)).toBe(tone));
});
