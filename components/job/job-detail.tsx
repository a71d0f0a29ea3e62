"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import { useCallback, useState } from "react";
import { mayActOnJob, maxPriorityFor } from "@/lib/farm/access";
import { pendingStepNote } from "@/lib/farm/step-blockers";
import { useMe } from "../auth/me";
import { StepGraph } from "../graph/step-graph";
import { useCoalesced } from "../jobs/use-coalesced";
import { useTRPC } from "../trpc";
import { JobHeader, PriorityControl } from "./job-header";
import { StepPanel } from "./step-panel";
import { TargetActions } from "./target-actions";
import { WorkerRule } from "./worker-rule";
import "./job.css";

/** The selected step is part of the address, so a link can point at one step's tasks. */
function rememberStep(stepId: string) {
  const url = new URL(window.location.href);
  url.searchParams.set("step", stepId);
  window.history.replaceState(null, "", url);
}

/**
 * A job for wranglers: header, actions, the step graph and the selected step's tasks, all live.
 * Each pushed change refetches the job and only the task pages on screen, at most once per
 * window however many changes arrive.
 */
export function JobDetail({ jobId, initialStepId }: { jobId: string; initialStepId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const job = useQuery(trpc.jobs.get.queryOptions({ jobId }));
  const [chosen, setChosen] = useState(initialStepId);
  const [graphShown, setGraphShown] = useState(true);
  const me = useMe();

  const refresh = useCallback(() => {
    void queryClient.invalidateQueries(trpc.jobs.get.queryFilter({ jobId }));
    void queryClient.invalidateQueries(trpc.jobs.tasks.pathFilter());
    void queryClient.invalidateQueries(trpc.jobs.sessions.queryFilter({ jobId }));
    void queryClient.invalidateQueries(trpc.jobs.workerFailures.queryFilter({ jobId }));
  }, [queryClient, trpc, jobId]);
  const push = useCoalesced<unknown>(refresh, 500);
  const live = useSubscription(trpc.jobs.onChange.subscriptionOptions({ jobId }, { onData: push }));

  if (job.error)
    return (
      <p role="alert" className="error-text">
        Could not load job {jobId}: {job.error.message}
      </p>
    );
  if (!job.data) return <p className="muted">Loading job…</p>;
  const data = job.data;
  const step = data.steps.find((s) => s.id === chosen) ?? data.steps[0];
  // Only the owner (an artist) or a wrangler is offered the actions; the server decides again.
  const mayAct = mayActOnJob(me, data.ownerId);
  const select = (id: string) => {
    setChosen(id);
    rememberStep(id);
  };

  return (
    <div className="job-page">
      <JobHeader job={data} />
      <p className="muted live-state">{live.status === "pending" ? "Live" : live.status === "error" ? "Live updates interrupted, reconnecting…" : "Connecting…"}</p>
      {mayAct && me ? (
        <section className="job-actions" aria-label="Job controls">
          <TargetActions label="Job actions" subject={`job ${data.name} (${data.taskCount} tasks)`} target={() => ({ jobId })} counts={data.counts} onDone={refresh} />
          <PriorityControl key={data.priority} job={data} max={maxPriorityFor(me)} />
        </section>
      ) : (
        <p className="muted">This job is {data.submitter}&apos;s: its owner and wranglers act on it (cancel, suspend, resume, requeue, retry, priority).</p>
      )}
      <section className="job-graph" aria-label="Steps">
        <div className="toolbar">
          <label className="inline">
            Step
            <select value={step?.id ?? ""} onChange={(e) => select(e.target.value)}>
              {data.steps.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.taskCount})
                </option>
              ))}
            </select>
          </label>
          <button type="button" aria-expanded={graphShown} aria-controls="job-step-graph" onClick={() => setGraphShown(!graphShown)}>
            {graphShown ? "Hide graph" : "Show graph"}
          </button>
        </div>
        <div id="job-step-graph">
          {graphShown && (
            <StepGraph
              steps={data.steps.map((s) => ({
                id: s.id,
                name: s.name,
                dependencies: s.dependencies,
                taskCount: s.taskCount,
                counts: s.counts,
                chunked: s.chunked,
                note: s.incompatibleReason ?? pendingStepNote(s, data.steps) ?? undefined,
              }))}
              selectedId={step?.id}
              onSelect={select}
              label={`Steps of job ${data.name}`}
            />
          )}
        </div>
      </section>
      {step && <StepPanel key={step.id} jobId={jobId} step={step} mayAct={mayAct} waitNote={pendingStepNote(step, data.steps)} />}
      <WorkerRule jobId={jobId} />
    </div>
  );
}
