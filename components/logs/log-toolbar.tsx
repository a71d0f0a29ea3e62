"use client";

/** The log viewer's controls: follow, search with previous/next and a filter, download, and where the stream is. */
import { useState } from "react";
import { useTRPCClient } from "@/components/trpc";
import { logFileName, logText, readWholeLog } from "./log-download";

interface Props {
  view: { sessionId?: string; jobId?: string; actionId?: string };
  following: boolean;
  onFollow: () => void;
  query: string;
  onQuery: (query: string) => void;
  onlyMatches: boolean;
  onOnlyMatches: (only: boolean) => void;
  matchCount: number;
  current: number;
  onStep: (direction: 1 | -1) => void;
  lineCount: number;
  live: string;
}

export function LogToolbar(p: Props) {
  const client = useTRPCClient();
  const [downloading, setDownloading] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const download = async () => {
    setError(null);
    setDownloading(0);
    try {
      const lines = await readWholeLog((afterId, limit) => client.logs.lines.query({ ...p.view, afterId, limit }), setDownloading);
      const url = URL.createObjectURL(new Blob([logText(lines)], { type: "text/plain;charset=utf-8" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = logFileName(p.view);
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setDownloading(null);
    }
  };

  return (
    <div className="toolbar log-toolbar">
      <button type="button" aria-pressed={p.following} onClick={p.onFollow} title="Keep the newest line in view">
        {p.following ? "Following" : "Follow"}
      </button>
      <input
        type="search"
        aria-label="Search the log"
        placeholder="Search"
        value={p.query}
        onChange={(e) => p.onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            p.onStep(e.shiftKey ? -1 : 1);
          }
        }}
      />
      <button type="button" onClick={() => p.onStep(-1)} disabled={p.matchCount === 0} aria-label="Previous match">
        ↑
      </button>
      <button type="button" onClick={() => p.onStep(1)} disabled={p.matchCount === 0} aria-label="Next match">
        ↓
      </button>
      <span className="muted" aria-live="polite">
        {p.query ? (p.matchCount === 0 ? "No matches" : `${p.current >= 0 ? `${p.current + 1} of ` : ""}${p.matchCount} ${p.matchCount === 1 ? "match" : "matches"}`) : null}
      </span>
      <label className="log-only">
        <input type="checkbox" checked={p.onlyMatches} onChange={(e) => p.onOnlyMatches(e.target.checked)} /> Only matching lines
      </label>
      <span className="log-spacer" />
      <span className="muted">
        {p.lineCount.toLocaleString("en")} lines · {p.live}
      </span>
      <button type="button" onClick={download} disabled={downloading !== null}>
        {downloading === null ? "Download log" : `Downloading… ${downloading.toLocaleString("en")}`}
      </button>
      {error ? <span className="error-text">Download failed: {error}</span> : null}
    </div>
  );
}
