/**
 * Wrangler operations on a job, a step or tasks: each is idempotent, keeps the per-status counts
 * true, refuses unknown targets, and is honoured by the next worker sync.
 */
import { describe, expect, it } from "vitest";
import { countColumnsSql, countsFromRow, type CountColumnsRow } from "../db/status-counts";
import { rawOf } from "../store/store-test-support";
import { cancelTasks } from "./cancel-tasks";
import { framesJob, jobCounts, jobStatus, LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "./farm-test-support";
import { requeueTasks, retryFailedTasks } from "./requeue-tasks";
import { setJobPriority } from "./set-priority";
import { resumeTasks, suspendTasks } from "./suspend-tasks";
import { SYSTEM_ACTOR } from "./audit";

const JOB = framesJob(5, { encode: true });

const stepId = async (t: TestFarm, jobId: string, index: number) =>
  (await rawOf(t.farm.store).get<{ id: string }>("SELECT id FROM steps WHERE job_id = ? AND step_index = ?", jobId, index))?.id as string;

/** Recounts every step from the task rows and compares with the stored counts. */
async function countsAreTrue(t: TestFarm, jobId: string): Promise<boolean> {
  const raw = rawOf(t.farm.store);
  const steps = await raw.all<CountColumnsRow & { id: string }>(`SELECT id, ${countColumnsSql()} FROM steps WHERE job_id = ?`, jobId);
  for (const step of steps) {
    const stored: Record<string, number> = countsFromRow(step);
    const actual = await raw.all<{ status: string; n: number }>("SELECT status, COUNT(*) AS n FROM tasks WHERE step_id = ? GROUP BY status", step.id);
    if (!(actual.every((row) => stored[row.status] === row.n) && Object.values(stored).reduce((a, b) => a + b, 0) === actual.reduce((a, r) => a + r.n, 0))) return false;
  }
  return true;
}

describe("suspend and resume", () => {
  it("suspends waiting tasks (nothing dispatches), resumes them; twice changes nothing more", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    expect((await suspendTasks(t.farm, { jobId }, SYSTEM_ACTOR)).changed).toBe(6);
    expect((await suspendTasks(t.farm, { jobId }, SYSTEM_ACTOR)).changed).toBe(0);
    expect(await jobStatus(t, jobId)).toBe("SUSPENDED");
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"));
    expect((await worker.sync()).assignments).toEqual([]);
    expect((await resumeTasks(t.farm, { jobId }, SYSTEM_ACTOR)).changed).toBe(6);
    expect((await resumeTasks(t.farm, { jobId }, SYSTEM_ACTOR)).changed).toBe(0);
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:1", "READY:5"]);
    await worker.runUntilIdle();
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
    expect(await countsAreTrue(t, jobId)).toBe(true);
  });

  it("suspending a running task cancels it on its worker; it runs again after resume", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => (a.kind === "TASK_RUN" && a.parameters?.F?.value === "1" && !resumed ? "hold" : { status: "SUCCEEDED", exitCode: 0 }));
    let resumed = false;
    await worker.sync();
    await suspendTasks(t.farm, { jobId, stepId: await stepId(t, jobId, 0) }, SYSTEM_ACTOR);
    expect((await worker.sync()).cancel).toHaveLength(1);
    await worker.runUntilIdle();
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:1", "SUSPENDED:5"]);
    resumed = true;
    await resumeTasks(t.farm, { jobId, stepId: await stepId(t, jobId, 0) }, SYSTEM_ACTOR);
    await worker.runUntilIdle();
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
    expect(worker.log.filter((l) => l === "TASK_RUN Render 1")).toHaveLength(2);
  });
});

describe("cancel, requeue, retry", () => {
  it("cancels one task; the rest of the job runs; the job ends CANCELED only when the cancel left work undone", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const [task] = await rawOf(t.farm.store).all<{ id: number }>("SELECT id FROM tasks WHERE job_id = ? AND task_index = 2", jobId);
    expect((await cancelTasks(t.farm, { jobId, taskIds: [task!.id] }, SYSTEM_ACTOR)).changed).toBe(1);
    expect((await cancelTasks(t.farm, { jobId, taskIds: [task!.id] }, SYSTEM_ACTOR)).changed).toBe(0);
    await (await SimulatedWorker.create(t, LINUX_WORKER("w"))).runUntilIdle();
    // Encode depends on every Render task succeeding: it never becomes READY.
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:1", "CANCELED:1", "SUCCEEDED:4"]);
    expect(await countsAreTrue(t, jobId)).toBe(true);
    expect((await requeueTasks(t.farm, { jobId, taskIds: [task!.id] }, SYSTEM_ACTOR)).changed).toBe(1);
    await (await SimulatedWorker.create(t, LINUX_WORKER("w2"))).runUntilIdle();
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
  });

  it("retry-failed requeues only FAILED tasks with a fresh retry budget", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB, { settings: { maxRetriesPerTask: 0, maxFailedTasks: 10 } });
    let broken = true;
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), (a) => (broken && a.parameters?.F?.value === "4" ? { status: "FAILED", exitCode: 2 } : { status: "SUCCEEDED", exitCode: 0 }));
    await worker.runUntilIdle();
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:1", "FAILED:1", "SUCCEEDED:4"]);
    expect(await jobStatus(t, jobId)).toBe("FAILED");
    broken = false;
    expect((await retryFailedTasks(t.farm, { jobId }, SYSTEM_ACTOR)).changed).toBe(1);
    expect((await retryFailedTasks(t.farm, { jobId }, SYSTEM_ACTOR)).changed).toBe(0);
    await worker.runUntilIdle();
    expect(await jobStatus(t, jobId)).toBe("SUCCEEDED");
    expect(await countsAreTrue(t, jobId)).toBe(true);
  });

  it("refuses unknown jobs, steps and tasks with NOT_FOUND and changes nothing", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    await expect(cancelTasks(t.farm, { jobId: "job-nope" }, SYSTEM_ACTOR)).rejects.toThrow(/no job job-nope/);
    await expect(cancelTasks(t.farm, { jobId, stepId: "nope" }, SYSTEM_ACTOR)).rejects.toThrow(/has no step nope/);
    await expect(cancelTasks(t.farm, { jobId, taskIds: [999_999] }, SYSTEM_ACTOR)).rejects.toThrow(/1 of the given tasks are not in job/);
    expect(await jobCounts(t, jobId)).toEqual(["PENDING:1", "READY:5"]);
  });
});

describe("priority", () => {
  it("takes effect at the next dispatch and is validated", async () => {
    const t = await testFarm();
    const first = await submit(t, JOB);
    const second = await submit(t, JOB);
    await setJobPriority(t.farm, second, 99, SYSTEM_ACTOR);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"), () => "hold");
    expect((await worker.sync()).assignments[0]?.job.id).toBe(second);
    await expect(setJobPriority(t.farm, first, 101, SYSTEM_ACTOR)).rejects.toThrow(/from 0 to 100/);
    await expect(setJobPriority(t.farm, "job-nope", 1, SYSTEM_ACTOR)).rejects.toThrow(/no job/);
  });
});
