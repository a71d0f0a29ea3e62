/**
 * The job table's read model against a real migrated store (SQLite or PostgreSQL, the run's engine) holding 10,000 jobs: every filter,
 * each sort key, paging, and (on SQLite) the query plan of the default view (served by an index, no sort).
 * Expected pages are computed here in plain JS from the seeded rows, not from the query.
 */
import { describe, expect, it } from "vitest";
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import { createFarm } from "../context/farm";
import { jobListSql } from "../store/job-queries";
import { rawOf } from "../store/store-test-support";
import { testEngine, testStore } from "../store/engines-test-support";
import { listJobs, listJobsInput, listSubmitters, type ListJobsInput } from "./jobs";

interface Seeded {
  id: string;
  seq: number;
  name: string;
  submitter: string;
  priority: number;
  status: TaskStatus;
  submittedAt: number;
  taskCount: number;
  succeeded: number;
}

const SUBMITTERS = ["ana", "bo", "cy", "dee"];
const T0 = 1_700_000_000_000;

/** Deterministic but scrambled values, so no sort order is an accident of insertion order. */
function seedRows(count: number): Seeded[] {
  const rows: Seeded[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const scramble = (seq * 7919) % 10_007;
    const taskCount = 1 + (scramble % 50);
    rows.push({
      id: `job-${String(seq).padStart(5, "0")}`,
      seq,
      name: `${["shot", "comp", "sim"][seq % 3]}_${scramble}`,
      submitter: SUBMITTERS[scramble % SUBMITTERS.length]!,
      priority: scramble % 101,
      status: TASK_STATUSES[scramble % TASK_STATUSES.length]!,
      submittedAt: T0 + seq * 60_000,
      taskCount,
      succeeded: scramble % (taskCount + 1),
    });
  }
  return rows;
}

const rows = seedRows(10_000);

/** Rows per INSERT: 10 values each, under either engine's limit of bound values (SQLite 32,766, PostgreSQL 65,535). */
const BATCH = 2_000;

/** A farm on a fresh store of the run's engine holding the seeded jobs. */
async function seeded() {
  const store = await testStore();
  const t = { farm: createFarm(store, { now: () => T0 }) };
  const raw = rawOf(store);
  for (let from = 0; from < rows.length; from += BATCH) {
    const batch = rows.slice(from, from + BATCH);
    await raw.run(
      `INSERT INTO jobs (id, seq, name, submitter, template_text, template_format, environment_templates, parameters, priority, status, count_succeeded, count_pending, task_count, max_retries_per_task, max_failed_tasks, submitted_at)
       VALUES ${batch.map(() => "(?, ?, ?, ?, '', 'yaml', '[]', '{}', ?, ?, ?, ?, ?, 2, 100, ?)").join(", ")}`,
      ...batch.flatMap((row) => [row.id, row.seq, row.name, row.submitter, row.priority, row.status, row.succeeded, row.taskCount - row.succeeded, row.taskCount, row.submittedAt]),
    );
  }
  return t;
}

/** The page the table should show, by the definition of each filter and sort (ties newest first). */
function expected(input: ListJobsInput, keep: (r: Seeded) => boolean, key: (r: Seeded) => number | string) {
  const sign = input.direction === "asc" ? 1 : -1;
  const matching = rows.filter(keep).sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
    return b.seq - a.seq;
  });
  const offset = input.offset ?? 0;
  return { total: matching.length, ids: matching.slice(offset, offset + (input.limit ?? 50)).map((r) => r.id) };
}

describe("listJobs over 10,000 jobs", () => {
  const cases: Array<[string, ListJobsInput, (r: Seeded) => boolean, (r: Seeded) => number | string]> = [
    ["default: newest first", {}, () => true, (r) => r.seq],
    ["page 3, oldest first", { direction: "asc", offset: 100, limit: 50 }, () => true, (r) => r.seq],
    ["by priority, descending", { sort: "priority" }, () => true, (r) => r.priority],
    ["by name, ascending, deep page", { sort: "name", direction: "asc", offset: 9_000, limit: 25 }, () => true, (r) => r.name],
    ["by submitter", { sort: "submitter", direction: "asc", limit: 10 }, () => true, (r) => r.submitter],
    ["by task count", { sort: "taskCount" }, () => true, (r) => r.taskCount],
    ["by progress", { sort: "progress", direction: "asc" }, () => true, (r) => r.succeeded / r.taskCount],
    ["status filter", { statuses: ["FAILED", "RUNNING"] }, (r) => r.status === "FAILED" || r.status === "RUNNING", (r) => r.seq],
    ["a status named twice counts once", { statuses: ["FAILED", "RUNNING", "FAILED"] }, (r) => r.status === "FAILED" || r.status === "RUNNING", (r) => r.seq],
    ["submitter filter", { submitter: "cy", sort: "priority", direction: "asc" }, (r) => r.submitter === "cy", (r) => r.priority],
    ["priority range", { minPriority: 40, maxPriority: 42 }, (r) => r.priority >= 40 && r.priority <= 42, (r) => r.seq],
    [
      "submitted date range (to is exclusive)",
      { submittedFrom: T0 + 500 * 60_000, submittedTo: T0 + 700 * 60_000, limit: 500 },
      (r) => r.submittedAt >= T0 + 500 * 60_000 && r.submittedAt < T0 + 700 * 60_000,
      (r) => r.seq,
    ],
    ["name search", { search: "comp_12" }, (r) => r.name.includes("comp_12"), (r) => r.seq],
    ["search by exact id", { search: "job-04242" }, (r) => r.id === "job-04242", (r) => r.seq],
    [
      "everything at once",
      { statuses: ["READY"], submitter: "ana", minPriority: 10, maxPriority: 90, submittedFrom: T0, search: "s", sort: "name", direction: "asc" },
      (r) => r.status === "READY" && r.submitter === "ana" && r.priority >= 10 && r.priority <= 90 && r.name.includes("s"),
      (r) => r.name,
    ],
  ];

  it.each(cases)("%s", async (_name, input, keep, key) => {
    const t = await seeded();
    const page = await listJobs(t.farm, input);
    const want = expected(input, keep, key);
    expect(want.total).toBeGreaterThan(0);
    expect(page.total).toBe(want.total);
    expect(page.jobs.map((j) => j.id)).toEqual(want.ids);
  });

  it("treats LIKE wildcards in a search as plain text", async () => {
    const t = await seeded();
    expect((await listJobs(t.farm, { search: "%" })).total).toBe(0);
    expect((await listJobs(t.farm, { search: "shot_" })).total).toBe(rows.filter((r) => r.name.includes("shot_")).length);
  });

  it.skipIf(testEngine() === "postgres")("serves the default view from an index, with no sort step (SQLite only: asserts SQLite's EXPLAIN QUERY PLAN output)", async () => {
    const t = await seeded();
    const view = listJobsInput.parse({});
    const { page, params } = jobListSql(view);
    const plan = (await rawOf(t.farm.store).all<{ detail: string }>(`EXPLAIN QUERY PLAN ${page}`, ...params, view.limit, view.offset)).map((p) => p.detail).join("\n");
    expect(plan).toMatch(/USING INDEX/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it("lists every submitter once", async () => {
    const t = await seeded();
    expect(await listSubmitters(t.farm)).toEqual([...new Set(rows.map((r) => r.submitter))].sort());
  });
});
