/**
 * TASK_CHUNKING chunk layout (spec §3.4.1.5, RFC 0001) for a fixed chunk size, i.e. when
 * `targetRuntimeSeconds` is 0 or ignored. Adapting chunk sizes to observed run times is a
 * scheduler decision and lives outside this module.
 */
import { compressRangeValues } from "./range-expr";

export type RangeConstraint = "CONTIGUOUS" | "NONCONTIGUOUS";

export interface ChunkLayoutSettings {
  defaultTaskCount: number;
  rangeConstraint: RangeConstraint;
}

/**
 * The chunks of a CHUNK[INT] parameter as range-expression strings, in dispatch order.
 * CONTIGUOUS chunks never span a gap in the values and always print as `a-b` (even `5-5`);
 * NONCONTIGUOUS chunks use the canonical range-expression form (`7,8`, `1-9:2`).
 */
export function chunkValues(sortedValues: readonly bigint[], settings: ChunkLayoutSettings): string[] {
  const { defaultTaskCount, rangeConstraint } = settings;
  if (!Number.isSafeInteger(defaultTaskCount) || defaultTaskCount < 1) {
    throw new RangeError(`defaultTaskCount must be a whole number of at least 1, got ${defaultTaskCount}`);
  }
  const values = ascendingUnique(sortedValues);
  switch (rangeConstraint) {
    case "NONCONTIGUOUS":
      return balancedSlices(values, defaultTaskCount).map(compressRangeValues);
    case "CONTIGUOUS":
      return consecutiveRuns(values).flatMap((run) => balancedSlices(run, defaultTaskCount).map((chunk) => `${chunk[0]}-${chunk.at(-1)}`));
  }
}

/**
 * Sizes for splitting `total` values into chunks of at most `maxSize`: as few chunks as possible,
 * sizes differing by at most one (`1-12` by 5 is 4,4,4, never 5,5,2, as conformance pins). The
 * larger chunks are spread evenly rather than put first, because that is what both reference
 * implementations produce (openjd-model `divide_chunk_sizes`: 37 by 9 is 8,7,8,7,7), and
 * schedulers should agree on chunk boundaries. Chunk `j` is larger when the running count of
 * larger chunks, ceil(j * extra / count), steps up at `j`.
 */
export function balancedChunkSizes(total: number, maxSize: number): number[] {
  if (total === 0) return [];
  const count = Math.ceil(total / maxSize);
  const small = Math.floor(total / count);
  const extra = total % count;
  const largerBefore = (j: number): number => Math.ceil((j * extra) / count);
  return Array.from({ length: count }, (_, j) => small + largerBefore(j + 1) - largerBefore(j));
}

function balancedSlices(values: readonly bigint[], maxSize: number): bigint[][] {
  const slices: bigint[][] = [];
  let start = 0;
  for (const size of balancedChunkSizes(values.length, maxSize)) {
    slices.push(values.slice(start, start + size));
    start += size;
  }
  return slices;
}

/** Contiguity is about the value list: `1,10-12,18-50` has three runs, each chunked on its own. */
function consecutiveRuns(values: readonly bigint[]): bigint[][] {
  const runs: bigint[][] = [];
  for (const value of values) {
    const run = runs.at(-1);
    if (run && run.at(-1)! + 1n === value) run.push(value);
    else runs.push([value]);
  }
  return runs;
}

function ascendingUnique(values: readonly bigint[]): bigint[] {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.filter((value, i) => i === 0 || value !== sorted[i - 1]);
}
