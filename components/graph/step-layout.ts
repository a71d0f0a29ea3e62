/**
 * Where each step of a job sits in its dependency graph: dagre's layered layout, left to right
 * (upstream steps first). Pure: the same steps always give the same positions, so the graph does
 * not jump when counts change, and it is tested without a browser.
 */
import dagre from "@dagrejs/dagre";

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 84;

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

export function layoutSteps(steps: readonly LayoutStep[]): PlacedStep[] {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: "LR", nodesep: 28, ranksep: 64, marginx: 8, marginy: 8 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const step of steps) graph.setNode(step.id, { width: NODE_WIDTH, height: NODE_HEIGHT });
  for (const edge of stepEdges(steps)) graph.setEdge(edge.source, edge.target);
  dagre.layout(graph);
  return steps.map((step) => {
    const node = graph.node(step.id);
    return { id: step.id, x: Math.round(node.x - NODE_WIDTH / 2), y: Math.round(node.y - NODE_HEIGHT / 2) };
  });
}
