import { describe, expect, it } from "vitest";
import { chartBars, chartSummary, minuteLabel, niceCeiling } from "./chart-geometry";

describe("niceCeiling", () => {
  it.each([
    [0, 1],
    [1, 1],
    [2, 2],
    [3, 5],
    [7, 10],
    [10, 10],
    [11, 20],
    [180, 200],
    [201, 500],
    [999, 1000],
  ])("%i → %i", (n, expected) => expect(niceCeiling(n)).toBe(expected));
});

describe("chartBars", () => {
  it("stacks failed above succeeded on a scale rounded up from the busiest minute", () => {
    const { max, bars } = chartBars(
      [
        { start: 0, succeeded: 6, failed: 2 },
        { start: 60_000, succeeded: 0, failed: 0 },
      ],
      { width: 200, height: 100, gap: 2 },
    );
    expect(max).toBe(10);
    expect(bars).toEqual([
      { start: 0, x: 1, width: 98, succeeded: { y: 40, height: 60 }, failed: { y: 20, height: 20 } },
      { start: 60_000, x: 101, width: 98, succeeded: { y: 100, height: 0 }, failed: { y: 100, height: 0 } },
    ]);
  });

  it("draws an empty window on a scale of 1", () => {
    expect(chartBars([{ start: 0, succeeded: 0, failed: 0 }], { width: 10, height: 10, gap: 0 }).max).toBe(1);
    expect(chartBars([], { width: 10, height: 10, gap: 0 })).toEqual({ max: 1, bars: [] });
  });
});

describe("chartSummary", () => {
  it.each([
    { name: "nothing", minutes: [{ start: 0, succeeded: 0, failed: 0 }], text: "No task finished in the last 1 minute." },
    {
      name: "totals and the busiest minute",
      minutes: [
        { start: Date.UTC(2026, 0, 1, 14, 4), succeeded: 3, failed: 0 },
        { start: Date.UTC(2026, 0, 1, 14, 5), succeeded: 4, failed: 1 },
      ],
      text: "8 tasks finished in the last 2 minutes (1 failed); the busiest minute, 14:05 UTC, had 5.",
    },
  ])("$name", ({ minutes, text }) => expect(chartSummary(minutes)).toBe(text));

  it("labels minutes in UTC", () => expect(minuteLabel(Date.UTC(2026, 5, 1, 9, 7, 30))).toBe("09:07 UTC"));
});
