"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formatDuration, outcomeSummary } from "@/lib/farm/display";
import type { JobDetail } from "@/server/queries/jobs";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";
import { LocalTime } from "../ui/local-time";
import { CountsBar, StatusBadge } from "../ui/status";

/** Who, when, how far: the job at a glance, with its priority editable (0–100, higher first). */
export function JobHeader({ job }: { job: JobDetail }) {
  const flags = [job.suspended && "suspended by a wrangler", job.canceled && "canceled"].filter(Boolean).join(", ");
  return (
    <header className="job-head">
      <h1>
        {job.name} <StatusBadge status={job.status} />
      </h1>
      {job.description && <p className="lead">{job.description}</p>}
      <div className="job-facts-row">
        <dl className="job-facts">
          <Fact term="Job id" value={<code>{job.id}</code>} />
          <Fact term="Submitter" value={job.submitter} />
          <Fact term="Priority" value={String(job.priority)} />
          <Fact term="Tasks" value={`${job.taskCount.toLocaleString("en")} (${outcomeSummary(job.counts).text})`} />
          <Fact term="Submitted" value={<LocalTime ms={job.submittedAt} />} />
          <Fact term="Started" value={<LocalTime ms={job.startedAt} />} />
          <Fact
            term="Ended"
            value={
              job.endedAt === null ? (
                "—"
              ) : (
                <>
                  <LocalTime ms={job.endedAt} />
                  {job.startedAt !== null ? ` (ran ${formatDuration(job.endedAt - job.startedAt)})` : ""}
                </>
              )
            }
          />
          <Fact term="Failed tasks" value={`${job.failedTaskCount} of at most ${job.maxFailedTasks}; ${job.maxRetriesPerTask} retries per task`} />
          {flags && <Fact term="State" value={flags} />}
        </dl>
        <JobParameters parameters={job.parameters} />
      </div>
      <CountsBar counts={job.counts} label={`Job ${job.name}`} />
    </header>
  );
}

/** The job's parameter values as resolved at submission (PATHs as the job received them); long values ellipsize, whole on hover. */
function JobParameters({ parameters }: { parameters: JobDetail["parameters"] }) {
  const entries = Object.entries(parameters);
  if (entries.length === 0) return null;
  return (
    <div role="group" aria-labelledby="job-params-heading" className="job-params">
      <h2 id="job-params-heading">Parameters</h2>
      <dl className="job-facts">
        {entries.map(([name, p]) => (
          <div key={name} data-parameter={name}>
            <dt>
              {name} <span className="param-type">{p.type}</span>
            </dt>
            <dd title={p.value}>{p.value === "" ? <span className="muted">(empty)</span> : <code>{p.value}</code>}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Fact({ term, value }: { term: string; value: React.ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** The job's priority, up to `max` (artists are capped: lib/farm/access maxPriorityFor; the server caps again). */
export function PriorityControl({ job, max }: { job: JobDetail; max: number }) {
  const trpc = useTRPC();
  const [value, setValue] = useState(String(job.priority));
  const setPriority = useMutation(trpc.jobs.setPriority.mutationOptions());
  const priority = Number(value);
  const valid = value.trim() !== "" && Number.isInteger(priority) && priority >= 0 && priority <= max;
  return (
    <div role="group" aria-label="Job priority" className="toolbar">
      <label className="inline">
        Priority
        <input type="number" min={0} max={max} step={1} className="narrow" value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={!valid} />
      </label>
      <ConfirmButton
        label="Set priority"
        question={`Change the priority of job ${job.name} from ${job.priority} to ${priority}? Higher runs first.`}
        confirmLabel="Yes, set priority"
        disabled={!valid || priority === job.priority || setPriority.isPending}
        onConfirm={() => setPriority.mutate({ jobId: job.id, priority })}
      />
      {!valid && (
        <span className="error-text">
          A whole number from 0 to {max}
          {max < 100 ? " (a wrangler can set it higher)" : ""}.
        </span>
      )}
      {setPriority.error && (
        <span role="alert" className="error-text">
          Set priority failed: {setPriority.error.message}
        </span>
      )}
      {setPriority.isSuccess && (
        <span role="status" className="muted">
          Priority is now {setPriority.data.priority}.
        </span>
      )}
    </div>
  );
}
