"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { TERMINAL_ACTION_STATUSES } from "@/lib/farm/statuses";
import type { TaskRowView } from "@/server/queries/jobs";
import { LogViewer } from "../logs/log-viewer";
import { taskAttempts } from "../session/timeline";
import { useTRPC } from "../trpc";
import { StatusBadge } from "../ui/status";
import { WorkerLink } from "../ui/worker-link";
import { sessionHref } from "./task-columns";

/** The log of the focused task's latest run, live; the Session page has the full timeline and earlier attempts. */
export function LatestLog({ jobId, task }: { jobId: string; task: TaskRowView }) {
  const trpc = useTRPC();
  const sessions = useQuery(trpc.jobs.sessions.queryOptions({ jobId, taskId: task.id }));
  const latest = taskAttempts(sessions.data ?? [], task.id).at(-1);
  // A finished task may no longer name its Session; its latest run still does.
  const href = latest ? `/jobs/${jobId}/sessions/${latest.sessionId}?task=${task.id}` : sessionHref(jobId, task);
  return (
    <section className="latest-log" aria-label={`Latest log of task ${task.index}`}>
      <h3>
        Latest log · task {task.index} {latest && <StatusBadge status={latest.status} />}
        {task.workerId !== null && (
          <span className="muted">
            on <WorkerLink id={task.workerId} name={task.workerName} />
          </span>
        )}
        {href && (
          <Link href={href} className="open-session">
            Open Session
          </Link>
        )}
      </h3>
      {sessions.error && <p className="error-text">Could not load the task's Sessions: {sessions.error.message}</p>}
      {!latest && sessions.data && <p className="muted">This task has not run yet.</p>}
      {latest && <LogViewer sessionId={latest.sessionId} actionId={latest.actionId} height="16rem" ended={TERMINAL_ACTION_STATUSES.has(latest.status)} />}
    </section>
  );
}
