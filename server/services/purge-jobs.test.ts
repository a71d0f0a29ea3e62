/**
 * Job retention through the tRPC caller (admins) against a real SQLite and a real data folder:
 * the preview counts only finished jobs past the age; archive writes each job whole as gzipped
 * JSON Lines (0600 in a 0700 folder) and then deletes it; delete removes it with everything
 * under it; each purged job and each run leave their audit rows.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it, onTestFinished } from "vitest";
import { contextAs } from "../auth/test-principals";
import { appRouter } from "../router/index";
import { createCallerFactory } from "../router/trpc";
import { SYSTEM_ACTOR } from "./audit";
import { cancelTasks } from "./cancel-tasks";
import { refreshCompatibility } from "./compatibility";
import { framesJob, jobCounts, jobStatus, LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "./farm-test-support";
import { suspendTasks } from "./suspend-tasks";
import { ingestLogs } from "./ingest-logs";
import { rawOf } from "../store/store-test-support";
import type { SqlValue } from "../store/engine/engine";

const JOB = framesJob(3);

/** Two independent steps: Render runs anywhere, Windows needs a Windows worker. */
const WAITING_JOB = `
specificationVersion: jobtemplate-2023-09
name: waiting
steps:
- name: Render
  script:
    actions:
      onRun: {command: echo, args: [render]}
- name: Windows
  hostRequirements:
    attributes: [{name: attr.worker.os.family, anyOf: [windows]}]
  script:
    actions:
      onRun: {command: echo, args: [windows]}
`;

const DAY = 24 * 60 * 60 * 1000;

const taskIdOf = async (t: TestFarm, jobId: string, index: number) => (await rawOf(t.farm.store).get<{ id: number }>("SELECT id FROM tasks WHERE job_id = ? AND task_index = ?", jobId, index))!.id;

/** A job run to SUCCEEDED by a worker that logged `lines` lines in its Session. */
async function finishedJob(t: TestFarm, name: string, lines: number): Promise<string> {
  const jobId = await submit(t, JOB);
  const worker = await SimulatedWorker.create(t, LINUX_WORKER(name), (a) => (a.kind === "TASK_RUN" ? "hold" : { status: "SUCCEEDED", exitCode: 0 }));
  const sessionId = (await worker.sync()).assignments[0]!.sessionId;
  const logged = Array.from({ length: lines }, (_, seq) => ({ seq, actionId: null, time: t.clock.now, line: `line ${seq} of ${name}` }));
  await ingestLogs(t.farm, await worker.identity, { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch, sessionId, lines: logged });
  for (let i = 0; i < 10 && worker.heldActions.length > 0; i++) {
    for (const id of [...worker.heldActions]) worker.finish(id, { status: "SUCCEEDED", exitCode: 0 });
    await worker.sync();
  }
  await worker.runUntilIdle();
  return jobId;
}

async function setup() {
  const dataDir = mkdtempSync(join(tmpdir(), "loom-retention-"));
  onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
  const t = await testFarm({ dataDir, jobRetentionDays: 30 });
  const admin = createCallerFactory(appRouter)(await contextAs(t.farm, "admin"));
  const raw = rawOf(t.farm.store);
  const all = (sql: string, ...args: SqlValue[]) => raw.all<Record<string, unknown>>(sql, ...args);
  /** Every row of a job, table by table, as an archive holds them. */
  const rowsOf = async (jobId: string) => {
    const sessions = await all("SELECT * FROM sessions WHERE job_id = ? ORDER BY started_at, id", jobId);
    const ids = sessions.map((s) => s.id as string);
    const bySession = async (table: string, order: string) => {
      const rows: Array<Record<string, unknown>> = [];
      for (const id of ids) rows.push(...(await all(`SELECT * FROM ${table} WHERE session_id = ? ORDER BY ${order}`, id)));
      return rows;
    };
    return {
      job: await all("SELECT * FROM jobs WHERE id = ?", jobId),
      step: await all("SELECT * FROM steps WHERE job_id = ? ORDER BY step_index", jobId),
      task: await all("SELECT * FROM tasks WHERE job_id = ? ORDER BY id", jobId),
      session: sessions,
      action: await bySession("session_actions", "seq"),
      log: await bySession("log_lines", "id"),
    };
  };
  return { t, dataDir, admin, all, rowsOf };
}

