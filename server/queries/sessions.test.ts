/**
 * Log lines by Session, job and action against a real migrated store of the run's engine: what
 * each view reads, and (SQLite's query plan) that each seeks its (column, id) index in id order —
 * no scan, no sort — so a live view's page costs the same however many lines the farm holds.
 */
import { describe, expect, it } from "vitest";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "../services/farm-test-support";
import { ingestLogs } from "../services/ingest-logs";
import { logLinesRepository } from "../store/log-lines";
import { sessionQueriesRepository } from "../store/session-queries";
import { rawOf } from "../store/store-test-support";
import { testEngine } from "../store/engines-test-support";
import { logLines } from "./sessions";

const JOB =
  "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  parameterSpace:\n    taskParameterDefinitions: [{name: F, type: INT, range: '1-2'}]\n  script:\n    actions:\n      onRun: {command: echo}\n";

/** Two jobs; worker `a` runs one Session of the first job, `b` another of it, `c` one of the second. */
async function farmWithSessions(t: TestFarm) {
  const jobs = [await submit(t, JOB), await submit(t, JOB)];
  // The second Session opened probes the second job (plan.ts probeTarget): a and b run jobs[0], c jobs[1].
  const sessions = [];
  for (const name of ["a", "c", "b"]) {
    const worker = await SimulatedWorker.create(t, LINUX_WORKER(name), () => "hold");
    const assignment = (await worker.sync()).assignments[0]!;
    const upload = async (from: number, count: number) =>
      ingestLogs(t.farm, await worker.identity, {
        workerId: worker.workerId,
        leaseEpoch: worker.leaseEpoch,
        sessionId: assignment.sessionId,
        lines: Array.from({ length: count }, (_, i) => ({ seq: from + i, actionId: assignment.actions[0]!.actionId, time: 1, line: `${name} ${from + i}` })),
      });
    const jobId = (await rawOf(t.farm.store).get<{ job_id: string }>("SELECT job_id FROM sessions WHERE id = ?", assignment.sessionId))!.job_id;
    sessions.push({ sessionId: assignment.sessionId, actionId: assignment.actions[0]!.actionId, jobId, upload });
  }
  return { jobs, sessions };
}

describe("logLines", () => {
  it("reads a Session's, an action's or a job's lines in stored order, after an id, a page at a time", async () => {
    const t = await testFarm();
    const { jobs, sessions } = await farmWithSessions(t);
    const [a, c, b] = sessions as [(typeof sessions)[0], (typeof sessions)[0], (typeof sessions)[0]];
    expect([a.jobId, b.jobId, c.jobId]).toEqual([jobs[0], jobs[0], jobs[1]]);
    await a.upload(0, 2);
    await c.upload(0, 1);
    await b.upload(0, 2);
    await a.upload(2, 1);
    const text = (lines: Array<{ line: string }>) => lines.map((l) => l.line);
    expect(text(await logLines(t.farm, { jobId: a.jobId }))).toEqual(["a 0", "a 1", "b 0", "b 1", "a 2"]);
    expect(text(await logLines(t.farm, { jobId: c.jobId }))).toEqual(["c 0"]);
    expect(text(await logLines(t.farm, { sessionId: a.sessionId }))).toEqual(["a 0", "a 1", "a 2"]);
    expect(text(await logLines(t.farm, { actionId: b.actionId }))).toEqual(["b 0", "b 1"]);
    expect(text(await logLines(t.farm, { jobId: a.jobId, sessionId: b.sessionId }))).toEqual(["b 0", "b 1"]);
    expect(text(await logLines(t.farm, { jobId: c.jobId, sessionId: b.sessionId }))).toEqual([]);
    const first = await logLines(t.farm, { jobId: a.jobId, limit: 2 });
    expect(text(first)).toEqual(["a 0", "a 1"]);
    expect(text(await logLines(t.farm, { jobId: a.jobId, afterId: first[1]!.id, limit: 2 }))).toEqual(["b 0", "b 1"]);
    expect(await logLines(t.farm, {})).toHaveLength(6);
  });

  // EXPLAIN QUERY PLAN: one SEARCH of the most selective filter's (column, id) index; a scan or a
  // "USE TEMP B-TREE FOR ORDER BY" line would make each page cost every line of the view.
  it.skipIf(testEngine() === "postgres").each([
    [["sessionId"], "INDEX log_lines_session_id (session_id=? AND id>?)"],
    [["jobId"], "INDEX log_lines_job_id (job_id=? AND id>?)"],
    [["actionId"], "INDEX log_lines_action (action_id=? AND id>?)"],
    [["sessionId", "jobId"], "INDEX log_lines_session_id (session_id=? AND id>?)"],
    [["actionId", "sessionId"], "INDEX log_lines_action (action_id=? AND id>?)"],
    [["actionId", "sessionId", "jobId"], "INDEX log_lines_action (action_id=? AND id>?)"],
    [[], "INTEGER PRIMARY KEY (rowid>?)"],
  ] as const)("by %j seeks %s in id order (SQLite only: asserts SQLite's EXPLAIN QUERY PLAN output)", async (filters, index) => {
    const store = (await testFarm()).farm.store;
    const statement = sessionQueriesRepository.logLinesStatement(store.engine, filters);
    expect(sessionQueriesRepository.logLinesStatement(store.engine, filters)).toBe(statement); // the same text: prepared once per connection
    const plan = await rawOf(store).all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`, ...filters.map(() => "x"), 0, 10);
    expect(plan.map((r) => r.detail)).toEqual([`SEARCH log_lines USING ${index}`]);
  });

  // PostgreSQL numbers a line when its upload inserts it, not when the upload commits (log-lines.ts).
  it.skipIf(testEngine() !== "postgres")("a follower of a whole job gets every line once when two Sessions' uploads commit out of id order", async () => {
    const t = await testFarm();
    const [a, , b] = (await farmWithSessions(t)).sessions;
    expect(b!.jobId).toBe(a!.jobId);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const numbered = new Promise<void>((resolve) => (inserted = resolve));
    // a's upload numbers its line first and stays open; b's, numbered after it, commits first.
    const first = t.farm.store.transaction(async (tx) => {
      await logLinesRepository.insertMany(tx, a!.sessionId, a!.jobId, [[0, a!.actionId, 1, "a 0"]]);
      inserted();
      await gate;
    });
    await numbered;
    await b!.upload(0, 2);
    const reading = logLines(t.farm, { jobId: a!.jobId, limit: 100 });
    setTimeout(release, 300);
    const seen = await reading;
    await first;
    const rest = await logLines(t.farm, { jobId: a!.jobId, afterId: seen.at(-1)?.id ?? 0, limit: 100 });
    expect([...seen, ...rest].map((line) => line.line).sort()).toEqual(["a 0", "b 0", "b 1"]);
  });
});
