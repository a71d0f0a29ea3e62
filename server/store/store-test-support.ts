/**
 * Statements only tests use (the farm test support, the authorization matrix's fixtures, the
 * farm integration harness): reading what a test asserts on, and planting the state a test
 * starts from that no service makes directly.
 */
import type Database from "better-sqlite3";
import { getTableColumns, getTableName, type InferSelectModel, type Table } from "drizzle-orm";
import type { AsyncStore, Row, RunResult, SqlValue } from "./engine/engine";
import { SqliteStore } from "./engine/sqlite-engine";
import { countColumnsSql, type CountColumnsRow } from "../db/status-counts";
import type { jobs, steps, tasks } from "../db/schema";
import { perEngine, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";

/**
 * The SQLite connection under a test's store, for the raw reads and plants a test makes between
 * service calls (never while a unit is open). Throws on PostgreSQL: such a test is SQLite's only.
 */
export function sqliteOf(store: AsyncStore): Database.Database {
  if (!(store instanceof SqliteStore)) throw new Error(`this test reads SQLite directly; the store is ${store.engine}`);
  return store.sqlite;
}

/**
 * Raw SQL for a test, on either engine: the reads a test asserts on and the plants it starts from,
 * each in a unit of its own (never while the test holds a unit open). Write the SQL both engines
 * take: `?` placeholders, TRUE/FALSE for flags, quoted camelCase aliases (`AS "taskId"`).
 */
export function rawOf(store: AsyncStore) {
  return {
    get: <R = Row>(sql: string, ...params: SqlValue[]): Promise<R | undefined> => store.read((tx) => tx.get<R>(sql, params)),
    all: <R = Row>(sql: string, ...params: SqlValue[]): Promise<R[]> => store.read((tx) => tx.all<R>(sql, params)),
    /** The first column of every row. */
    column: async <V = unknown>(sql: string, ...params: SqlValue[]): Promise<V[]> => (await store.read((tx) => tx.all(sql, params))).map((row) => Object.values(row)[0] as V),
    run: (sql: string, ...params: SqlValue[]): Promise<RunResult> => store.transaction((tx) => tx.run(sql, params)),
  };
}

/** A row read raw, as drizzle's select gives it: property names, JSON columns parsed, flags as booleans. */
function asSelected<T extends Table>(table: T, row: Row): InferSelectModel<T> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).map(([key, column]) => {
      const value = row[column.name];
      return [key, value === null || value === undefined ? value : column.mapFromDriverValue(value)];
    }),
  ) as InferSelectModel<T>;
}

/** The rows of `table` (`tail`: its WHERE and ORDER BY, with `params`), as drizzle's select gives them, on either engine. */
export async function selectRows<T extends Table>(store: AsyncStore, table: T, tail = "", ...params: SqlValue[]): Promise<Array<InferSelectModel<T>>> {
  return (await rawOf(store).all(`SELECT * FROM ${getTableName(table)} ${tail}`, ...params)).map((row) => asSelected(table, row));
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
// Insertion order, the order the actions were issued in: SQLite's rowid; PostgreSQL has none, so
// the time each was assigned, then its Session's start and its place in the Session.
const TASK_RUNS = perEngine(
  (d) => `SELECT a.id AS "actionId", s.id AS "sessionId", s.worker_id AS "workerId", w.name AS "workerName", t.id AS "taskId", t.task_index AS "taskIndex",
          st.name AS "stepName", a.status AS status, a.started_at AS "startedAt", a.ended_at AS "endedAt"
   FROM session_actions a JOIN sessions s ON s.id = a.session_id JOIN workers w ON w.id = s.worker_id
   JOIN tasks t ON t.id = a.task_id JOIN steps st ON st.id = t.step_id
   WHERE s.job_id = ? AND a.kind = 'TASK_RUN' ORDER BY ${d.engine === "sqlite" ? "a.rowid" : "a.assigned_at, s.started_at, s.id, a.seq"}`,
);
const DOUBLE_COMPLETIONS = `SELECT a.task_id AS "taskId", COUNT(*) AS n FROM session_actions a JOIN sessions s ON s.id = a.session_id
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
  taskRuns: (tx: ReadTx, jobId: string): Promise<TaskRunRow[]> => tx.all<TaskRunRow>(TASK_RUNS[tx.engine], [jobId]),
  /** Tasks with more than one SUCCEEDED TASK_RUN action. */
  doubleCompletions: (tx: ReadTx, jobId: string): Promise<Array<{ taskId: number; n: number }>> => tx.all<{ taskId: number; n: number }>(DOUBLE_COMPLETIONS, [jobId]),
};
