"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { statusLabel } from "@/lib/farm/display";
import { TASK_STATUSES, type TaskStatus } from "@/lib/farm/statuses";
import { useMe } from "../auth/me";
import { useTRPC } from "../trpc";
import { DEFAULT_VIEW, withFilters, type JobView } from "./job-view";

/** Typing is sent after a pause, not per keystroke, so the table does not refetch for every letter. */
const TYPING_PAUSE_MS = 300;

function numberOrNull(text: string): number | null {
  if (text.trim() === "") return null;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= 100 ? n : null;
}

export function JobFilters({ view, onChange }: { view: JobView; onChange: (view: JobView) => void }) {
  const trpc = useTRPC();
  const submitters = useQuery(trpc.jobs.submitters.queryOptions());
  const me = useMe();
  const listId = useId();
  const [search, setSearch] = useState(view.search);
  const [submitter, setSubmitter] = useState(view.submitter);

  const sent = useRef({ search: view.search, submitter: view.submitter });

  // The URL wins when it changes from elsewhere (back button, a shared link), not when it echoes what we sent.
  useEffect(() => {
    if (view.search !== sent.current.search) setSearch(view.search);
    if (view.submitter !== sent.current.submitter) setSubmitter(view.submitter);
    sent.current = { search: view.search, submitter: view.submitter };
  }, [view.search, view.submitter]);

  useEffect(() => {
    if (search === sent.current.search && submitter === sent.current.submitter) return;
    const timer = setTimeout(() => {
      sent.current = { search, submitter };
      onChange(withFilters(view, { search, submitter }));
    }, TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search, submitter, view, onChange]);

  const toggleStatus = (status: TaskStatus, on: boolean) => {
    const statuses = on ? [...view.statuses, status] : view.statuses.filter((s) => s !== status);
    onChange(withFilters(view, { statuses: TASK_STATUSES.filter((s) => statuses.includes(s)) }));
  };

  return (
    <form className="job-filters" role="search" aria-label="Filter jobs" onSubmit={(e) => e.preventDefault()}>
      <div className="filter-row">
        <label>
          Search
          <input type="search" name="q" placeholder="name or job id" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <label>
          Submitter
          <input name="submitter" list={listId} value={submitter} onChange={(e) => setSubmitter(e.target.value)} />
          <datalist id={listId}>
            {submitters.data?.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
        </label>
        {me && (
          // The signed-in user's jobs: a job's submitter is the name of the account that submitted it.
          <button type="button" aria-pressed={view.submitter === me.name} onClick={() => onChange(withFilters(view, { submitter: view.submitter === me.name ? "" : me.name }))}>
            My jobs
          </button>
        )}
        <label>
          Priority from
          <input type="number" min={0} max={100} className="narrow" value={view.minPriority ?? ""} onChange={(e) => onChange(withFilters(view, { minPriority: numberOrNull(e.target.value) }))} />
        </label>
        <label>
          Priority to
          <input type="number" min={0} max={100} className="narrow" value={view.maxPriority ?? ""} onChange={(e) => onChange(withFilters(view, { maxPriority: numberOrNull(e.target.value) }))} />
        </label>
        <label>
          Submitted from
          <input type="date" value={view.from ?? ""} onChange={(e) => onChange(withFilters(view, { from: e.target.value || null }))} />
        </label>
        <label>
          Submitted to
          <input type="date" value={view.to ?? ""} onChange={(e) => onChange(withFilters(view, { to: e.target.value || null }))} />
        </label>
        <button type="button" onClick={() => onChange({ ...DEFAULT_VIEW, pageSize: view.pageSize })}>
          Clear filters
        </button>
      </div>
      <fieldset className="status-filter">
        <legend>Status</legend>
        {TASK_STATUSES.map((status) => (
          <label key={status} className="check">
            <input type="checkbox" checked={view.statuses.includes(status)} onChange={(e) => toggleStatus(status, e.target.checked)} />
            {statusLabel(status)}
          </label>
        ))}
      </fieldset>
    </form>
  );
}
