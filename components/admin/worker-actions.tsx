"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { WorkerView } from "@/server/queries/workers";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";

/**
 * A worker's admin controls. Drain after task, drain now and disable ask first (they change what
 * the farm runs); undrain and enable put capacity back, so they act at once. The list is pushed
 * by workers.onChange; invalidating it too makes the click's effect show without waiting.
 */
export function WorkerActions({ worker, onError }: { worker: WorkerView; onError: (message: string | null) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = {
    onSuccess: () => {
      onError(null);
      void queryClient.invalidateQueries(trpc.workers.list.queryFilter());
    },
    onError: (error: { message: string }) => onError(`${worker.name}: ${error.message}`),
  };
  const drain = useMutation(trpc.workers.drain.mutationOptions(options));
  const undrain = useMutation(trpc.workers.undrain.mutationOptions(options));
  const setDisabled = useMutation(trpc.workers.setDisabled.mutationOptions(options));
  const busy = drain.isPending || undrain.isPending || setDisabled.isPending;
  const task = worker.taskId !== null ? "its current task" : "the task it may be given";

  return (
    <div className="worker-actions">
      {worker.drain === null && (
        <ConfirmButton
          label="Drain after current task"
          question={`Drain ${worker.name} after ${task}? It finishes that task, exits its environments and takes no new work until you undrain it.`}
          confirmLabel="Drain after task"
          disabled={busy}
          onConfirm={() => drain.mutate({ workerId: worker.id, mode: "AFTER_TASK" })}
        />
      )}
      {worker.drain !== "NOW" && (
        <ConfirmButton
          label="Drain now"
          question={`Drain ${worker.name} now? Its running task is canceled and goes back to the queue for another worker.`}
          danger
          disabled={busy}
          onConfirm={() => drain.mutate({ workerId: worker.id, mode: "NOW" })}
        />
      )}
      {worker.drain !== null && (
        <button type="button" disabled={busy} onClick={() => undrain.mutate({ workerId: worker.id })}>
          Undrain
        </button>
      )}
      {worker.disabled ? (
        <button type="button" disabled={busy} onClick={() => setDisabled.mutate({ workerId: worker.id, disabled: false })}>
          Enable
        </button>
      ) : (
        <ConfirmButton
          label="Disable"
          question={`Disable ${worker.name}? Its running task is canceled and goes back to the queue; it takes no work, and no longer counts when Loom decides whether a step can run anywhere.`}
          danger
          disabled={busy}
          onConfirm={() => setDisabled.mutate({ workerId: worker.id, disabled: true })}
        />
      )}
    </div>
  );
}
