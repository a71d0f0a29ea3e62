"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import Link from "next/link";
import { useState } from "react";
import { RULES } from "@/lib/farm/access";
import { statusLabel } from "@/lib/farm/display";
import { WORKER_STATUSES } from "@/lib/farm/statuses";
import type { WorkerView } from "@/server/queries/workers";
import { useAllows } from "../auth/me";
import { useTRPC } from "../trpc";
import { DataTable } from "../ui/data-table";
import { StatusBadge } from "../ui/status";
import { Ago } from "./ago";
import { CapabilitiesCell } from "./capabilities-cell";
import { drainState } from "./drain-state";
import { moveBetweenRows } from "./row-keys";
import { WorkerActions } from "./worker-actions";
import "./admin.css";

/** Every worker (of one pool when `poolId` is given), live: workers.onChange pushes the whole list. */
export function WorkersTable({ poolId }: { poolId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = poolId ? { poolId } : {};
  const list = useQuery(trpc.workers.list.queryOptions(input));
  const live = useSubscription(trpc.workers.onChange.subscriptionOptions(input, { onData: (event) => queryClient.setQueryData(trpc.workers.list.queryKey(input), event.data) }));
  const [error, setError] = useState<string | null>(null);
  const admin = useAllows(RULES.admin);
  const workers = list.data ?? [];
  const counts = WORKER_STATUSES.map((s) => [s, workers.filter((w) => w.status === s).length] as const).filter(([, n]) => n > 0);

  return (
    <>
      <div className="toolbar" aria-live="polite">
        <span>
          {workers.length} worker{workers.length === 1 ? "" : "s"}
          {counts.length > 0 && `: ${counts.map(([s, n]) => `${n} ${statusLabel(s).toLowerCase()}`).join(", ")}`}
        </span>
        <span className="muted live-state">{live.status === "pending" ? "live" : live.status === "connecting" ? "connecting…" : live.status === "error" ? "live updates lost; reconnecting" : ""}</span>
      </div>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      {list.error && (
        <p role="alert" className="error-text">
          {list.error.message}
        </p>
      )}
      <DataTable
        label="Workers"
        columns={["Worker", "Pool", "Status", "Capabilities", "Current work", "Kept away from", "Last heartbeat", "Drain", admin && "Actions"]}
        onKeyDown={moveBetweenRows}
        empty={
          workers.length === 0 && (
            <>
              No worker has registered{poolId ? " in this pool" : ""} yet. Start one with <code>loom worker --server URL --token-file FILE</code> (the pool&apos;s token, from the Pools page).
            </>
          )
        }
      >
        {workers.map((w) => (
          <WorkerRow key={w.id} worker={w} admin={admin} onError={setError} />
        ))}
      </DataTable>
    </>
  );
}

function WorkerRow({ worker, admin, onError }: { worker: WorkerView; admin: boolean; onError: (message: string | null) => void }) {
  const drain = drainState(worker);
  return (
    <tr data-worker-id={worker.id} id={`worker-${worker.id}`}>
      <th scope="row">{worker.name}</th>
      <td>{worker.poolName}</td>
      <td>
        <StatusBadge status={worker.status} />
      </td>
      <td>
        <CapabilitiesCell capabilities={worker.capabilities} workerName={worker.name} />
      </td>
      <td>
        <CurrentWork worker={worker} />
      </td>
      <td>
        <KeptAway worker={worker} />
      </td>
      <td>
        <Ago at={worker.lastHeartbeatAt} />
      </td>
      <td>{drain.tone ? <span className={`badge tone-${drain.tone}`}>{drain.label}</span> : <span className="muted">{drain.label}</span>}</td>
      {admin && (
        <td>
          <WorkerActions worker={worker} onError={onError} />
        </td>
      )}
    </tr>
  );
}

/** Jobs whose failures on this worker keep it away (the per-worker failure rule); cleared on the job's page. */
function KeptAway({ worker }: { worker: WorkerView }) {
  if (worker.keptAwayFrom.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="kept-away">
      {worker.keptAwayFrom.map((k) => (
        <li key={k.jobId}>
          <Link href={`/jobs/${k.jobId}`} title={`${k.failures} attempts of this job failed on ${worker.name}; a wrangler clears it on the job's page`}>
            {k.jobName}
          </Link>{" "}
          <span className="muted">({k.failures} failures)</span>
        </li>
      ))}
    </ul>
  );
}

function CurrentWork({ worker }: { worker: WorkerView }) {
  if (!worker.sessionId || !worker.jobId) return <span className="muted">—</span>;
  const task = worker.taskId !== null ? `${worker.stepName ?? "step"} · task ${worker.taskIndex ?? worker.taskId}` : "environments";
  return (
    <div className="current-work">
      <Link href={`/jobs/${worker.jobId}/sessions/${worker.sessionId}`} aria-label={`Session of ${worker.name} on job ${worker.jobName ?? worker.jobId}`}>
        {worker.jobName ?? worker.jobId}
      </Link>
      <span className="muted">{task}</span>
    </div>
  );
}
