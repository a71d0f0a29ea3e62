/**
 * Statements only tests use (the farm test support, the authorization matrix's fixtures, the
 * farm integration harness): reading what a test asserts on, and planting the state a test
 * starts from that no service makes directly.
 */
import type Database from "better-sqlite3";
import type { TaskStatus } from "../../lib/farm/statuses";
import type { AsyncStore } from "./engine/engine";
import { SqliteStore } from "./engine/sqlite-engine";
import { countColumnsSql, type CountColumnsRow } from "../db/status-counts";
import type { jobs, steps, tasks } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
import type { RawPick } from "./rows";

/**
 * The SQLite connection under a test's store, for the raw reads and plants a test makes between
 * service calls (never while a unit is open). Throws on PostgreSQL: such a test is SQLite's only.
 */
export function sqliteOf(store: AsyncStore): Database.Database {
  if (!(store instanceof SqliteStore)) throw new Error(`this test reads SQLite directly; the store is ${store.engine}`);
  return store.sqlite;
}

/** A TASK_RUN action with its Session, worker, task and step, as the farm tests check them. */
export interface TaskRunRow {
  actionId: string;
  sessionId: string;
  workerId: string;
  workerName: string;
  taskId: number;
  taskIndex: number;
  stepName: string;
  status: string;
  startedAt: number | null;
  endedAt: number | null;
}

const JOB_COUNTS = `SELECT ${countColumnsSql()} FROM jobs WHERE id = ?`;
const JOB_STATUS = "SELECT status FROM jobs WHERE id = ?";
const STEP_OF_JOB = "SELECT id FROM steps WHERE job_id = ?";
const LAST_TASK_OF_STEP = "SELECT id FROM tasks WHERE step_id = ? ORDER BY task_index DESC";
const EVERYONE_A_SERVICE = "UPDATE users SET kind = 'service'";
const BLOCK_WORKER = "INSERT INTO worker_job_failures (job_id, worker_id, failures, last_failure_at, blocked_at) VALUES (?, ?, 3, ?, ?)";
// rowid: insertion order, the order the actions were issued in.
const TASK_RUNS = `SELECT a.id AS actionId, s.id AS sessionId, s.worker_id AS workerId, w.name AS workerName, t.id AS taskId, t.task_index AS taskIndex,
          st.name AS stepName, a.status AS status, a.started_at AS startedAt, a.ended_at AS endedAt
   FROM session_actions a JOIN sessions s ON s.id = a.session_id JOIN workers w ON w.id = s.worker_id
   JOIN tasks t ON t.id = a.task_id JOIN steps st ON st.id = t.step_id
   WHERE s.job_id = ? AND a.kind = 'TASK_RUN' ORDER BY a.rowid`;
const DOUBLE_COMPLETIONS = `SELECT a.task_id AS taskId, COUNT(*) AS n FROM session_actions a JOIN sessions s ON s.id = a.session_id
   WHERE s.job_id = ? AND a.kind = 'TASK_RUN' AND a.status = 'SUCCEEDED' GROUP BY a.task_id HAVING COUNT(*) > 1`;

export const testSupportRepository = {
  /** A job's task counts per status, or undefined when there is no such job. */
  jobCounts: (tx: ReadTx, jobId: string): Promise<CountColumnsRow | undefined> => tx.get<CountColumnsRow>(JOB_COUNTS, [jobId]),
  jobStatus: async (tx: ReadTx, jobId: string): Promise<string | undefined> => (await tx.get<RawPick<typeof jobs, "status">>(JOB_STATUS, [jobId]))?.status,
  /** The id of a step of the job (its only one, in the tests that ask). */
  stepOfJob: async (tx: ReadTx, jobId: string): Promise<string | undefined> => (await tx.get<RawPick<typeof steps, "id">>(STEP_OF_JOB, [jobId]))?.id,
  /** The id of the step's task with the highest index. */
  lastTaskOfStep: async (tx: ReadTx, stepId: string): Promise<number | undefined> => (await tx.get<RawPick<typeof tasks, "id">>(LAST_TASK_OF_STEP, [stepId]))?.id,
  /** Every account becomes a service account: the farm then has no person (the first-start setup opens). */
  async makeEveryoneAService(tx: Tx): Promise<void> {
    await tx.run(EVERYONE_A_SERVICE);
  },
  /** The worker kept away from the job, as after three failures on it. */
  async blockWorkerForJob(tx: Tx, jobId: string, workerId: string, now: number): Promise<void> {
    await tx.run(BLOCK_WORKER, [jobId, workerId, now, now]);
  },
  taskRuns: (tx: ReadTx, jobId: string): Promise<TaskRunRow[]> => tx.all<TaskRunRow>(TASK_RUNS, [jobId]),
  /** Tasks with more than one SUCCEEDED TASK_RUN action. */
  doubleCompletions: (tx: ReadTx, jobId: string): Promise<Array<{ taskId: number; n: number }>> => tx.all<{ taskId: number; n: number }>(DOUBLE_COMPLETIONS, [jobId]),
};

/** A task status change a trigger recorded (the state-machine property test's view of every move). */
export interface RecordedTaskMove {
  task: number;
  from: TaskStatus;
  to: TaskStatus;
}

// Temporary (this connection only); IF NOT EXISTS: installing twice changes nothing.
const CREATE_MOVES_TABLE = "CREATE TEMP TABLE IF NOT EXISTS task_moves (seq INTEGER PRIMARY KEY, task INTEGER NOT NULL, from_status TEXT NOT NULL, to_status TEXT NOT NULL)";
const CREATE_MOVES_TRIGGER = `CREATE TEMP TRIGGER IF NOT EXISTS task_moves_log AFTER UPDATE OF status ON main.tasks WHEN OLD.status IS NOT NEW.status
  BEGIN INSERT INTO task_moves (task, from_status, to_status) VALUES (NEW.id, OLD.status, NEW.status); END`;
const ALL_STATUSES = "SELECT id, status FROM tasks";
const IDS_OF_JOB = "SELECT id FROM tasks WHERE job_id = ? ORDER BY id";
const IDS_OF_STEP = "SELECT id FROM tasks WHERE step_id = ? ORDER BY id";
const RUNNING_JOBS = "SELECT DISTINCT job_id AS jobId FROM tasks WHERE status = 'RUNNING' ORDER BY job_id";
const RECOUNT = "SELECT step_id AS stepId, status, COUNT(*) AS n FROM tasks GROUP BY step_id, status";
const MOVES = 'SELECT task, from_status AS "from", to_status AS "to" FROM task_moves ORDER BY seq';
const FORGET_MOVES = "DELETE FROM task_moves";

/**
 * The property test's window on task rows: `install` (once, before the farm moves any task, in a
 * unit of its own) adds a temporary trigger (the SQLite connection's only) that records every
 * change of a task's status, so no code path moves a task unseen; a rolled-back savepoint's
 * records go with it. The other reads fail until it is installed.
 */
export const taskMovesRecorder = {
  async install(tx: Tx): Promise<void> {
    if (tx.engine !== "sqlite") throw new Error(`the task moves recorder is SQLite's (a temporary trigger); the store is ${tx.engine}`);
    await tx.run(CREATE_MOVES_TABLE);
    await tx.run(CREATE_MOVES_TRIGGER);
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
