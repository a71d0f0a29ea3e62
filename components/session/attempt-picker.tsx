"use client";

/** Earlier (and later) attempts of a task: each run of it across Sessions, to open its log. */
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/components/trpc";
import { formatTimestamp, statusLabel } from "@/lib/farm/display";
import { taskAttempts } from "./timeline";

export function AttemptPicker({ jobId, taskId, sessionId, actionId }: { jobId: string; taskId: number; sessionId: string; actionId: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const sessions = useQuery(trpc.jobs.sessions.queryOptions({ jobId, taskId }));
  const workers = useQuery(trpc.workers.list.queryOptions({}));
  if (!sessions.data) return null;
  const attempts = taskAttempts(sessions.data, taskId);
  if (attempts.length === 0) return null;
  const names = new Map(workers.data?.map((w) => [w.id, w.name]));
  const current = attempts.find((a) => a.actionId === actionId) ?? attempts.find((a) => a.sessionId === sessionId);
  return (
    <label className="attempt-picker">
      Attempt
      <select
        value={current?.actionId ?? ""}
        onChange={(e) => {
          const chosen = attempts.find((a) => a.actionId === e.target.value);
          if (chosen) router.push(`/jobs/${encodeURIComponent(jobId)}/sessions/${encodeURIComponent(chosen.sessionId)}?task=${taskId}&action=${encodeURIComponent(chosen.actionId)}`);
        }}
      >
        {current ? null : <option value="">—</option>}
        {attempts.map((a) => (
          <option key={a.actionId} value={a.actionId}>
            {`${a.number} of ${attempts.length} · ${statusLabel(a.status)} · ${names.get(a.workerId) ?? a.workerId} · ${formatTimestamp(a.startedAt)}`}
          </option>
        ))}
      </select>
    </label>
  );
}
