/**
 * Where each step of a job sits in its dependency graph. Each connected group of steps gets
 * dagre's layered layout, left to right (upstream steps first); the groups are then packed into
 * rows, and steps with no dependency either way into a grid, so twelve independent steps make a
 * 4 × 3 block instead of one tall column that only fits at an unreadable zoom. Pure: the same
 * steps always give the same positions, so the graph does not jump when counts change, and it is
 * tested without a browser.
 */
import dagre from "@dagrejs/dagre";

export const NODE_WIDTH = 240;
export const NODE_HEIGHT = 92;
/** Space between nodes of one rank, and between ranks (where the edges run). */
const NODE_GAP = 28;
const RANK_GAP = 64;
/** Space between packed groups. */
const GROUP_GAP = 48;
/** Below this the names (14 px bold) are no longer readable: the graph pans instead of shrinking. */
export const READABLE_ZOOM = 0.7;

export interface LayoutStep {
  id: string;
  name: string;
  /** Names of the steps this one depends on (as written in the template). */
  dependencies: readonly string[];
}

export interface PlacedStep {
  id: string;
  /** Top-left corner, as React Flow positions nodes. */
  x: number;
  y: number;
}

export interface StepEdge {
  id: string;
  source: string;
  target: string;
}

export interface Size {
  width: number;
  height: number;
}

/** Edges from each dependency to its dependent (ids); dependencies on unknown names are dropped. */
export function stepEdges(steps: readonly LayoutStep[]): StepEdge[] {
  const idByName = new Map(steps.map((s) => [s.name, s.id]));
  const edges: StepEdge[] = [];
  for (const step of steps) {
    for (const dependency of step.dependencies) {
      const source = idByName.get(dependency);
      if (source !== undefined) edges.push({ id: `${source}->${step.id}`, source, target: step.id });
    }
  }
  return edges;
}

/** The steps' weakly connected groups, each in template order, ordered by their first step. */
function connectedGroups(steps: readonly LayoutStep[], edges: readonly StepEdge[]): LayoutStep[][] {
  const root = new Map(steps.map((s) => [s.id, s.id]));
  const find = (id: string): string => {
    let r = id;
    while (root.get(r) !== r) r = root.get(r)!;
    root.set(id, r);
    return r;
  };
  for (const edge of edges) {
    const [a, b] = [find(edge.source), find(edge.target)];
    if (a !== b) root.set(b, a);
  }
  const groups = new Map<string, LayoutStep[]>();
  for (const step of steps) {
    const key = find(step.id);
    groups.set(key, [...(groups.get(key) ?? []), step]);
  }
  return [...groups.values()];
}

interface Block extends Size {
  /** Positions relative to the block's top-left corner. */
  placed: PlacedStep[];
}

function layered(group: readonly LayoutStep[], edges: readonly StepEdge[]): Block {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "LR", nodesep: NODE_GAP, ranksep: RANK_GAP, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const step of group) graph.setNode(step.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  const ids = new Set(group.map((s) => s.id));
  for (const edge of edges) if (ids.has(edge.target)) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  const placed = group.map((step) => {
    const node = graph.node(step.id);
    return { id: step.id, x: Math.round(node.x - NODE_WIDTH / 2), y: Math.round(node.y - NODE_HEIGHT / 2) };
  });
  return blockOf(placed);
}

/** Independent steps as a grid, filled row by row in template order. */
function grid(steps: readonly LayoutStep[], columns: number): Block {
  return blockOf(steps.map((s, i) => ({ id: s.id, x: (i % columns) * (NODE_WIDTH + NODE_GAP), y: Math.floor(i / columns) * (NODE_HEIGHT + NODE_GAP) })));
}

function blockOf(placed: PlacedStep[]): Block {
  const width = Math.max(0, ...placed.map((p) => p.x + NODE_WIDTH));
  const height = Math.max(0, ...placed.map((p) => p.y + NODE_HEIGHT));
  return { placed, width, height };
}

/**
 * The positions of a job's steps. `aspect` is the width / height the packing aims for (the
 * graph's frame is wide and short, above the task table).
 */
export function layoutSteps(steps: readonly LayoutStep[], aspect = 6): PlacedStep[] {
  if (steps.length === 0) return [];
  const edges = stepEdges(steps);
  const groups = connectedGroups(steps, edges);
  const lone = groups.filter((g) => g.length === 1).map((g) => g[0]!);
  const blocks = groups.filter((g) => g.length > 1).map((g) => layered(g, edges));
  if (lone.length > 0) {
    // Columns for a grid of about the aimed aspect: width c·W ≈ aspect · rows·H.
    const wide = Math.max(1, Math.min(lone.length, Math.round(Math.sqrt((aspect * lone.length * (NODE_HEIGHT + NODE_GAP)) / (NODE_WIDTH + NODE_GAP)))));
    // Balanced rows: 12 steps at 5 columns would leave a row of 2; 6 × 2 is the same height.
    blocks.push(grid(lone, Math.ceil(lone.length / Math.ceil(lone.length / wide))));
  }
  // Shelf packing: blocks left to right, a new row when the row would pass the aimed width.
  const area = blocks.reduce((sum, b) => sum + (b.width + GROUP_GAP) * (b.height + GROUP_GAP), 0);
  const rowWidth = Math.max(...blocks.map((b) => b.width), Math.sqrt(area * aspect));
  const positions = new Map<string, PlacedStep>();
  let [x, y, rowHeight] = [0, 0, 0];
  for (const block of blocks) {
    if (x > 0 && x + block.width > rowWidth) [x, y, rowHeight] = [0, y + rowHeight + GROUP_GAP, 0];
    for (const p of block.placed) positions.set(p.id, { id: p.id, x: p.x + x, y: p.y + y });
    x += block.width + GROUP_GAP;
    rowHeight = Math.max(rowHeight, block.height);
  }
  return steps.map((s) => positions.get(s.id)!);
}

/** The placed steps' bounding box. */
export function layoutSize(placed: readonly PlacedStep[]): Size {
  const { width, height } = blockOf([...placed]);
  return { width, height };
}

/** The zoom at which the whole graph fits a frame (never above 1). */
export function fitZoom(size: Size, frame: Size, padding = 24): number {
  if (size.width === 0 || size.height === 0) return 1;
  return Math.min((frame.width - 2 * padding) / size.width, (frame.height - 2 * padding) / size.height, 1);
}

/** The zoom the graph opens at: the whole graph when it fits at a readable size, else READABLE_ZOOM and the rest is panned to. */
export function openingZoom(size: Size, frame: Size, padding = 24): number {
  return Math.max(READABLE_ZOOM, fitZoom(size, frame, padding));
}

/** The frame's height for a graph: its whole height at the opening zoom, within [min, max]. */
export function frameHeight(size: Size, width: number, min = 140, max = 300, padding = 24): number {
  const zoom = openingZoom(size, { width, height: max }, padding);
  return Math.round(Math.min(max, Math.max(min, size.height * zoom + 2 * padding)));
}
