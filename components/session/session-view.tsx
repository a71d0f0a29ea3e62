"use client";

/**
 * The Session page's live part: the header (job, worker, state), the timeline, the chosen
 * action's status text and progress, earlier attempts of a task, and the log. The Session is
 * re-read when its job changes (jobs.onChange) or when a line arrives for an action the page
 * does not yet know is running; progress and status move with the log lines themselves.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { foldReports, shownReport, type ActionReport } from "@/components/logs/action-report";
import type { LogLine } from "@/components/logs/line-store";
import { LogViewer } from "@/components/logs/log-viewer";
import { useTRPC } from "@/components/trpc";
import { StatusBadge } from "@/components/ui/status";
import { LocalTime } from "@/components/ui/local-time";
import { useNow } from "@/components/ui/use-now";
import { WorkerLink } from "@/components/ui/worker-link";
import { elapsed } from "@/lib/farm/display";
import { TERMINAL_ACTION_STATUSES } from "@/lib/farm/statuses";
import { ActionPanel } from "./action-panel";
import { AttemptPicker } from "./attempt-picker";
import { SessionTimeline } from "./session-timeline";
import { timelineAxis } from "./timeline";
import "./session.css";

interface Props {
  jobId: string;
  sessionId: string;
  taskId: number | null;
  actionId: string | null;
}

export function SessionView({ jobId, sessionId, taskId, actionId }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const sessionQuery = useQuery(trpc.logs.session.queryOptions({ sessionId, jobId }));
  const session = sessionQuery.data;

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries(trpc.logs.session.queryFilter({ sessionId, jobId }));
    void queryClient.invalidateQueries(trpc.jobs.sessions.queryFilter({ jobId }));
  }, [queryClient, trpc, sessionId, jobId]);
  useSubscription(trpc.jobs.onChange.subscriptionOptions({ jobId }, { onData: refresh }));

  const [reports, setReports] = useState<ReadonlyMap<string, ActionReport>>(new Map());
  const known = useRef(new Set<string>());
  known.current = new Set(session?.actions.filter((a) => a.status !== "ASSIGNED").map((a) => a.id));
  const asked = useRef(new Set<string>());
  const onLines = useCallback(
    (lines: readonly LogLine[]) => {
      setReports((before) => foldReports(before, lines));
      // An environment action starting is no job change: its first line tells us instead (once per action).
      const fresh = lines.filter((l) => l.actionId !== null && !known.current.has(l.actionId) && !asked.current.has(l.actionId));
      if (fresh.length === 0) return;
      for (const l of fresh) asked.current.add(l.actionId!);
      refresh();
    },
    [refresh],
  );

  const running = session?.actions.some((a) => a.startedAt !== null && a.endedAt === null) ?? false;
  const now = useNow(running);
  const axis = useMemo(() => (session ? timelineAxis(session.startedAt, session.actions, now) : null), [session, now]);

  const select = (next: string | null) => {
    const params = new URLSearchParams();
    if (taskId !== null) params.set("task", String(taskId));
    if (next) params.set("action", next);
    const query = params.toString();
    router.replace(`${pathname}${query ? `?${query}` : ""}`, { scroll: false });
  };

  if (sessionQuery.error)
    return (
      <p className="error-text">
        Could not load Session {sessionId}: {sessionQuery.error.message}
      </p>
    );
  if (!session || !axis) return <p className="muted">Loading Session…</p>;

  const selected = session.actions.find((a) => a.id === actionId) ?? null;
  // Without a chosen action: the page's task here, else what runs now, else the last task that ran.
  const focus =
    selected ??
    (taskId !== null ? session.actions.findLast((a) => a.taskId === taskId) : undefined) ??
    session.actions.find((a) => a.status === "RUNNING") ??
    session.actions.findLast((a) => a.kind === "TASK_RUN" && a.startedAt !== null) ??
    null;
  const attemptTask = taskId ?? (focus?.kind === "TASK_RUN" ? focus.taskId : null);

  return (
    <>
      <header className="session-header">
        <p className="muted">
          <Link href={`/jobs/${jobId}`}>{session.jobName}</Link> › Session
        </p>
        <h1>
          Session on {session.workerName} <StatusBadge status={session.state} />
        </h1>
        <dl className="session-facts">
          <dt>Worker</dt>
          <dd>
            <WorkerLink id={session.workerId} name={session.workerName} />
          </dd>
          <dt>Started</dt>
          <dd>
            <LocalTime ms={session.startedAt} />
          </dd>
          <dt>Duration</dt>
          <dd>{elapsed(session.startedAt, session.endedAt, now)}</dd>
          <dt>Actions</dt>
          <dd>{session.actions.length}</dd>
        </dl>
      </header>
      <section aria-label="Timeline">
        <div className="toolbar">
          <h2>Timeline</h2>
          {selected ? (
            <button type="button" onClick={() => select(null)}>
              Show the whole Session&apos;s log
            </button>
          ) : null}
          {attemptTask !== null ? <AttemptPicker jobId={jobId} taskId={attemptTask} sessionId={sessionId} actionId={focus?.id ?? null} /> : null}
        </div>
        <SessionTimeline actions={session.actions} axis={axis} now={now} selectedId={selected?.id ?? null} onSelect={select} />
      </section>
      {focus ? <ActionPanel action={focus} report={shownReport(focus, reports.get(focus.id))} now={now} /> : null}
      <section aria-label="Log">
        <h2>{selected ? "Action log" : "Session log"}</h2>
        <LogViewer
          sessionId={sessionId}
          {...(selected ? { actionId: selected.id } : {})}
          onLines={onLines}
          ended={selected ? TERMINAL_ACTION_STATUSES.has(selected.status) : session.state === "ENDED"}
        />
      </section>
    </>
  );
}
