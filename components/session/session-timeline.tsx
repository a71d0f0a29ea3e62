"use client";

/**
 * The Session's actions in order on one time axis: a row per action (name, status, duration)
 * with a bar placed by its start and end; running bars grow with the clock. Rows are buttons
 * that show that action's log; long Sessions scroll inside a virtualized list.
 */
import { useVirtualizer } from "@tanstack/react-virtual";
import { useRef } from "react";
import { StatusBadge } from "@/components/ui/status";
import { elapsed, formatDuration, statusLabel, toneOf } from "@/lib/farm/display";
import type { ActionDetail } from "@/server/queries/sessions";
import { actionLabel, axisTicks, barOf, type Axis } from "./timeline";

const ROW = 34;

interface Props {
  actions: readonly ActionDetail[];
  axis: Axis;
  now: number;
  selectedId: string | null;
  onSelect: (actionId: string | null) => void;
}

export function SessionTimeline({ actions, axis, now, selectedId, onSelect }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: actions.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 10 });
  const ticks = axisTicks(axis);
  const span = axis.to - axis.from;
  return (
    <div className="timeline">
      <div className="timeline-axis" aria-hidden="true">
        <span />
        <div className="timeline-ticks">
          {ticks.map((t) => (
            <span key={t} style={{ left: `${(t / span) * 100}%` }}>
              {formatDuration(t)}
            </span>
          ))}
        </div>
      </div>
      <div ref={scroller} className="timeline-rows" style={{ maxHeight: `${Math.min(actions.length, 12) * ROW + 2}px` }}>
        <ul aria-label="Session actions" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const action = actions[item.index]!;
            const bar = barOf(action, axis, now);
            const label = actionLabel(action);
            const selected = action.id === selectedId;
            return (
              <li key={action.id} style={{ transform: `translateY(${item.start}px)`, height: ROW }}>
                <button
                  type="button"
                  className="timeline-row"
                  aria-pressed={selected}
                  onClick={() => onSelect(selected ? null : action.id)}
                  aria-label={`${label}: ${statusLabel(action.status).toLowerCase()}, ${elapsed(action.startedAt, action.endedAt, now)}`}
                >
                  <span className="timeline-label">
                    <span className="timeline-name">{label}</span>
                    <StatusBadge status={action.status} />
                    <span className="muted timeline-duration">{elapsed(action.startedAt, action.endedAt, now)}</span>
                  </span>
                  <span className="timeline-track">
                    {bar ? <span className={`timeline-bar tone-${toneOf(action.status)}${bar.running ? " running" : ""}`} style={{ left: `${bar.left}%`, width: `${bar.width}%` }} /> : null}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
