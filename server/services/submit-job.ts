/**
 * Submitting a job: template text, environment templates and parameter values are validated
 * with lib/openjd exactly as `loom check` / `loom run` do (server/checks/validate-submission.ts),
 * and on success the job, its steps and every task are written. Bad input is a typed result with
 * located errors and writes nothing. The job row keeps the template text and the resolved
 * parameter values, so a worker recreates the identical job with createJob.
 *
 * On a farm (submitToFarm) the checking and the walk of the lazy parameter space run on a check
 * thread within the farm's budget, and the rows are written in short slices (persist-job.ts), so
 * a 1,000,000-task job never stalls the server. submitJob does it all in-process, in one unit
 * of work: small jobs in tests, and `npm run bench:submit`.
 */
import { randomBytes } from "node:crypto";
import { createOffLoop } from "../checks/run-checks";
import { planJob, taskBatches } from "../checks/plan-job";
import { validateSubmission, type Refused, type SubmitJobInput } from "../checks/validate-submission";
import type { Store } from "../db/connection";
import { refreshCompatibility } from "./compatibility";
import type { Farm } from "../context/farm";
import { withJobLock } from "./job-lock";
import { createJobInSlices, writeJobAtOnce } from "./persist-job";

export {
  validateSubmission,
  type ResolvedSettings,
  type SubmitError,
  type SubmitErrorOrigin,
  type SubmitJobInput,
  type SubmitSettings,
  type TemplateText,
  type ValidSubmission,
} from "../checks/validate-submission";

export type SubmitJobResult = { ok: true; jobId: string; taskCount: number } | Refused;

/** Rows walked per batch in-process (one unit of work holds them all anyway). */
const IN_PROCESS_BATCH = 20_000;

export async function submitJob(store: Store, input: SubmitJobInput): Promise<SubmitJobResult> {
  const valid = validateSubmission(input);
  if (!valid.ok) return valid;
  const jobId = (input.ids?.jobId ?? newJobId)();
  await writeJobAtOnce(store, jobId, input, planJob(valid), taskBatches(valid.job, IN_PROCESS_BATCH));
  return { ok: true, jobId, taskCount: valid.taskCount };
}

/**
 * A submission to a running farm: checked off the event loop, written in slices, held
 * NOT_COMPATIBLE where no worker of an enabled pool can run it, and announced (live views
 * refresh, idle workers' long polls answer with it) once it is live; the answer comes after that.
 */
export async function submitToFarm(farm: Farm, input: SubmitJobInput): Promise<SubmitJobResult> {
  const jobId = (input.ids?.jobId ?? newJobId)();
  const result = await createOffLoop(farm, input.owner?.userId ?? "anonymous", input, async (plan, nextBatch) => {
    await withJobLock(farm, jobId, () => createJobInSlices(farm, jobId, input, plan, nextBatch));
    return { ok: true as const, jobId, taskCount: plan.taskCount };
  });
  if (result.ok) {
    // A worker that registered while the job was being written: the step counts were still 0.
    await refreshCompatibility(farm);
    farm.events.publish(null, "jobs", [result.jobId]);
  }
  return result;
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** `job-` and 10 lowercase base32 characters (50 random bits). */
function newJobId(): string {
  let id = "job-";
  for (const byte of randomBytes(10)) id += BASE32[byte & 31];
  return id;
}
