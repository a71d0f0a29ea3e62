/**
 * Job retention (admins): finished jobs — SUCCEEDED, FAILED or CANCELED, with no task that could
 * still run (assigned, running, waiting for a compatible worker, or suspended) and no Session
 * still open — that ended (or, never having ended, were submitted) more than N days ago. A job
 * waiting for a worker that can run it is not finished: it runs once one registers or its pool is
 * enabled again; an admin who wants it gone cancels it first. Tasks PENDING behind a failed
 * dependency do not hold a job back: only a wrangler's retry would run them. Preview counts them with their tasks and log lines; purge
 * deletes them with their steps, tasks, Sessions, actions and log lines, after writing each to
 * an archive file in archive mode (archive-job.ts). Everything runs in short slices, job by job
 * under the job's lock; each job gets its audit row as it goes, the run one summary row.
 */
import { jobDeletionRepository, type RetentionCandidate } from "../store/job-deletion";
import type { ReadTx } from "../store/repository";
import { AppError } from "../context/errors";
import { archiveJob } from "./archive-job";
import { audit, type Actor } from "./audit";
import { deleteJobRows } from "./delete-job-rows";
import type { Farm } from "../context/farm";
import { inSlices, yieldToEventLoop } from "./in-slices";
import { withJobLock } from "./job-lock";

const DAY_MS = 24 * 60 * 60 * 1000;

export type PurgeMode = "archive" | "delete";

export interface RetentionPreview {
  olderThanDays: number;
  /** Jobs that ended before this time (epoch ms). */
  cutoff: number;
  jobs: number;
  tasks: number;
  logLines: number;
}

export interface PurgeResult extends RetentionPreview {
  mode: PurgeMode;
  /** Archive files written, relative to the data folder (archive mode). */
  files: string[];
}

function candidates(farm: Farm, cutoff: number): Promise<RetentionCandidate[]> {
  return farm.store.read((tx) => jobDeletionRepository.finishedBefore(tx, cutoff));
}

function checkDays(days: number): number {
  if (!Number.isInteger(days) || days < 0 || days > 36_500) throw new AppError("BAD_REQUEST", `olderThanDays must be a whole number of days from 0 to 36500, got ${days}`);
  return days;
}

/** A job's log lines, counted in id ranges of its index (a read unit per slice) so a job of millions of lines never stalls. */
async function countLogLines(farm: Farm, jobId: string): Promise<number> {
  const bounds = await farm.store.read((tx) => jobDeletionRepository.logLineBounds(tx, jobId));
  if (!bounds) return 0;
  const RANGE = 50_000;
  let from = bounds.low;
  let total = 0;
  await inSlices(
    (fn) => farm.store.read(fn),
    async (tx: ReadTx) => {
      total += await jobDeletionRepository.countLogLines(tx, jobId, from, from + RANGE - 1);
      from += RANGE;
      return from <= bounds.high;
    },
  );
  return total;
}

export async function retentionPreview(farm: Farm, olderThanDays = farm.settings.jobRetentionDays): Promise<RetentionPreview> {
  const days = checkDays(olderThanDays);
  const cutoff = farm.now() - days * DAY_MS;
  const found = await candidates(farm, cutoff);
  let logLines = 0;
  for (const job of found) {
    logLines += await countLogLines(farm, job.id);
    await yieldToEventLoop();
  }
  return { olderThanDays: days, cutoff, jobs: found.length, tasks: found.reduce((sum, job) => sum + job.task_count, 0), logLines };
}

export async function purgeJobs(farm: Farm, input: { olderThanDays?: number; mode: PurgeMode }, actor: Actor): Promise<PurgeResult> {
  const days = checkDays(input.olderThanDays ?? farm.settings.jobRetentionDays);
  const { mode } = input;
  const dataDir = farm.settings.dataDir;
  if (mode === "archive" && dataDir === null) throw new AppError("BAD_REQUEST", "this farm has no data folder to archive into; purge with mode delete");
  const cutoff = farm.now() - days * DAY_MS;
  const result: PurgeResult = { olderThanDays: days, cutoff, mode, jobs: 0, tasks: 0, logLines: 0, files: [] };
  const purged: string[] = [];
  for (const job of await candidates(farm, cutoff)) {
    await withJobLock(farm, job.id, async () => {
      // Requeued or deleted since the list was read: left alone.
      if (!(await farm.store.read((tx) => jobDeletionRepository.isFinishedBefore(tx, job.id, cutoff)))) return;
      const archived = mode === "archive" ? await archiveJob(farm, job.id, dataDir!) : null;
      const deleted = await deleteJobRows(farm, job.id, (tx, deleted) =>
        audit(tx, farm, actor, {
          action: mode === "archive" ? "job.archive" : "job.delete",
          target: { kind: "job", id: job.id },
          before: { name: job.name, tasks: deleted.tasks, logLines: deleted.logLines },
          after: archived ? { file: archived.file } : null,
        }),
      );
      result.jobs += 1;
      result.tasks += deleted.tasks;
      result.logLines += deleted.logLines;
      if (archived) result.files.push(archived.file);
      purged.push(job.id);
    });
    await yieldToEventLoop();
  }
  await farm.store.transaction((tx) =>
    audit(tx, farm, actor, {
      action: "retention.purge",
      after: { mode, olderThanDays: days, cutoff, jobs: result.jobs, tasks: result.tasks, logLines: result.logLines },
    }),
  );
  if (purged.length > 0) farm.events.publish(null, "jobs", purged);
  return result;
}
