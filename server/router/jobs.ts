/** Jobs: submit and preview, the job table, a job with its steps, tasks, Sessions, wrangler actions and live changes. */
import { tracked } from "@trpc/server";
import { z } from "zod";
import { maxPriorityFor, RULES } from "../../lib/farm/access";
import { getJob, getJobSummary, listJobs, listJobsInput, listSubmitters, listTasks, listTasksInput, type JobSummary } from "../queries/jobs";
import { jobWorkerFailures, jobWorkerFailuresInput } from "../queries/retry-rules";
import { listSessions, listSessionsInput } from "../queries/sessions";
import { taskDependencies, taskDependenciesInput } from "../queries/task-dependencies";
import { whyWaiting, whyWaitingInput } from "../queries/why-waiting";
import { clearWorkerFailures } from "../services/clear-worker-failures";
import { cancelTasks } from "../services/cancel-tasks";
import { requeueDependents } from "../services/requeue-dependents";
import { requeueTasks, retryFailedTasks } from "../services/requeue-tasks";
import { setJobPriority } from "../services/set-priority";
import { previewJob } from "../services/preview-job";
import { submitToFarm, type SubmitJobInput } from "../services/submit-job";
import { resumeTasks, suspendTasks } from "../services/suspend-tasks";
import { taskTarget } from "../services/task-target";
import { actorFor, authorized, router, signedIn, type Context } from "./trpc";

const templateText = z.object({ text: z.string().max(4 * 1024 * 1024), format: z.enum(["yaml", "json"]) });

const submitInput = z.object({
  template: templateText,
  environmentTemplates: z.array(templateText).max(20).default([]),
  parameterValues: z.record(z.string(), z.unknown()).default({}),
  /** The folder the template came from, when the submitter has one (relative PATH defaults join it). */
  templateDir: z.string().max(4096).nullable().default(null),
  /** The submitter's folder (relative PATH values join it); the server's when absent. */
  workingDir: z.string().max(4096).optional(),
  settings: z
    .object({
      priority: z.number().optional(),
      initialState: z.enum(["READY", "SUSPENDED"]).optional(),
      maxRetriesPerTask: z.number().optional(),
      maxFailedTasks: z.number().optional(),
      retryDelaySeconds: z.number().optional(),
      maxWorkerFailures: z.number().optional(),
    })
    .default({}),
});

/** The submission as the service takes it: owned by the caller, whose name is its submitter. */
function toSubmission(ctx: Context, input: z.infer<typeof submitInput>): SubmitJobInput {
  const caller = signedIn(ctx);
  return {
    template: input.template,
    environmentTemplates: input.environmentTemplates,
    parameterValues: input.parameterValues as SubmitJobInput["parameterValues"],
    templateDir: input.templateDir,
    workingDir: input.workingDir ?? process.cwd(),
    settings: input.settings,
    maxPriority: maxPriorityFor(caller),
    now: ctx.farm.now(),
    owner: { userId: caller.userId, name: caller.name, actor: actorFor(ctx) },
  };
}

