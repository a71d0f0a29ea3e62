"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSubscription } from "@trpc/tanstack-react-query";
import Link from "next/link";
import { useState } from "react";
import { RULES } from "@/lib/farm/access";
import { formatTimestamp } from "@/lib/farm/display";
import { WORKER_STATUSES } from "@/lib/farm/statuses";
import type { PoolView } from "@/server/queries/workers";
import { useAllows } from "../auth/me";
import { useTRPC } from "../trpc";
import { StatusBadge } from "../ui/status";
import { CreatePool } from "./create-pool";
import { PoolActions, type NewToken } from "./pool-actions";
import { moveBetweenRows } from "./row-keys";
import { TokenOnce } from "./token-once";
import "./admin.css";

/** The pools page: every pool live (pools.onChange pushes the list); for admins, create, the token shown once, and the pool actions. */
export function PoolsAdmin() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.pools.list.queryOptions());
  useSubscription(trpc.pools.onChange.subscriptionOptions(undefined, { onData: (event) => queryClient.setQueryData(trpc.pools.list.queryKey(), event.data) }));
  // The one place a new token lives, until the admin closes the panel.
  const [token, setToken] = useState<NewToken | null>(null);
  const admin = useAllows(RULES.admin);
  const [error, setError] = useState<string | null>(null);
  const pools = list.data ?? [];

  return (
    <>
      {admin && (token ? <TokenOnce {...token} onClose={() => setToken(null)} /> : <CreatePool onToken={setToken} />)}
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <div className="table-scroll">
        <table className="data admin-table" aria-label="Pools">
          <thead>
            <tr>
              <th scope="col">Pool</th>
              <th scope="col">State</th>
              <th scope="col">Workers</th>
              <th scope="col">Created</th>
              <th scope="col">Token rotated</th>
              {admin && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody onKeyDown={moveBetweenRows}>
            {pools.map((pool) => (
              <tr key={pool.id}>
                <th scope="row">
                  {pool.name}
                  {pool.description && <div className="muted">{pool.description}</div>}
                </th>
                <td>
                  <span className={`badge tone-${pool.enabled ? "good" : "off"}`}>{pool.enabled ? "Enabled" : "Disabled"}</span>
                </td>
                <td>
                  <WorkerCounts pool={pool} />
                </td>
                <td>{formatTimestamp(pool.createdAt)}</td>
                <td>{pool.tokenRotatedAt === null ? <span className="muted">never</span> : formatTimestamp(pool.tokenRotatedAt)}</td>
                {admin && (
                  <td>
                    <PoolActions pool={pool} onToken={setToken} onError={setError} />
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function WorkerCounts({ pool }: { pool: PoolView }) {
  const counts = WORKER_STATUSES.filter((s) => pool.workers[s] > 0);
  return (
    <div className="worker-counts">
      <Link href={`/workers?pool=${encodeURIComponent(pool.id)}`} aria-label={`${pool.workerCount} workers in ${pool.name}`}>
        {pool.workerCount}
      </Link>
      {counts.map((s) => (
        <span key={s} className="muted">
          {pool.workers[s]} <StatusBadge status={s} />
        </span>
      ))}
      {pool.drained > 0 && <span className="muted">{pool.drained} drained</span>}
      {pool.disabled > 0 && <span className="muted">{pool.disabled} disabled</span>}
    </div>
  );
}
