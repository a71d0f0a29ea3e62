"use client";

/** One log row: number, time, and the text with search hits marked and redacted values drawn as masks. */
import { memo } from "react";
import type { LogLine } from "./line-store";
import { lineSegments } from "./log-search";

interface Props {
  line: LogLine;
  number: number;
  query: string;
  current: boolean;
  top: number;
  height: number;
}

export const LogLineRow = memo(function LogLineRow({ line, number, query, current, top, height }: Props) {
  return (
    <div className={`log-row${current ? " log-row-current" : ""}`} style={{ transform: `translateY(${top}px)`, height }} data-line={number}>
      <span className="log-number" aria-hidden="true">
        {number}
      </span>
      <span className="log-time">{new Date(line.time).toISOString().slice(11, 19)}</span>
      <span className="log-text">
        {lineSegments(line.line, query).map((segment, i) =>
          segment.kind === "masked" ? (
            <span key={i} className="log-masked" title="Redacted value (masked by the worker before upload)">
              {segment.text}
            </span>
          ) : segment.kind === "match" ? (
            <mark key={i}>{segment.text}</mark>
          ) : (
            segment.text
          ),
        )}
      </span>
    </div>
  );
});
