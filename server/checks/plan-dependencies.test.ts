/** A task graph as the store writes it: waiting counts, the rows of waiting tasks per chunk, edge and group batches. */
import { describe, expect, it } from "vitest";
import type { TaskGraph } from "../../lib/openjd";
import { EDGE_CHUNK_ROWS, edgeBatches, waitingCounts, waitingRows, waitingTaskCounts } from "./plan-dependencies";

type Edge = [upStep: number, upTask: number, downStep: number, downTask: number, group: number];

function graphOf(edges: readonly Edge[], groupCount: number): TaskGraph {
  const column = (i: number) => Int32Array.from(edges.map((e) => e[i]!));
  return { steps: [[], []], edges: { length: edges.length, upStep: column(0), upTask: column(1), downStep: column(2), downTask: column(3), group: column(4) }, groupCount };
}

describe("waiting counts", () => {
  it("one per all-of edge and one per any-of group, per downstream task", () => {
    const graph = graphOf(
      [
        [0, 0, 1, 0, -1],
        [0, 1, 1, 0, -1],
        [0, 0, 1, 2, 0],
        [0, 1, 1, 2, 0],
        [0, 2, 1, 2, 1],
        [0, 0, 0, 1, -1],
      ],
      2,
    );
    const counts = waitingCounts(graph, [3, 4]);
    expect([...counts.get(0)!]).toEqual([0, 1, 0]);
    expect([...counts.get(1)!]).toEqual([2, 0, 2, 0]);
    expect(waitingTaskCounts(counts, 2)).toEqual([1, 2]);
    expect(waitingTaskCounts(null, 2)).toEqual([0, 0]);
  });

  it("rows per number of requirements, within a chunk; none when nothing waits", () => {
    const perTask = Int32Array.from([0, 1, 2, 1, 0, 1]);
    expect(waitingRows(perTask, 0, 6)).toEqual([
      [1, "[1,3,5]"],
      [2, "[2]"],
    ]);
    expect(waitingRows(perTask, 3, 2)).toEqual([[1, "[3]"]]);
    expect(waitingRows(perTask, 4, 1)).toBeNull();
    expect(waitingRows(undefined, 0, 6)).toBeNull();
  });
});

describe("edge batches", () => {
  it("edges as JSON rows in chunks, each group once with the batch of its first edge", () => {
    const edges: Edge[] = Array.from({ length: EDGE_CHUNK_ROWS + 3 }, (_, i) => [0, i, 1, 0, i < 2 ? 0 : -1]);
    const batches = [...edgeBatches(graphOf(edges, 1), EDGE_CHUNK_ROWS)];
    expect(batches.map((b) => [b.edges.length, b.groups.length])).toEqual([
      [1, 1],
      [1, 0],
    ]);
    expect(JSON.parse(batches[0]!.edges[0]!).slice(0, 3)).toEqual([
      [0, 0, 1, 0, 0],
      [0, 1, 1, 0, 0],
      [0, 2, 1, 0, -1],
    ]);
    expect(JSON.parse(batches[0]!.groups[0]!)).toEqual([[0, 1, 0]]);
    expect(JSON.parse(batches[1]!.edges[0]!)).toHaveLength(3);
  });

  it("a graph without edges has no batch", () => {
    expect([...edgeBatches(graphOf([], 0), 10)]).toEqual([]);
  });
});
