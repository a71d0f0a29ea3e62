/**
 * `loom job get|wait|logs|cancel|suspend|resume|requeue|retry ID` for scripts, against a Loom
 * server. `wait` exits 0 when the job SUCCEEDED and 1 when it ended otherwise; `logs --follow`
 * keeps printing new lines until the job has ended.
 */
import type { JobDetail } from "../queries/jobs";
import { parseArgs, UsageError } from "./args";
import { connect, describeClientError, type FarmAccess } from "./farm-client";
import type { CliIo } from "./io";

export const JOB_USAGE = "usage: loom job get|wait|logs|cancel|suspend|resume|requeue|retry ID [--step STEP_ID] [--follow] [--timeout SECONDS] [--server URL] [--json]";

const ENDED = new Set(["SUCCEEDED", "FAILED", "CANCELED", "NOT_COMPATIBLE"]);
const ACTIONS = { cancel: "cancel", suspend: "suspend", resume: "resume", requeue: "requeue", retry: "retryFailed" } as const;

export async function runJob(argv: readonly string[], io: CliIo, access: FarmAccess = {}, signal?: AbortSignal): Promise<number> {
  const [verb, ...rest] = argv;
  const args = parseArgs(rest, { values: ["--server", "--step", "--timeout"], booleans: ["--follow", "--json"] });
  if (args.positionals.length !== 1) throw new UsageError(`job ${verb ?? ""} takes exactly one job ID`);
  const jobId = args.positionals[0] as string;
  const { server, client, token } = connect(args.values.get("--server"), access, io.cwd);
  const asJson = args.booleans.has("--json");
  try {
    switch (verb) {
      case "get": {
        const job = await client.jobs.get.query({ jobId });
        io.out(asJson ? JSON.stringify(job, null, 2) : describeJob(job));
        return 0;
      }
      case "wait": {
        const timeout = Number(args.values.get("--timeout") ?? "0");
        if (!Number.isFinite(timeout) || timeout < 0) throw new UsageError("--timeout takes a number of seconds");
        const deadline = timeout > 0 ? Date.now() + timeout * 1000 : Infinity;
        for (;;) {
          const job = await client.jobs.get.query({ jobId });
          if (ENDED.has(job.status) && job.counts.ASSIGNED + job.counts.RUNNING === 0) {
            io.out(asJson ? JSON.stringify({ jobId, status: job.status, counts: job.counts }) : `${jobId} ${job.status}`);
            return job.status === "SUCCEEDED" ? 0 : 1;
          }
          if (Date.now() > deadline || signal?.aborted) {
            io.out(`${jobId} still ${job.status} after ${timeout} s`);
            return 1;
          }
          await pause(1000, signal);
        }
      }
      case "logs": {
        let after = 0;
        for (;;) {
          const lines = await client.logs.lines.query({ jobId, afterId: after, limit: 5000 });
          for (const line of lines) {
            io.out(asJson ? JSON.stringify(line) : `${new Date(line.time).toISOString()} ${line.sessionId} ${line.line}`);
            after = line.id;
          }
          if (lines.length === 5000) continue;
          if (!args.booleans.has("--follow") || signal?.aborted) return 0;
          const job = await client.jobs.get.query({ jobId });
          if (ENDED.has(job.status) && job.counts.ASSIGNED + job.counts.RUNNING === 0) {
            // One more page: lines uploaded after the last read.
            const last = await client.logs.lines.query({ jobId, afterId: after, limit: 5000 });
            for (const line of last) io.out(asJson ? JSON.stringify(line) : `${new Date(line.time).toISOString()} ${line.sessionId} ${line.line}`);
            return 0;
          }
          await pause(1000, signal);
        }
      }
      case "cancel":
      case "suspend":
      case "resume":
      case "requeue":
      case "retry": {
        const target = { jobId, ...(args.values.has("--step") ? { stepId: args.values.get("--step") as string } : {}) };
        const result = await client.jobs[ACTIONS[verb]].mutate(target);
        io.out(asJson ? JSON.stringify(result) : `${verb}: ${result.changed} task(s) changed`);
        return 0;
      }
      default:
        throw new UsageError(`unknown job command '${verb ?? ""}'\n${JOB_USAGE}`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    io.out(`ERROR: ${describeClientError(error, server, token)}`);
    return 1;
  }
}

function describeJob(job: JobDetail): string {
  const counts = (c: Record<string, number>) =>
    Object.entries(c)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${s} ${n}`)
      .join(", ");
  const lines = [`${job.id}  ${job.name}`, `  status ${job.status}, priority ${job.priority}, ${job.taskCount} task(s): ${counts(job.counts) || "none"}`];
  for (const step of job.steps) {
    lines.push(`  step ${step.name} (${step.id}): ${step.status}, ${counts(step.counts)}${step.incompatibleReason ? ` — ${step.incompatibleReason}` : ""}`);
  }
  return lines.join("\n");
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}
