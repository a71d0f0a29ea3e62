"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { PoolView } from "@/server/queries/workers";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";
import { useRefocus } from "../ui/use-refocus";

export interface NewToken {
  poolName: string;
  token: string;
  rotated: boolean;
}

/** A pool's controls; rotating hands the new token up to be shown once, and nothing keeps it (gcTime 0). */
export function PoolActions({ pool, onToken, onError }: { pool: PoolView; onToken: (token: NewToken) => void; onError: (message: string | null) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const done = {
    onSuccess: () => {
      onError(null);
      void queryClient.invalidateQueries(trpc.pools.list.queryFilter());
      void queryClient.invalidateQueries(trpc.workers.list.queryFilter());
    },
    onError: (error: { message: string }) => onError(`${pool.name}: ${error.message}`),
  };
  const rotate = useMutation(
    trpc.pools.rotateToken.mutationOptions({
      gcTime: 0,
      onSuccess: (result) => {
        onError(null);
        onToken({ poolName: pool.name, token: result.token, rotated: true });
        rotate.reset();
      },
      onError: done.onError,
    }),
  );
  const setEnabled = useMutation(trpc.pools.setEnabled.mutationOptions(done));
  // Disable and Enable replace each other: the keyboard goes on to the one that appears.
  const toggle = useRefocus(pool.enabled);
  const drain = useMutation(trpc.pools.drain.mutationOptions(done));
  const busy = rotate.isPending || setEnabled.isPending || drain.isPending;
  const some = pool.workerCount > 0;

  return (
    <div className="pool-actions">
      <ConfirmButton
        label="Rotate token"
        question={`Rotate the token of pool ${pool.name}? The current token stops working at once: its ${pool.workerCount} worker(s) are refused until they are given the new one.`}
        danger={some}
        disabled={busy}
        onConfirm={() => rotate.mutate({ poolId: pool.id })}
      />
      <span ref={toggle.ref} className="contents">
        {pool.enabled ? (
          <ConfirmButton
            label="Disable pool"
            question={`Disable pool ${pool.name}? Its workers finish what they run but get no new work, and steps only it could run become not compatible.`}
            danger
            disabled={busy}
            onConfirm={() => {
              toggle.arm();
              setEnabled.mutate({ poolId: pool.id, enabled: false });
            }}
          />
        ) : (
          <button
            type="button"
            disabled={busy}
            onClick={() => {
              toggle.arm();
              setEnabled.mutate({ poolId: pool.id, enabled: true });
            }}
          >
            Enable pool
          </button>
        )}
      </span>
      <ConfirmButton
        label="Drain pool after current tasks"
        question={`Drain all ${pool.workerCount} worker(s) of ${pool.name} after their current task? Each finishes its task and takes no new work until undrained on the Workers page.`}
        confirmLabel="Drain after tasks"
        disabled={busy || !some}
        onConfirm={() => drain.mutate({ poolId: pool.id, mode: "AFTER_TASK" })}
      />
      <ConfirmButton
        label="Drain pool now"
        question={`Drain all ${pool.workerCount} worker(s) of ${pool.name} now? Their running tasks are canceled and go back to the queue.`}
        danger
        disabled={busy || !some}
        onConfirm={() => drain.mutate({ poolId: pool.id, mode: "NOW" })}
      />
    </div>
  );
}
