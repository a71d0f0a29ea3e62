"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import Link from "next/link";
import { TASK_STATUSES, WORKER_STATUSES } from "@/lib/farm/statuses";
import { useTRPC } from "../trpc";
import { CountsBar, StatusBadge } from "../ui/status";
import { FinishedChart } from "./finished-chart";
import "./overview.css";

/** The farm at a glance, pushed by overview.onChange (the query only gives the first paint). */
export function OverviewLive() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.overview.get.queryOptions());
  const live = useSubscription(trpc.overview.onChange.subscriptionOptions(undefined, { onData: (event) => queryClient.setQueryData(trpc.overview.get.queryKey(), event.data) }));
  const data = overview.data;
  if (!data)
    return overview.error ? (
      <p role="alert" className="error-text">
        {overview.error.message}
      </p>
    ) : (
      <p className="muted">Loading…</p>
    );
  const workerTotal = WORKER_STATUSES.reduce((sum, s) => sum + data.workers[s], 0);
  const taskTotal = TASK_STATUSES.reduce((sum, s) => sum + data.tasks[s], 0);

  return (
    <div className="overview">
      <p className="muted live-note" aria-live="polite">
        {live.status === "error" ? "Live updates lost; reconnecting…" : live.status === "connecting" ? "Connecting…" : "Live"}
      </p>
      <section aria-labelledby="ov-workers">
        <h2 id="ov-workers">
          Workers <span className="muted">({workerTotal})</span>
        </h2>
        <ul className="stat-tiles" aria-label="Workers by status">
          {WORKER_STATUSES.map((s) => (
            <li key={s} className={data.workers[s] === 0 ? "zero" : undefined}>
              <span className="stat-number">{data.workers[s]}</span> <StatusBadge status={s} />
            </li>
          ))}
        </ul>
        <p className="muted">
          {data.workersDrained} drained, {data.workersDisabled} disabled. <Link href="/workers">Manage workers</Link>
        </p>
      </section>
      <section aria-labelledby="ov-tasks">
        <h2 id="ov-tasks">
          Tasks <span className="muted">({taskTotal})</span>
        </h2>
        <CountsBar counts={data.tasks} label="All tasks" />
        <ul className="stat-tiles" aria-label="Tasks by status">
          {TASK_STATUSES.map((s) => (
            <li key={s} className={data.tasks[s] === 0 ? "zero" : undefined}>
              <span className="stat-number">{data.tasks[s]}</span> <StatusBadge status={s} />
            </li>
          ))}
        </ul>
        <p className="muted">
          <Link href="/jobs">See the jobs</Link>
        </p>
      </section>
      <section aria-labelledby="ov-finished">
        <h2 id="ov-finished">Tasks finished per minute</h2>
        <FinishedChart minutes={data.finishedPerMinute} />
      </section>
    </div>
  );
}
