"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { TaskRowView } from "@/server/queries/jobs";
import { useTRPC } from "../trpc";

/**
 * "Why isn't it running?" for the focused task: every reason the scheduler has (jobs.whyWaiting),
 * asked when the wrangler opens it and again when the task changes or they ask again.
 */
export function WhyWaiting({ task }: { task: TaskRowView }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const answer = useQuery({ ...trpc.jobs.whyWaiting.queryOptions({ taskId: task.id }), enabled: open });
  const { refetch } = answer;
  useEffect(() => {
    if (open) void refetch();
  }, [open, refetch, task.status, task.failureCount]);

  return (
    <section className="why-waiting" aria-label={`Why task ${task.index} is not running`}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        Why isn&apos;t it running?
      </button>
      {open && (
        <button type="button" disabled={answer.isFetching} onClick={() => void refetch()}>
          Check again
        </button>
      )}
      {open && answer.error && <p className="error-text">Could not ask the scheduler: {answer.error.message}</p>}
      {open && answer.data && (
        <ul aria-label={`Reasons task ${task.index} is not running`}>
          {answer.data.reasons.map((reason, i) => (
            <li key={i} data-kind={reason.kind}>
              {reason.text}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
