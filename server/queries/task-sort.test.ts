/**
 * The task table's server-side sort (issue 11) against a real migrated store of the run's engine: every column, both
 * directions, a deep page, empty values last. The tasks' columns are scrambled with deterministic
 * values, and each expected order is computed here in plain JS from the rows as stored.
 */
import { describe, expect, it } from "vitest";
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm } from "../services/farm-test-support";
import { rawOf } from "../store/store-test-support";
import { getJob, listTasks } from "./jobs";
import { TASK_SORTS, type TaskSort } from "./task-sort";

const JOB = `specificationVersion: jobtemplate-2023-09
name: Sorted
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: Frame, type: INT, range: "1-30"}
    - {name: Layer, type: STRING, range: [beauty, alpha, zdepth]}
    combination: "Frame * Layer"
  script:
    actions:
      onRun: {command: echo}
`;

interface Stored {
  id: number;
  task_index: number;
  parameters: string;
  status: TaskStatus;
  worker_id: string | null;
  started_at: number | null;
  ended_at: number | null;
  failure_count: number;
  interruption_count: number;
  status_message: string | null;
  progress: number | null;
  session_id: string | null;
}

async function seeded() {
  const t = await testFarm();
  const stepId = (await getJob(t.farm, await submit(t, JOB))).steps[0]!.id;
  // Names sort differently from ids, so a sort by worker that read ids would show.
  const workerNames = ["mid", "alpha", "zeta"];
  const workers = [];
  for (const name of workerNames) workers.push(await SimulatedWorker.create(t, LINUX_WORKER(name)));
  const now = t.farm.now();
  const raw = rawOf(t.farm.store);
  const update = "UPDATE tasks SET status = ?, worker_id = ?, started_at = ?, ended_at = ?, failure_count = ?, interruption_count = ?, status_message = ?, progress = ?, session_id = ? WHERE id = ?";
  const ids = await raw.column<number>("SELECT id FROM tasks WHERE step_id = ?", stepId);
  for (const id of ids) {
    const k = (id * 7919) % 101;
    const started = k % 5 === 0 ? null : now - 1_000 * (k % 37);
    await raw.run(
      update,
      TASK_STATUSES[k % TASK_STATUSES.length]!,
      k % 4 === 0 ? null : workers[k % 3]!.workerId,
      started,
      started !== null && k % 3 !== 0 ? started + 100 * (k % 11) : null,
      k % 3,
      k % 2,
      k % 6 === 0 ? null : `message ${k % 13}`,
      k % 7 === 0 ? null : k % 17,
      k % 4 === 0 ? null : `session-${k % 9}`,
      id,
    );
  }
  const rows = await raw.all<Stored>("SELECT * FROM tasks WHERE step_id = ?", stepId);
  const names = new Map(workers.map((w, i) => [w.workerId, workerNames[i]!] as const));
  return { t, stepId, rows, names, now };
}

type Key = number | string | null;

/** What each column shows, as a sortable value (null: empty). */
function keyOf(sort: TaskSort, row: Stored, names: Map<string, string>, now: number, parameter: string): Key {
  const params = JSON.parse(row.parameters) as Record<string, { type: string; value: string }>;
  switch (sort) {
    case "index":
      return row.task_index;
    case "status":
      return TASK_STATUSES.indexOf(row.status);
    case "parameter":
      return params[parameter]!.type === "INT" ? Number(params[parameter]!.value) : params[parameter]!.value;
    case "worker":
      return row.worker_id === null ? null : names.get(row.worker_id)!;
    case "startedAt":
      return row.started_at;
    case "duration":
      return row.started_at === null ? null : (row.ended_at ?? now) - row.started_at;
    case "retries":
      return (row.failure_count + row.interruption_count) * 1000 + row.failure_count;
    case "message":
      return row.status_message;
    case "progress":
      return row.progress;
    case "session":
      return row.session_id;
  }
}

function expectedOrder(rows: Stored[], key: (r: Stored) => Key, direction: "asc" | "desc"): number[] {
  const sign = direction === "asc" ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      if (ka === null || kb === null) return ka === kb ? a.task_index - b.task_index : ka === null ? 1 : -1;
      if (ka !== kb) return (ka < kb ? -1 : 1) * sign;
      return a.task_index - b.task_index;
    })
    .map((r) => r.id);
}

describe("the task table's sort", () => {
  const cases: Array<[string, TaskSort, string, "asc" | "desc"]> = [];
  for (const sort of TASK_SORTS) {
    for (const parameter of sort === "parameter" ? ["Frame", "Layer"] : ["Frame"]) {
      for (const direction of ["asc", "desc"] as const) cases.push([`${sort}${sort === "parameter" ? ` ${parameter}` : ""} ${direction}`, sort, parameter, direction]);
    }
  }

  it.each(cases)("orders by %s, empty values last, ties in task order", async (_, sort, parameter, direction) => {
    const { t, stepId, rows, names, now } = await seeded();
    const want = expectedOrder(rows, (r) => keyOf(sort, r, names, now, parameter), direction);
    const all = await listTasks(t.farm, { stepId, sort, parameter, direction, limit: 1000 });
    expect(all.total).toBe(90);
    expect(all.tasks.map((r) => r.id)).toEqual(want);
    // A page further down is the same slice of that order, so paging never skips or repeats a task.
    expect((await listTasks(t.farm, { stepId, sort, parameter, direction, offset: 40, limit: 25 })).tasks.map((r) => r.id)).toEqual(want.slice(40, 65));
  });

  it("names each task's worker as the Workers page does", async () => {
    const { t, stepId, names } = await seeded();
    for (const task of (await listTasks(t.farm, { stepId, limit: 1000 })).tasks) expect(task.workerName).toBe(task.workerId === null ? null : names.get(task.workerId));
  });

  it("refuses a parameter sort without a name, or with a name that is not one, saying where", async () => {
    const { t, stepId } = await seeded();
    await expect(listTasks(t.farm, { stepId, sort: "parameter" })).rejects.toThrow(/parameter/);
    await expect(listTasks(t.farm, { stepId, sort: "parameter", parameter: 'Frame"); DROP TABLE tasks; --' })).rejects.toThrow(/task parameter name/);
    expect((await listTasks(t.farm, { stepId })).total).toBe(90);
  });
});
