"use client";

/**
 * The live log viewer: `logs.followBatches` (logs.follow's lines, a page per event: backfill, then
 * tracked pages, so a reconnect resumes after the last line), lines kept in a chunked store
 * outside React state and handed over once per animation frame, drawn by a virtualizer (only the
 * visible rows exist), with follow mode, search, download of the whole log, and redacted values
 * drawn as masks.
 */
import { useSubscription } from "@trpc/tanstack-react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTRPC } from "@/components/trpc";
import { LogLineRow } from "./log-line-row";
import { LogToolbar } from "./log-toolbar";
import { animationFrame, Batcher, LineStore, type LogLine } from "./line-store";
import { findMatches, stepMatch } from "./log-search";
import "./logs.css";

export interface LogViewerProps {
  sessionId?: string;
  jobId?: string;
  actionId?: string;
  /** Called with each batch of new lines (at most once per frame), e.g. to read progress messages. */
  onLines?: (lines: readonly LogLine[]) => void;
  /** Rows the viewer is tall (it scrolls inside). */
  height?: string;
  /**
   * What it shows has ended (the Session, or the action). The stream stays open — a worker may
   * upload its last lines after reporting the end — but it no longer says "Live".
   */
  ended?: boolean;
}

const ROW_HEIGHT = 18;

export function LogViewer(props: LogViewerProps) {
  // A different log is a new store, subscription and scroll position.
  return <LiveLog key={`${props.sessionId ?? ""}|${props.jobId ?? ""}|${props.actionId ?? ""}`} {...props} />;
}

function LiveLog({ sessionId, jobId, actionId, onLines, height = "60vh", ended = false }: LogViewerProps) {
  const trpc = useTRPC();
  const store = useRef(new LineStore()).current;
  const [count, setCount] = useState(0);
  const [following, setFollowing] = useState(true);
  const [query, setQuery] = useState("");
  const [onlyMatches, setOnlyMatches] = useState(false);
  // Matches of `matchQuery`: recomputed in render when the query changes, extended as lines arrive.
  const matches = useRef<number[]>([]);
  const matchQuery = useRef("");
  const [current, setCurrent] = useState(-1);
  const scroller = useRef<HTMLDivElement>(null);
  const onLinesRef = useRef(onLines);
  onLinesRef.current = onLines;

  const [batcher] = useState(
    () =>
      new Batcher<LogLine>((lines) => {
        const before = store.length;
        if (store.append(lines) === 0) return;
        if (matchQuery.current) for (const index of findMatches(store, matchQuery.current, before)) matches.current.push(index);
        setCount(store.length);
        onLinesRef.current?.(lines);
      }, animationFrame),
  );
  useEffect(() => () => batcher.dispose(), [batcher]);

  const input = { ...(sessionId ? { sessionId } : {}), ...(jobId ? { jobId } : {}), ...(actionId ? { actionId } : {}) };
  const subscription = useSubscription(
    trpc.logs.followBatches.subscriptionOptions(input, {
      onData: (event) => {
        for (const l of event.data) batcher.push({ id: l.id, actionId: l.actionId, time: l.time, line: l.line });
      },
    }),
  );

  if (matchQuery.current !== query) {
    matches.current = findMatches(store, query);
    matchQuery.current = query;
  }

  const rows = onlyMatches && query ? matches.current.length : count;
  const lineAt = useCallback((row: number) => store.at(onlyMatches && query ? (matches.current[row] ?? -1) : row), [store, onlyMatches, query]);
  const virtualizer = useVirtualizer({ count: rows, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 30 });

  // Follow: stay on the last line as lines arrive (layout effect: before paint, no jump).
  useLayoutEffect(() => {
    const el = scroller.current;
    if (following && el) el.scrollTop = el.scrollHeight;
  }, [following, rows]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT;
    if (atBottom !== following) setFollowing(atBottom);
  };

  const goTo = (direction: 1 | -1) => {
    const next = stepMatch(matches.current.length, current, direction);
    setCurrent(next);
    if (next < 0) return;
    setFollowing(false);
    virtualizer.scrollToIndex(onlyMatches ? next : matches.current[next]!, { align: "center" });
  };

  const currentLine = current >= 0 ? matches.current[current] : undefined;
  const live =
    subscription.status === "pending" ? (ended ? "Ended" : "Live") : subscription.status === "connecting" ? "Connecting…" : subscription.status === "error" ? "Disconnected; retrying" : "Ended";

  return (
    <div className="log-viewer">
      <LogToolbar
        view={input}
        following={following}
        onFollow={() => setFollowing(true)}
        query={query}
        onQuery={(next) => {
          setQuery(next);
          setCurrent(-1);
        }}
        onlyMatches={onlyMatches}
        onOnlyMatches={setOnlyMatches}
        matchCount={query ? matches.current.length : 0}
        current={current}
        onStep={goTo}
        lineCount={count}
        live={live}
      />
      <div ref={scroller} className="log-scroll" style={{ height }} onScroll={onScroll} tabIndex={0} role="log" aria-live="off" aria-label="Log lines">
        {rows === 0 ? <p className="muted log-empty">{query && onlyMatches ? "No line matches." : "No output yet."}</p> : null}
        <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {virtualizer.getVirtualItems().map((item) => {
            const line = lineAt(item.index);
            if (!line) return null;
            const index = onlyMatches && query ? matches.current[item.index]! : item.index;
            return <LogLineRow key={line.id} line={line} number={index + 1} query={query} current={index === currentLine} top={item.start} height={ROW_HEIGHT} />;
          })}
        </div>
      </div>
    </div>
  );
}
