/** Filling the chart's minutes: rows per (minute, status) → one bucket per minute of the window. */
import { describe, expect, it } from "vitest";
import { minuteBuckets } from "./overview";

const M = 1000; // minute index of "now"
const now = M * 60_000 + 59_999;

describe("minuteBuckets", () => {
  it.each([
    {
      name: "no rows: all zero",
      rows: [],
      minutes: 3,
      expected: [
        [M - 2, 0, 0],
        [M - 1, 0, 0],
        [M, 0, 0],
      ],
    },
    {
      name: "succeeded and failed of one minute add up separately",
      rows: [
        { minute: M - 1, status: "SUCCEEDED", n: 4 },
        { minute: M - 1, status: "FAILED", n: 1 },
        { minute: M - 1, status: "SUCCEEDED", n: 2 },
      ],
      minutes: 2,
      expected: [
        [M - 1, 6, 1],
        [M, 0, 0],
      ],
    },
    {
      name: "minutes before the window, after now, and other statuses are left out",
      rows: [
        { minute: M - 2, status: "SUCCEEDED", n: 9 },
        { minute: M + 1, status: "SUCCEEDED", n: 9 },
        { minute: M, status: "CANCELED", n: 9 },
        { minute: M, status: "SUCCEEDED", n: 1 },
      ],
      minutes: 2,
      expected: [
        [M - 1, 0, 0],
        [M, 1, 0],
      ],
    },
  ])("$name", ({ rows, minutes, expected }) => {
    expect(minuteBuckets(rows, now, minutes).map((b) => [b.start / 60_000, b.succeeded, b.failed])).toEqual(expected);
  });
});
