"use client";

import { Background, Controls, Handle, Position, ReactFlow, type Edge, type Node, type NodeProps } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo } from "react";
import { outcomeSummary } from "@/lib/farm/display";
import { rollUpStatus, type StatusCounts } from "@/lib/farm/statuses";
import { CountsBar, StatusBadge } from "@/components/ui/status";
import { layoutSteps, stepEdges, type LayoutStep } from "./step-layout";
import "./step-graph.css";

export interface GraphStep extends LayoutStep {
  taskCount: number;
  /** Per-status task counts (a running job); absent in a preview. */
  counts?: StatusCounts;
  chunked?: boolean;
  /** One line under the name: a chunk count, why no pool can run it… */
  note?: string;
}

// A mapped copy: React Flow wants node data as a plain record type, which an interface is not.
type StepNodeData = { [K in keyof GraphStep]: GraphStep[K] } & { selected: boolean; onSelect?: (id: string) => void };
type StepNode = Node<StepNodeData, "step">;

function StepNodeView({ data }: NodeProps<StepNode>) {
  const summary = data.counts
    ? `${data.taskCount.toLocaleString("en")} task${data.taskCount === 1 ? "" : "s"}: ${outcomeSummary(data.counts).text}`
    : `${data.taskCount} task${data.taskCount === 1 ? "" : "s"}${data.chunked ? ", chunked" : ""}`;
  return (
    <div className={`step-node${data.selected ? " selected" : ""}`}>
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <button type="button" className="step-node-button nodrag" aria-pressed={data.selected} aria-label={`Step ${data.name}: ${summary}`} onClick={() => data.onSelect?.(data.id)}>
        <span className="step-node-title">
          <strong>{data.name}</strong>
          {data.counts ? <StatusBadge status={rollUpStatus(data.counts)} /> : null}
        </span>
        {data.counts ? <CountsBar counts={data.counts} /> : null}
        <span className="step-node-note">{data.note ?? summary}</span>
      </button>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
}

// Module level, so React Flow does not re-create its node components on every render.
const nodeTypes = { step: StepNodeView };

interface StepGraphProps {
  steps: readonly GraphStep[];
  selectedId?: string | null;
  onSelect?: (id: string) => void;
  /** Accessible name of the whole graph. */
  label?: string;
}

/** A job's steps and their dependencies, laid out left to right; counts update in place. */
export function StepGraph({ steps, selectedId = null, onSelect, label = "Step dependency graph" }: StepGraphProps) {
  // The layout depends on the graph's shape only, not on counts: nodes stay put as tasks finish.
  const shape = steps.map((s) => `${s.id}:${s.name}:${s.dependencies.join(",")}`).join("|");
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const positions = useMemo(() => layoutSteps(steps), [shape]);
  const nodes = useMemo<StepNode[]>(
    () =>
      steps.map((step, i) => ({
        id: step.id,
        type: "step",
        position: positions[i] ?? { x: 0, y: 0 },
        data: { ...step, selected: step.id === selectedId, ...(onSelect ? { onSelect } : {}) },
        draggable: false,
        ariaLabel: `Step ${step.name}`,
      })),
    [steps, positions, selectedId, onSelect],
  );
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const edges = useMemo<Edge[]>(() => stepEdges(steps).map((e) => ({ ...e, animated: false })), [shape]);
  const rows = Math.max(1, ...countPerColumn(positions));
  return (
    <div className="step-graph" role="figure" aria-label={label} style={{ height: Math.min(480, 60 + rows * 110) }}>
      <ReactFlow nodes={nodes} edges={edges} nodeTypes={nodeTypes} fitView fitViewOptions={{ padding: 0.15, maxZoom: 1 }} nodesConnectable={false} nodesDraggable={false} minZoom={0.2}>
        <Background gap={24} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}

function countPerColumn(positions: readonly { x: number }[]): number[] {
  const columns = new Map<number, number>();
  for (const p of positions) columns.set(p.x, (columns.get(p.x) ?? 0) + 1);
  return [...columns.values()];
}
