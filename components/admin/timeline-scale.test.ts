import { describe, expect, it } from "vitest";
import { spanBox, timelineTicks } from "./timeline-scale";

describe("spanBox", () => {
  it.each([
    ["inside", 1_250, 1_500, { left: 25, width: 25 }],
    ["crossing the start", 500, 1_200, { left: 0, width: 20 }],
    ["crossing the end", 1_900, 2_500, { left: 90, width: 10 }],
    ["running, to now", 1_600, null, { left: 60, width: 20 }],
    ["too short to see, widened", 1_500, 1_500, { left: 50, width: 0.25 }],
  ] as const)("a span %s", (_, start, end, box) => {
    expect(spanBox(start, end, 1_000, 2_000, 1_800)).toEqual(box);
  });
});

describe("timelineTicks", () => {
  it("puts ticks at round times inside the window, at most the number asked", () => {
    const from = Date.UTC(2026, 0, 1, 10, 7);
    const ticks = timelineTicks(from, from + 3_600_000);
    expect(ticks.map((t) => new Date(t.at).toISOString().slice(11, 16))).toEqual(["10:10", "10:20", "10:30", "10:40", "10:50", "11:00"]);
    expect(ticks[0]!.percent).toBeCloseTo((3 / 60) * 100);
    expect(timelineTicks(from, from + 24 * 3_600_000).length).toBeLessThanOrEqual(8);
  });
});
