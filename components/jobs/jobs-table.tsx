"use client";

import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, type KeyboardEvent } from "react";
import { formatDuration, formatTimestamp, outcomeSummary } from "@/lib/farm/display";
import type { JobSummary } from "@/server/queries/jobs";
import { useTRPC } from "../trpc";
import { CountsBar, StatusBadge } from "../ui/status";
import { JobFilters } from "./job-filters";
import { jobViewInput, jobViewSearch, parseJobView, toggleSort, type JobView } from "./job-view";
import { JobsPager } from "./jobs-pager";
import { applyJobChanges, type JobPage } from "./live-jobs";
import { useCoalesced } from "./use-coalesced";
import "./jobs.css";

const COLUMNS: Array<{ key: JobView["sort"]; label: string }> = [
  { key: "name", label: "Name" },
  { key: "status", label: "Status" },
  { key: "progress", label: "Progress" },
  { key: "taskCount", label: "Tasks" },
  { key: "priority", label: "Priority" },
  { key: "submitter", label: "Submitter" },
  { key: "submittedAt", label: "Submitted" },
  { key: "startedAt", label: "Started" },
  { key: "endedAt", label: "Ended" },
];

/** Views change the URL without a server round trip; Next keeps useSearchParams in step with history. */
function go(view: JobView, replace = false) {
  const url = `/jobs${jobViewSearch(view)}`;
  if (replace) window.history.replaceState(null, "", url);
  else window.history.pushState(null, "", url);
}

const replaceView = (view: JobView) => go(view, true);

/** Arrow keys move between the rows' links (Tab reaches them too; Enter opens one). */
function moveBetweenRows(event: KeyboardEvent<HTMLTableSectionElement>) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const links = [...event.currentTarget.querySelectorAll<HTMLAnchorElement>("a.job-link")];
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  if (at < 0) return;
  event.preventDefault();
  links[Math.min(links.length - 1, Math.max(0, at + (event.key === "ArrowDown" ? 1 : -1)))]?.focus();
}

export function JobsTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const searchParams = useSearchParams();
  const view = useMemo(() => parseJobView(new URLSearchParams(searchParams.toString())), [searchParams]);
  const listOptions = trpc.jobs.list.queryOptions(jobViewInput(view), { placeholderData: keepPreviousData });
  const list = useQuery(listOptions);
  const queryKey = listOptions.queryKey;

  // Every job this table has seen, so a fixed view knows a new submission from a job on another page.
  const known = useRef(new Set<string>());
  useEffect(() => {
    for (const job of list.data?.jobs ?? []) known.current.add(job.id);
  }, [list.data]);
  // A new function each render (the query key is a new array each time); useCoalesced calls the latest.
  const flush = (batches: JobSummary[][]) => {
    const changed = batches.flat();
    const current = queryClient.getQueryData<JobPage>(queryKey);
    if (current) {
      const { page, refetch } = applyJobChanges(current, changed, view, known.current);
      queryClient.setQueryData(queryKey, page);
      if (refetch) void queryClient.invalidateQueries({ queryKey });
    }
    for (const job of changed) known.current.add(job.id);
  };
  const push = useCoalesced(flush, 1_000);
  const live = useSubscription(trpc.jobs.onChange.subscriptionOptions({}, { onData: (event) => push(event.data) }));

  const data = list.data;
  return (
    <>
      <JobFilters view={view} onChange={replaceView} />
      <div className="toolbar jobs-summary" aria-live="polite">
        <span>{data ? `${data.total.toLocaleString("en")} job${data.total === 1 ? "" : "s"}` : "Loading jobs…"}</span>
        {list.isFetching && <span className="muted">updating…</span>}
        {list.error && <span className="error-text">Could not load jobs: {list.error.message}</span>}
        <span className="muted live-state">{live.status === "pending" ? "Live" : live.status === "error" ? "Live updates interrupted, reconnecting" : "Connecting…"}</span>
      </div>
      <div className="jobs-scroll">
        <table className="data jobs-table" aria-label="Jobs" aria-rowcount={data ? data.total + 1 : undefined}>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th key={c.key} aria-sort={view.sort === c.key ? (view.direction === "asc" ? "ascending" : "descending") : undefined}>
                  <button type="button" className="sort" onClick={() => go(toggleSort(view, c.key))}>
                    {c.label}
                    <span aria-hidden="true">{view.sort === c.key ? (view.direction === "asc" ? " ▲" : " ▼") : ""}</span>
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody onKeyDown={moveBetweenRows}>
            {data?.jobs.map((job, i) => (
              <JobRow key={job.id} job={job} rowIndex={(view.page - 1) * view.pageSize + i + 2} />
            ))}
            {data && data.jobs.length === 0 && (
              <tr>
                <td colSpan={COLUMNS.length} className="muted">
                  No jobs match this view.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {data && <JobsPager view={view} total={data.total} onChange={(next) => go(next)} />}
    </>
  );
}

function JobRow({ job, rowIndex }: { job: JobSummary; rowIndex: number }) {
  const flags = [job.suspended && "suspended", job.canceled && "canceled"].filter(Boolean).join(", ");
  return (
    <tr aria-rowindex={rowIndex}>
      <td>
        <Link className="job-link" href={`/jobs/${job.id}`}>
          {job.name}
        </Link>
        <div className="muted job-id">{job.id}</div>
      </td>
      <td>
        <StatusBadge status={job.status} />
        {flags && <div className="muted job-id">{flags}</div>}
      </td>
      <td className="progress-cell">
        <CountsBar counts={job.counts} label={job.name} />
        <span className="muted">{outcomeSummary(job.counts).text}</span>
      </td>
      <td className="num">{job.taskCount.toLocaleString("en")}</td>
      <td className="num">{job.priority}</td>
      <td>{job.submitter}</td>
      <td className="time">{formatTimestamp(job.submittedAt)}</td>
      <td className="time">{formatTimestamp(job.startedAt)}</td>
      <td className="time">
        {formatTimestamp(job.endedAt)}
        {job.startedAt !== null && job.endedAt !== null && <div className="muted">{formatDuration(job.endedAt - job.startedAt)}</div>}
      </td>
    </tr>
  );
}
