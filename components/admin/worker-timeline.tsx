"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { formatDuration, formatTimestamp, statusLabel, toneOf } from "@/lib/farm/display";
import type { ActionKind } from "@/lib/farm/statuses";
import type { TimelineSegment, TimelineSession, TimelineWorker } from "@/server/queries/worker-timeline";
import { useCoalesced } from "../jobs/use-coalesced";
import { useTRPC } from "../trpc";
import { spanBox, TIMELINE_WINDOWS, timelineTicks } from "./timeline-scale";
import "./worker-timeline.css";

const KIND_WORDS: Record<ActionKind, string> = { ENV_ENTER: "Environment setup", TASK_RUN: "Task", ENV_EXIT: "Environment teardown" };
const KIND_CLASS: Record<ActionKind, string> = { ENV_ENTER: "setup", TASK_RUN: "task", ENV_EXIT: "teardown" };

const clock = (at: number) => new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const clockSeconds = (at: number) => new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });

function sessionWords(s: TimelineSession, worker: string): string {
  const when = `${clockSeconds(s.startedAt)}–${s.endedAt === null ? "now" : clockSeconds(s.endedAt)}`;
  return `Session on ${worker}: job ${s.jobName}, ${statusLabel(s.outcome).toLowerCase()}, ${when}; in view: setup ${formatDuration(s.setupMs)}, tasks ${formatDuration(s.taskMs)}, teardown ${formatDuration(s.teardownMs)}`;
}

function segmentWords(g: TimelineSegment, now: number): string {
  const what = g.kind === "TASK_RUN" ? `${g.count} task${g.count === 1 ? "" : "s"}` : KIND_WORDS[g.kind];
  return `${what} · ${statusLabel(g.status)} · ${formatDuration((g.endedAt ?? now) - g.startedAt)} · ${formatTimestamp(g.startedAt)}`;
}

/**
 * Each worker's Sessions as a Gantt over a chosen window (15 min to a day), each Session split
 * into environment setup, task runs and teardown, outlined by how it ended; a Session links to
 * its page. Follows now, moved by the fleet's pushed changes (workers.onChange), until a wrangler
 * steps back in time.
 */
export function WorkerTimeline({ poolId }: { poolId?: string }) {
  const trpc = useTRPC();
  const [windowMs, setWindowMs] = useState<number>(TIMELINE_WINDOWS[1].ms);
  /** The window's end when stepped back; null while following now. */
  const [end, setEnd] = useState<number | null>(null);
  // Read on the client only (after mount), so the server's render and the browser's agree.
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => setNow(Date.now()), []);
  const push = useCoalesced<unknown>(() => setNow(Date.now()), 2_000);
  useSubscription(trpc.workers.onChange.subscriptionOptions(poolId ? { poolId } : {}, { onData: push }));

  const to = end ?? now ?? 0;
  const from = to - windowMs;
  const timeline = useQuery({ ...trpc.workers.timeline.queryOptions(poolId ? { from, to, poolId } : { from, to }), enabled: now !== null, placeholderData: keepPreviousData });
  const workers = timeline.data?.workers ?? [];

  const step = (direction: -1 | 1) => {
    const next = to + direction * (windowMs / 2);
    setEnd(next >= Date.now() ? null : next);
    setNow(Date.now());
  };

  return (
    <section className="worker-timeline" aria-label="Worker timeline">
      <div className="toolbar">
        <h2>Timeline</h2>
        <label className="inline">
          Window
          <select value={windowMs} onChange={(e) => setWindowMs(Number(e.target.value))}>
            {TIMELINE_WINDOWS.map((w) => (
              <option key={w.ms} value={w.ms}>
                {w.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => step(-1)}>
          ◀ Earlier
        </button>
        <button type="button" disabled={end === null} onClick={() => step(1)}>
          Later ▶
        </button>
        <button type="button" disabled={end === null} onClick={() => setEnd(null)}>
          Now
        </button>
        {now !== null && (
          <span className="muted" title={`${formatTimestamp(from)} – ${formatTimestamp(to)}`}>
            {clock(from)}–{end === null ? "now" : clock(to)}
          </span>
        )}
        <Legend />
      </div>
      {timeline.error && <p className="error-text">Could not load the timeline: {timeline.error.message}</p>}
      {now === null || !timeline.data ? (
        <p className="muted">Loading timeline…</p>
      ) : workers.length === 0 ? (
        <p className="muted">No workers.</p>
      ) : (
        <div className="wt-body">
          <div className="wt-axis" aria-hidden="true">
            <span />
            <div className="wt-ticks">
              {timelineTicks(from, to).map((t) => (
                <span key={t.at} style={{ left: `${t.percent}%` }} title={formatTimestamp(t.at)}>
                  {clock(t.at)}
                </span>
              ))}
            </div>
          </div>
          <ul className="wt-rows">
            {workers.map((w) => (
              <WorkerRow key={w.id} worker={w} from={from} to={to} now={Math.max(now, to)} />
            ))}
          </ul>
          {timeline.data.truncated && <p className="muted">More Sessions than can be drawn fell in this window: the latest are shown; choose a shorter window.</p>}
        </div>
      )}
    </section>
  );
}

function WorkerRow({ worker, from, to, now }: { worker: TimelineWorker; from: number; to: number; now: number }) {
  return (
    <li className="wt-row" aria-label={`Worker ${worker.name}: ${worker.sessions.length} Session${worker.sessions.length === 1 ? "" : "s"} in view`}>
      <span className="wt-name" title={`${worker.name} (${worker.poolName}), ${statusLabel(worker.status).toLowerCase()}`}>
        {worker.name}
      </span>
      <div className="wt-track">
        {worker.sessions.map((s) => {
          const box = spanBox(s.startedAt, s.endedAt, from, to, now);
          const sessionEnd = Math.min(s.endedAt ?? now, to);
          const sessionStart = Math.max(s.startedAt, from);
          return (
            <Link
              key={s.id}
              href={`/jobs/${s.jobId}/sessions/${s.id}`}
              className={`wt-session tone-${toneOf(s.outcome)}`}
              style={{ left: `${box.left}%`, width: `${box.width}%` }}
              aria-label={sessionWords(s, worker.name)}
              title={sessionWords(s, worker.name)}
            >
              {s.segments.map((g, i) => {
                const inner = spanBox(g.startedAt, g.endedAt, sessionStart, Math.max(sessionEnd, sessionStart + 1), now);
                return (
                  <span
                    key={i}
                    className={`wt-segment ${KIND_CLASS[g.kind]} tone-${toneOf(g.status)}`}
                    data-kind={KIND_CLASS[g.kind]}
                    style={{ left: `${inner.left}%`, width: `${inner.width}%` }}
                    title={segmentWords(g, now)}
                  />
                );
              })}
            </Link>
          );
        })}
      </div>
    </li>
  );
}

function Legend() {
  return (
    <span className="wt-legend muted">
      <span className="wt-key setup" /> environment setup <span className="wt-key task tone-good" /> task <span className="wt-key teardown" /> teardown · outline: how the Session ended
    </span>
  );
}
