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
import { DataTable } from "../ui/data-table";
import { ShownOnceToken } from "../ui/shown-once-token";
import { StatusBadge } from "../ui/status";
import { CreatePool, POOL_NAME_FIELD } from "./create-pool";
import { PoolActions, type NewToken } from "./pool-actions";
import { moveBetweenRows } from "./row-keys";
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
      {admin && (token ? <PoolToken token={token} onClose={() => setToken(null)} /> : <CreatePool onToken={setToken} />)}
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <DataTable label="Pools" columns={["Pool", "State", "Workers", "Created", "Token rotated", admin && "Actions"]} onKeyDown={moveBetweenRows}>
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
      </DataTable>
    </>
  );
}

function PoolToken({ token, onClose }: { token: NewToken; onClose: () => void }) {
  const { poolName, rotated } = token;
  return (
    <ShownOnceToken
      title={rotated ? `New token for pool ${poolName}` : `Token for pool ${poolName}`}
      fieldLabel={`Token for pool ${poolName}`}
      token={token.token}
      ifLost="rotate the token"
      returnFocusTo={POOL_NAME_FIELD}
      onClose={onClose}
    >
      {rotated && <p className="muted">The old token no longer works: give this one to every worker of the pool.</p>}
      <p className="muted">
        A worker joins the pool with <code>loom worker --server {window.location.origin} --token-file FILE</code> (or <code>LOOM_WORKER_TOKEN</code>), which keeps the token out of the process list.
      </p>
    </ShownOnceToken>
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