export const jobsRouter = router({
  list: authorized(RULES.read)
    .input(listJobsInput)
    .query(({ ctx, input }) => listJobs(ctx.farm, input)),
  submitters: authorized(RULES.read).query(({ ctx }) => listSubmitters(ctx.farm)),
  get: authorized(RULES.read)
    .input(z.object({ jobId: z.string().min(1).max(100) }))
    .query(({ ctx, input }) => getJob(ctx.farm, input.jobId)),
  tasks: authorized(RULES.read)
    .input(listTasksInput)
    .query(({ ctx, input }) => listTasks(ctx.farm, input)),
  sessions: authorized(RULES.read)
    .input(listSessionsInput)
    .query(({ ctx, input }) => listSessions(ctx.farm, input)),
  /** Every reason a task is not running (dependencies, suspended, compatibility, queue, free workers), in plain words. */
  whyWaiting: authorized(RULES.read)
    .input(whyWaitingInput)
    .query(({ ctx, input }) => whyWaiting(ctx.farm, input)),
  /** What a task waits for among other tasks and what waits for it (pages of each), and what blocks it (TASK_DEPENDENCIES). */
  taskDependencies: authorized(RULES.read)
    .input(taskDependenciesInput)
    .query(({ ctx, input }) => taskDependencies(ctx.farm, input)),
  /** How many dependents a requeue of the target would reach (released by its succeeded tasks): the number `requeue` with `withDependents` requeues too. */
  requeueDependents: authorized(RULES.read)
    .input(taskTarget)
    .query(({ ctx, input }) => requeueDependents(ctx.farm, input)),
  /** The per-worker failure rule for the job: where its tasks failed, and which workers are kept away. */
  workerFailures: authorized(RULES.read)
    .input(jobWorkerFailuresInput)
    .query(({ ctx, input }) => jobWorkerFailures(ctx.farm, input.jobId)),

  /** Checks a submission without writing anything: errors, or the job's steps, task counts and which pools can run each step. */
  preview: authorized(RULES.submit)
    .input(submitInput)
    .mutation(({ ctx, input }) => previewJob(ctx.farm, toSubmission(ctx, input))),
  submit: authorized(RULES.submit)
    .input(submitInput)
    .mutation(({ ctx, input }) => submitToFarm(ctx.farm, toSubmission(ctx, input))),

  cancel: authorized(RULES.ownJob)
    .input(taskTarget)
    .mutation(({ ctx, input }) => cancelTasks(ctx.farm, input, actorFor(ctx))),
  suspend: authorized(RULES.ownJob)
    .input(taskTarget)
    .mutation(({ ctx, input }) => suspendTasks(ctx.farm, input, actorFor(ctx))),
  resume: authorized(RULES.ownJob)
    .input(taskTarget)
    .mutation(({ ctx, input }) => resumeTasks(ctx.farm, input, actorFor(ctx))),
  requeue: authorized(RULES.ownJob)
    .input(taskTarget.extend({ withDependents: z.boolean().default(false) }))
    .mutation(({ ctx, input: { withDependents, ...target } }) => requeueTasks(ctx.farm, target, actorFor(ctx), { withDependents })),
  retryFailed: authorized(RULES.ownJob)
    .input(taskTarget)
    .mutation(({ ctx, input }) => retryFailedTasks(ctx.farm, input, actorFor(ctx))),
  /** Lets one worker (or every worker) take the job's tasks again: a wrangler's call, not the job owner's (it is about the farm's machines). */
  clearWorkerFailures: authorized(RULES.wrangle)
    .input(z.object({ jobId: z.string().min(1).max(100), workerId: z.string().min(1).max(100).optional() }))
    .mutation(({ ctx, input }) => clearWorkerFailures(ctx.farm, input, actorFor(ctx))),
  setPriority: authorized(RULES.ownJob)
    .input(z.object({ jobId: z.string().min(1).max(100), priority: z.number() }))
    .mutation(({ ctx, input }) => setJobPriority(ctx.farm, input.jobId, input.priority, actorFor(ctx), maxPriorityFor(signedIn(ctx)))),

  /**
   * Job summaries as they change (one job, or all). Starts with the current state of the watched
   * job, so a reconnecting client is never stale; ids are a per-connection counter.
   */
  onChange: authorized(RULES.read)
    .input(z.object({ jobId: z.string().max(100).optional() }).default({}))
    .subscription(async function* ({ ctx, input, signal }) {
      const events = ctx.farm.events.stream("jobs", signal);
      let n = 0;
      if (input.jobId) yield tracked(String(++n), [await getJobSummary(ctx.farm, input.jobId)]);
      try {
        for await (const jobIds of events) {
          const ids = jobIds.filter((id) => !input.jobId || id === input.jobId);
          if (ids.length === 0) continue;
          const jobs: JobSummary[] = [];
          for (const id of ids) {
            try {
              jobs.push(await getJobSummary(ctx.farm, id));
            } catch {
              // deleted meanwhile
            }
          }
          yield tracked(String(++n), jobs);
        }
      } catch (error) {
        if (!signal?.aborted) throw error;
      }
    }),
});
