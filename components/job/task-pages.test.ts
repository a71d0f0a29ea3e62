import { describe, expect, it } from "vitest";
import { idsAtRows, pagesForRange, pagesForRows } from "./task-pages";

describe("pagesForRange", () => {
  it.each<[string, [number, number, number, number, number], number[]]>([
    ["first screen", [0, 30, 10_000, 0, 200], [0]],
    ["a range across a page boundary", [190, 210, 10_000, 0, 200], [0, 1]],
    ["the margin reaches the next page", [150, 180, 10_000, 40, 200], [0, 1]],
    ["the margin stops at row 0", [5, 20, 10_000, 100, 200], [0]],
    ["the margin stops at the last row", [9_990, 9_999, 10_000, 100, 200], [49]],
    ["an empty table still asks for page 0 (for its total)", [0, -1, 0, 10, 200], [0]],
    ["a range past a shrunken list", [500, 520, 100, 0, 200], [0]],
  ])("%s", (_name, [first, last, count, margin, size], pages) => {
    expect(pagesForRange(first, last, count, margin, size)).toEqual(pages);
  });
});

describe("selected rows", () => {
  it("finds the pages of scattered rows, once each, in order", () => {
    expect(pagesForRows([450, 3, 199, 200, 401], 200)).toEqual([0, 1, 2]);
  });

  it("maps rows to ids through their pages and skips rows not loaded", () => {
    const pages = new Map([
      [0, [10, 11, 12]],
      [2, [30, 31, 32]],
    ]);
    expect(idsAtRows([0, 2, 4, 7, 8], pages, 3)).toEqual([10, 12, 31, 32]);
  });
});