describe("job retention", () => {
  it("previews, archives and deletes only finished jobs past the age, each whole, with audit rows", async () => {
    const { t, dataDir, admin, all, rowsOf } = await setup();
    const logged = await finishedJob(t, "w1", 4);
    const canceled = await submit(t, JOB);
    await cancelTasks(t.farm, { jobId: canceled }, SYSTEM_ACTOR);
    const running = await submit(t, JOB);
    await (await SimulatedWorker.create(t, LINUX_WORKER("busy"), () => "hold")).sync();
    t.clock.now += 40 * DAY;
    const recent = await finishedJob(t, "w2", 2);
    t.clock.now += DAY;

    expect(await admin.retention.preview({ olderThanDays: 30 })).toEqual({ olderThanDays: 30, cutoff: t.clock.now - 30 * DAY, jobs: 2, tasks: 6, logLines: 4 });
    expect(await admin.retention.preview()).toMatchObject({ olderThanDays: 30, jobs: 2 });
    expect(await admin.retention.preview({ olderThanDays: 0 })).toMatchObject({ jobs: 3, tasks: 9, logLines: 6 });

    const before = await rowsOf(logged);
    expect(before.log).toHaveLength(4);
    expect(before.action).toHaveLength(3);
    const archived = await admin.retention.purge({ olderThanDays: 30, mode: "archive" });
    expect(archived).toMatchObject({ mode: "archive", jobs: 2, tasks: 6, logLines: 4, files: [join("archive", `${logged}.jsonl.gz`), join("archive", `${canceled}.jsonl.gz`)] });

    const file = join(dataDir, "archive", `${logged}.jsonl.gz`);
    expect(statSync(join(dataDir, "archive")).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const [header, ...lines] = gunzipSync(readFileSync(file))
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; row?: unknown });
    expect(header).toMatchObject({ kind: "archive", format: "loom-job-archive/1", jobId: logged });
    const byKind = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.row);
    expect(Object.fromEntries(Object.keys(before).map((kind) => [kind, byKind(kind)]))).toEqual(before);

    const left = async (jobId: string) => {
      const counts: number[] = [];
      for (const q of ["jobs WHERE id", "steps WHERE job_id", "tasks WHERE job_id", "sessions WHERE job_id", "log_lines WHERE job_id"])
        counts.push((await all(`SELECT COUNT(*) AS n FROM ${q} = ?`, jobId))[0]!.n as number);
      return counts;
    };
    expect(await left(logged)).toEqual([0, 0, 0, 0, 0]);
    expect(await left(canceled)).toEqual([0, 0, 0, 0, 0]);
    expect((await all("SELECT COUNT(*) AS n FROM session_actions"))[0]!.n).toBe((await rowsOf(recent)).action.length + (await rowsOf(running)).action.length);
    expect((await admin.jobs.list({})).jobs.map((j) => j.id).sort()).toEqual([running, recent].sort());

    t.clock.now += 40 * DAY;
    const deleted = await admin.retention.purge({ mode: "delete" });
    expect(deleted).toMatchObject({ mode: "delete", olderThanDays: 30, jobs: 1, tasks: 3, logLines: 2, files: [] });
    expect(await left(recent)).toEqual([0, 0, 0, 0, 0]);
    expect(statSync(join(dataDir, "archive")).isDirectory()).toBe(true);
    expect(() => statSync(join(dataDir, "archive", `${recent}.jsonl.gz`))).toThrow();
    // Still running after 81 days: never purged.
    expect((await admin.jobs.list({})).jobs.map((j) => j.id)).toEqual([running]);

    const audit = await all("SELECT action, target_id, before, after FROM audit_log WHERE action IN ('job.archive', 'job.delete', 'retention.purge') ORDER BY id");
    expect(audit.map((a) => [a.action, a.target_id])).toEqual([
      ["job.archive", logged],
      ["job.archive", canceled],
      ["retention.purge", null],
      ["job.delete", recent],
      ["retention.purge", null],
    ]);
    expect(JSON.parse(audit[0]!.before as string)).toEqual({ name: "frames", tasks: 3, logLines: 4 });
    expect(JSON.parse(audit[0]!.after as string)).toEqual({ file: join("archive", `${logged}.jsonl.gz`) });
    expect(JSON.parse(audit[2]!.after as string)).toMatchObject({ mode: "archive", olderThanDays: 30, jobs: 2, tasks: 6, logLines: 4 });
  });

  it("leaves alone old jobs with tasks still waiting to run: a step no worker can run yet, and suspended tasks", async () => {
    const { t, admin, all } = await setup();
    // Render fails; Windows waits for a Windows worker (none yet): the job shows FAILED.
    const waiting = await submit(t, WAITING_JOB, { settings: { retryDelaySeconds: 0 } }); // retried at once: no delay to wait out
    const linux = await SimulatedWorker.create(t, LINUX_WORKER("linux"), () => ({ status: "FAILED", exitCode: 1 }));
    await refreshCompatibility(t.farm);
    await linux.runUntilIdle();
    expect([await jobStatus(t, waiting), await jobCounts(t, waiting)]).toEqual(["FAILED", ["FAILED:1", "NOT_COMPATIBLE:1"]]);
    // Only a step no worker can run: NOT_COMPATIBLE until one registers.
    const incompatible = await submit(t, WAITING_JOB.replace(/- name: Render[\s\S]*?(?=- name: Windows)/, ""));
    await refreshCompatibility(t.farm);
    expect(await jobStatus(t, incompatible)).toBe("NOT_COMPATIBLE");
    // Suspended tasks behind a failure: the job shows FAILED, the wrangler resumes them later.
    const held = await submit(t, JOB, { settings: { retryDelaySeconds: 0 } });
    await suspendTasks(t.farm, { jobId: held, taskIds: [await taskIdOf(t, held, 1), await taskIdOf(t, held, 2)] }, SYSTEM_ACTOR);
    await linux.runUntilIdle();
    expect([await jobStatus(t, held), await jobCounts(t, held)]).toEqual(["FAILED", ["SUSPENDED:2", "FAILED:1"]]);
    t.clock.now += 40 * DAY;

    expect(await admin.retention.preview({ olderThanDays: 30 })).toMatchObject({ jobs: 0 });
    expect(await admin.retention.purge({ olderThanDays: 30, mode: "delete" })).toMatchObject({ jobs: 0 });
    expect((await all("SELECT COUNT(*) AS n FROM jobs"))[0]!.n).toBe(3);

    // They were waiting, not finished: a Windows worker runs the Windows steps.
    await (await SimulatedWorker.create(t, { name: "win", capabilities: { amounts: {}, attributes: { "attr.worker.os.family": ["windows"] } } })).runUntilIdle();
    expect(await jobCounts(t, waiting)).toEqual(["FAILED:1", "SUCCEEDED:1"]);
    expect(await jobStatus(t, incompatible)).toBe("SUCCEEDED");
  });

  it("refuses to archive without a data folder, and refuses an age that is not whole days", async () => {
    const t = await testFarm();
    const admin = createCallerFactory(appRouter)(await contextAs(t.farm, "admin"));
    await expect(admin.retention.purge({ mode: "archive" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/no data folder/) });
    await expect(admin.retention.preview({ olderThanDays: 1.5 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const wrangler = createCallerFactory(appRouter)(await contextAs(t.farm, "wrangler"));
    await expect(wrangler.retention.purge({ mode: "delete" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
