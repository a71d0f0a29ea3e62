import { describe, expect, it } from "vitest";
import { balancedChunkSizes, chunkValues, type RangeConstraint } from "./chunking";
import { IntRangeExpr } from "./range-expr";

const valuesOf = (text: string): bigint[] => [...IntRangeExpr.parse(text).values()];

describe("chunkValues", () => {
  it.each<[string, number, RangeConstraint, string[]]>([
    // conformance TASK_CHUNKING/jobs fixtures
    ["1-12", 5, "CONTIGUOUS", ["1-4", "5-8", "9-12"]],
    ["1-8", 3, "CONTIGUOUS", ["1-3", "4-6", "7-8"]],
    ["1-5", 100, "CONTIGUOUS", ["1-5"]],
    ["1-6", 2, "CONTIGUOUS", ["1-2", "3-4", "5-6"]],
    ["1-8", 3, "NONCONTIGUOUS", ["1-3", "4-6", "7,8"]],
    ["1-10", 5, "NONCONTIGUOUS", ["1-5", "6-10"]],
    // contiguity follows the value list, and each run is balanced on its own (the RFC's
    // illustrative 18-27,28-37,38-47,48-50 is not balanced; both reference implementations
    // split the 33-value run 9,8,8,8)
    ["1,10-12,18-50", 10, "CONTIGUOUS", ["1-1", "10-12", "18-26", "27-34", "35-42", "43-50"]],
    // openjd-model reference outputs: larger chunks are spread, not front-loaded
    ["1-10", 3, "CONTIGUOUS", ["1-3", "4-5", "6-8", "9-10"]],
    ["22-40", 3, "CONTIGUOUS", ["22-24", "25-27", "28-30", "31-32", "33-35", "36-38", "39-40"]],
    ["1-35", 10, "CONTIGUOUS", ["1-9", "10-18", "19-27", "28-35"]],
    ["-20--5", 5, "CONTIGUOUS", ["-20--17", "-16--13", "-12--9", "-8--5"]],
    ["0-10000", 10000, "CONTIGUOUS", ["0-5000", "5001-10000"]],
    ["1-5,8-12", 2, "CONTIGUOUS", ["1-2", "3-4", "5-5", "8-9", "10-11", "12-12"]],
    ["1-3,5,7", 100, "CONTIGUOUS", ["1-3", "5-5", "7-7"]],
    ["1-3,5,7", 100, "NONCONTIGUOUS", ["1-3,5,7"]],
    ["1,3,5", 100, "NONCONTIGUOUS", ["1-5:2"]],
    ["5", 3, "CONTIGUOUS", ["5-5"]],
    ["1-10:2", 2, "CONTIGUOUS", ["1-1", "3-3", "5-5", "7-7", "9-9"]],
    ["1-7", 1, "CONTIGUOUS", ["1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "7-7"]],
    ["-3-3", 4, "CONTIGUOUS", ["-3-0", "1-3"]],
    ["1-11", 4, "CONTIGUOUS", ["1-4", "5-8", "9-11"]],
    ["1-10", 4, "CONTIGUOUS", ["1-4", "5-7", "8-10"]],
    // NONCONTIGUOUS balances across gaps and prints the canonical form
    ["1,10-12,18-50", 10, "NONCONTIGUOUS", ["1,10-12,18-23", "24-32", "33-41", "42-50"]],
    ["1-20:2", 4, "NONCONTIGUOUS", ["1-7:2", "9-13:2", "15-19:2"]],
    ["1-5", 100, "NONCONTIGUOUS", ["1-5"]],
    ["1-3", 1, "NONCONTIGUOUS", ["1", "2", "3"]],
    ["1-2,4", 3, "NONCONTIGUOUS", ["1,2,4"]],
  ])("%s by %i %s", (range, defaultTaskCount, rangeConstraint, chunks) => {
    expect(chunkValues(valuesOf(range), { defaultTaskCount, rangeConstraint })).toEqual(chunks);
  });

  it("sorts and deduplicates first", () => {
    const values = [8n, 3n, 1n, 2n, 3n, 7n];
    expect(chunkValues(values, { defaultTaskCount: 2, rangeConstraint: "CONTIGUOUS" })).toEqual(["1-2", "3-3", "7-8"]);
    expect(chunkValues(values, { defaultTaskCount: 3, rangeConstraint: "NONCONTIGUOUS" })).toEqual(["1-3", "7,8"]);
  });

  it("gives no chunks for no values", () => {
    expect(chunkValues([], { defaultTaskCount: 3, rangeConstraint: "CONTIGUOUS" })).toEqual([]);
  });

  it.each([0, -1, 1.5, Number.NaN])("rejects defaultTaskCount %s", (defaultTaskCount) => {
    expect(() => chunkValues([1n], { defaultTaskCount, rangeConstraint: "CONTIGUOUS" })).toThrow(RangeError);
  });
});

describe("balancedChunkSizes", () => {
  it.each([
    [12, 5, [4, 4, 4]],
    [8, 3, [3, 3, 2]],
    [10, 4, [4, 3, 3]],
    [11, 4, [4, 4, 3]],
    [10, 3, [3, 2, 3, 2]],
    // openjd-model divide_chunk_sizes cases
    [49, 25, [25, 24]],
    [51, 26, [26, 25]],
    [37, 36, [19, 18]],
    [37, 17, [13, 12, 12]],
    [37, 9, [8, 7, 8, 7, 7]],
    [37, 4, [4, 4, 4, 3, 4, 4, 3, 4, 4, 3]],
    [37, 3, [3, 3, 3, 3, 3, 3, 2, 3, 3, 3, 3, 3, 2]],
    [37, 2, [...Array<number>(18).fill(2), 1]],
    [100, 1, Array<number>(100).fill(1)],
    [5, 100, [5]],
    [7, 1, [1, 1, 1, 1, 1, 1, 1]],
    [0, 3, []],
  ])("%i values by %i → %j", (total, maxSize, sizes) => {
    expect(balancedChunkSizes(total, maxSize)).toEqual(sizes);
  });
});
