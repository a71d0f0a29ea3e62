/**
 * Test support: the state-machine property test's window on task rows, on either engine. The
 * database itself records every change of a task's status (a trigger on tasks, AFTER UPDATE OF
 * status), so no code path moves a task unseen; a rolled-back unit's or savepoint's records go
 * with it.
 *
 * - SQLite: a temporary table and a temporary trigger, the store's connection's only.
 * - PostgreSQL: the store's connections are a pool, and a temporary table is one connection's; so
 *   a table task_moves, a plpgsql trigger function and a trigger, in the test's own database
 *   (engines-test-support.ts gives each test one; emptying it after the test truncates task_moves too).
 */
import type { TaskStatus } from "../../lib/farm/statuses";
import type { Engine } from "./engine/engine";
import type { tasks } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
import type { RawPick } from "./rows";

/** A task status change a trigger recorded (the state-machine property test's view of every move). */
export interface RecordedTaskMove {
  task: number;
  from: TaskStatus;
  to: TaskStatus;
}

// Each statement is idempotent: installing twice changes nothing.
const INSTALL: Record<Engine, readonly string[]> = {
  sqlite: [
    "CREATE TEMP TABLE IF NOT EXISTS task_moves (seq INTEGER PRIMARY KEY, task INTEGER NOT NULL, from_status TEXT NOT NULL, to_status TEXT NOT NULL)",
    `CREATE TEMP TRIGGER IF NOT EXISTS task_moves_log AFTER UPDATE OF status ON main.tasks WHEN OLD.status IS NOT NEW.status
     BEGIN INSERT INTO task_moves (task, from_status, to_status) VALUES (NEW.id, OLD.status, NEW.status); END`,
  ],
  // seq comes from a sequence: two units moving the same task take its row lock in turn, so its
  // moves' seq follow their order (moves of different tasks may interleave in any order).
  postgres: [
    "CREATE TABLE IF NOT EXISTS task_moves (seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, task bigint NOT NULL, from_status text NOT NULL, to_status text NOT NULL)",
    `CREATE OR REPLACE FUNCTION task_moves_log() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO task_moves (task, from_status, to_status) VALUES (NEW.id, OLD.status, NEW.status);
       RETURN NULL;
     END $$`,
    `CREATE OR REPLACE TRIGGER task_moves_log AFTER UPDATE OF status ON tasks
     FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION task_moves_log()`,
  ],
};
const ALL_STATUSES = "SELECT id, status FROM tasks";
const IDS_OF_JOB = "SELECT id FROM tasks WHERE job_id = ? ORDER BY id";
const IDS_OF_STEP = "SELECT id FROM tasks WHERE step_id = ? ORDER BY id";
const RUNNING_JOBS = `SELECT DISTINCT job_id AS "jobId" FROM tasks WHERE status = 'RUNNING' ORDER BY job_id`;
const RECOUNT = 'SELECT step_id AS "stepId", status, COUNT(*) AS n FROM tasks GROUP BY step_id, status';
const MOVES = 'SELECT task, from_status AS "from", to_status AS "to" FROM task_moves ORDER BY seq';
const FORGET_MOVES = "DELETE FROM task_moves";

/**
 * `install` (once, before the farm moves any task, in a unit of its own) adds the trigger that
 * records every change of a task's status; the other reads work on any farm, but `takeMoves`
 * fails until it is installed.
 */
export const taskMovesRecorder = {
  async install(tx: Tx): Promise<void> {
    for (const sql of INSTALL[tx.engine]) await tx.run(sql);
  },
  statuses: (tx: ReadTx) => tx.all<RawPick<typeof tasks, "id" | "status">>(ALL_STATUSES),
  idsOfJob: async (tx: ReadTx, jobId: string) => (await tx.all<RawPick<typeof tasks, "id">>(IDS_OF_JOB, [jobId])).map((r) => r.id),
  idsOfStep: async (tx: ReadTx, stepId: string) => (await tx.all<RawPick<typeof tasks, "id">>(IDS_OF_STEP, [stepId])).map((r) => r.id),
  runningJobs: async (tx: ReadTx) => (await tx.all<{ jobId: string }>(RUNNING_JOBS)).map((r) => r.jobId),
  recount: (tx: ReadTx) => tx.all<{ stepId: string; status: TaskStatus; n: number }>(RECOUNT),
  /** The moves recorded since the last call, and forgets them (in the caller's unit). */
  async takeMoves(tx: Tx): Promise<RecordedTaskMove[]> {
    const taken = await tx.all<RecordedTaskMove>(MOVES);
    await tx.run(FORGET_MOVES);
    return taken;
  },
};
