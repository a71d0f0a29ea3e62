"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { StatusCounts } from "@/lib/farm/statuses";
import type { TaskTarget } from "@/server/services/task-target";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";
import { allowedActions, type WranglerAction } from "./actions";

interface TargetActionsProps {
  /** The group's accessible name, e.g. "Job actions". */
  label: string;
  /** What the confirmations name, e.g. `job "Render"`, `3 selected tasks`. */
  subject: string;
  /** The target; a promise when it must first be looked up (selected rows not on screen). */
  target: () => TaskTarget | Promise<TaskTarget>;
  /** Counts of the target, to offer only actions that would change something; all are offered when unknown. */
  counts?: StatusCounts;
  disabled?: boolean;
  onDone?: (action: WranglerAction, changed: number) => void;
}

const VERBS: Record<WranglerAction, { label: string; past: string; danger?: boolean }> = {
  cancel: { label: "Cancel", past: "Canceled", danger: true },
  suspend: { label: "Suspend", past: "Suspended" },
  resume: { label: "Resume", past: "Resumed" },
  requeue: { label: "Requeue", past: "Requeued", danger: true },
  retryFailed: { label: "Retry failed", past: "Retried" },
};

/** Cancel, suspend, resume, requeue and retry-failed for one target, each behind a confirmation, with the outcome announced. */
export function TargetActions({ label, subject, target, counts, disabled, onDone }: TargetActionsProps) {
  const trpc = useTRPC();
  const mutations = {
    cancel: useMutation(trpc.jobs.cancel.mutationOptions()),
    suspend: useMutation(trpc.jobs.suspend.mutationOptions()),
    resume: useMutation(trpc.jobs.resume.mutationOptions()),
    requeue: useMutation(trpc.jobs.requeue.mutationOptions()),
    retryFailed: useMutation(trpc.jobs.retryFailed.mutationOptions()),
  };
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const allowed = allowedActions(counts);
  const busy = Object.values(mutations).some((m) => m.isPending);

  const run = async (action: WranglerAction) => {
    setOutcome(null);
    try {
      const resolved = await target();
      const { changed } = await mutations[action].mutateAsync(resolved);
      setOutcome({ ok: true, text: `${VERBS[action].past} ${changed} task${changed === 1 ? "" : "s"} of ${subject}.` });
      onDone?.(action, changed);
    } catch (error) {
      setOutcome({ ok: false, text: `${VERBS[action].label} failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  };

  return (
    <div role="group" aria-label={label} className="toolbar target-actions">
      {(Object.keys(VERBS) as WranglerAction[]).map((action) => (
        <ConfirmButton
          key={action}
          label={VERBS[action].label}
          question={`${VERBS[action].label} ${subject}?`}
          confirmLabel={`Yes, ${VERBS[action].label.toLowerCase()}`}
          danger={VERBS[action].danger}
          disabled={disabled || busy || !allowed.has(action)}
          onConfirm={() => void run(action)}
        />
      ))}
      {outcome && (
        <span role={outcome.ok ? "status" : "alert"} className={outcome.ok ? "muted" : "error-text"}>
          {outcome.text}
        </span>
      )}
    </div>
  );
}
