"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { RULES } from "@/lib/farm/access";
import { ago } from "@/lib/farm/display";
import { MAX_RETRY_DELAY_SECONDS } from "@/lib/farm/retry";
import { useAllows } from "../auth/me";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";
import { useNow } from "../ui/use-now";

/**
 * The job's retry rules and what they did: how long a retry waits, and the workers its failures
 * keep away from it (the per-worker failure rule), with why — failures there and the last
 * message. Wranglers clear a worker (or all) so it takes the job's tasks again.
 */
export function WorkerRule({ jobId }: { jobId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const rule = useQuery(trpc.jobs.workerFailures.queryOptions({ jobId }));
  const wrangler = useAllows(RULES.wrangle);
  const [error, setError] = useState<string | null>(null);
  const now = useNow(true, 10_000); // "kept away since 2 min ago" stays roughly true
  const clear = useMutation(
    trpc.jobs.clearWorkerFailures.mutationOptions({
      onSuccess: () => {
        setError(null);
        void queryClient.invalidateQueries(trpc.jobs.workerFailures.queryFilter({ jobId }));
      },
      onError: (e) => setError(e.message),
    }),
  );
  if (!rule.data) return null;
  const { maxWorkerFailures, retryDelaySeconds, workers } = rule.data;
  const kept = workers.filter((w) => w.blockedAt !== null);
  const delay = retryDelaySeconds === 0 ? "Retries start at once" : `Retries wait ${retryDelaySeconds} s, doubling with each failure (at most ${MAX_RETRY_DELAY_SECONDS / 3600} h)`;
  const threshold =
    maxWorkerFailures === 0 ? "no worker is kept away from this job" : `a worker on which ${maxWorkerFailures} attempt${maxWorkerFailures === 1 ? "" : "s"} failed gets no more of its tasks`;
  return (
    <section className="worker-rule" aria-label="Workers kept away">
      <h2>Workers kept away</h2>
      <p className="muted">
        {delay}; {threshold}.
      </p>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      {workers.length === 0 ? (
        <p className="muted">No attempt of this job has failed on a worker.</p>
      ) : (
        <table className="data admin-table">
          <thead>
            <tr>
              <th scope="col">Worker</th>
              <th scope="col">Failed attempts</th>
              <th scope="col">State</th>
              <th scope="col">Last failure</th>
              {wrangler && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {workers.map((w) => (
              <tr key={w.workerId} data-worker-id={w.workerId}>
                <th scope="row">{w.workerName}</th>
                <td className="num">{w.failures}</td>
                <td>{w.blockedAt !== null ? <span className="badge tone-bad">Kept away since {ago(w.blockedAt, now)}</span> : <span className="muted">Still gets tasks</span>}</td>
                <td title={w.lastMessage ?? undefined}>
                  {ago(w.lastFailureAt, now)}
                  {w.lastMessage ? ` · ${w.lastMessage}` : ""}
                </td>
                {wrangler && (
                  <td>
                    <ConfirmButton
                      label={`Clear ${w.workerName}`}
                      question={`Clear ${w.workerName}'s ${w.failures} failed attempt${w.failures === 1 ? "" : "s"} on this job? It takes the job's tasks again.`}
                      confirmLabel="Yes, clear"
                      disabled={clear.isPending}
                      onConfirm={() => clear.mutate({ jobId, workerId: w.workerId })}
                    />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {wrangler && kept.length > 1 && (
        <ConfirmButton
          label="Clear every worker"
          question={`Let all ${kept.length} kept-away workers take this job's tasks again?`}
          confirmLabel="Yes, clear all"
          disabled={clear.isPending}
          onConfirm={() => clear.mutate({ jobId })}
        />
      )}
    </section>
  );
}
