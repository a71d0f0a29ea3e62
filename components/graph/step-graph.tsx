"use client";

import { Background, Controls, Handle, MiniMap, Position, ReactFlow, type Edge, type Node, type NodeProps, type ReactFlowInstance } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { outcomeSummary } from "@/lib/farm/display";
import { rollUpStatus, type StatusCounts } from "@/lib/farm/statuses";
import { CountsBar, StatusBadge } from "@/components/ui/status";
import { fitZoom, frameHeight, layoutSize, layoutSteps, READABLE_ZOOM, stepEdges, type LayoutStep } from "./step-layout";
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
        {/* The name has the node's whole width (the badge sits with the bar), so long names stay whole. */}
        <strong className="step-node-name" title={data.name}>
          {data.name}
        </strong>
        {data.counts ? (
          <span className="step-node-state">
            <StatusBadge status={rollUpStatus(data.counts)} />
            <CountsBar counts={data.counts} />
          </span>
        ) : null}
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

/** Past this many steps the graph gets a minimap to find one's way in. */
const MINIMAP_AFTER = 12;
const PADDING = 12;

/** The frame's width, followed as the window resizes (a wide screen's width before the first measure). */
function useWidth(ref: React.RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(1200);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => entry && entry.contentRect.width > 0 && setWidth(Math.round(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * A job's steps and their dependencies, laid out left to right; counts update in place. It opens
 * with the whole graph when that is readable, else at READABLE_ZOOM from the first steps, panned
 * (drag, scroll) rather than shrunk; the controls' fit button shows everything at any zoom.
 */
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
  const size = useMemo(() => layoutSize(positions), [positions]);
  const frame = useRef<HTMLDivElement>(null);
  const width = useWidth(frame);
  const height = frameHeight(size, width, 140, 300, PADDING);
  const open = useCallback(
    (flow: ReactFlowInstance<StepNode>) => {
      const frameSize = { width: frame.current?.clientWidth || width, height };
      if (fitZoom(size, frameSize, PADDING) >= READABLE_ZOOM) void flow.fitView({ padding: PADDING / Math.min(frameSize.width, frameSize.height), maxZoom: 1 });
      else void flow.setViewport({ x: PADDING, y: PADDING, zoom: READABLE_ZOOM });
    },
    [size, width, height],
  );
  return (
    <div ref={frame} className="step-graph" role="figure" aria-label={label} style={{ height }} data-zoom-floor={READABLE_ZOOM}>
      <ReactFlow nodes={nodes} edges={edges} nodeTypes={nodeTypes} onInit={open} nodesConnectable={false} nodesDraggable={false} minZoom={0.05} maxZoom={1.5}>
        <Background gap={24} />
        <Controls showInteractive={false} fitViewOptions={{ padding: 0.05, minZoom: 0.05, maxZoom: 1 }} aria-label="Graph zoom: in, out, fit the whole graph" />
        {steps.length > MINIMAP_AFTER && <MiniMap pannable zoomable ariaLabel="Minimap of the steps" />}
      </ReactFlow>
    </div>
  );
}
