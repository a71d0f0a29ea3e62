/**
 * Statements only tests use (the farm test support, the authorization matrix's fixtures, the
 * farm integration harness): reading what a test asserts on, and planting the state a test
 * starts from that no service makes directly.
 */
import type { TaskStatus } from "../../lib/farm/statuses";
import { countColumnsSql, type CountColumnsRow } from "../db/status-counts";
import type { jobs, steps, tasks } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

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

export const testSupportRepository = repository((sqlite) => {
  const jobCounts = sqlite.prepare<[string], CountColumnsRow>(`SELECT ${countColumnsSql()} FROM jobs WHERE id = ?`);
  const jobStatus = sqlite.prepare<[string], RawPick<typeof jobs, "status">>("SELECT status FROM jobs WHERE id = ?");
  const stepOfJob = sqlite.prepare<[string], RawPick<typeof steps, "id">>("SELECT id FROM steps WHERE job_id = ?");
  const lastTaskOfStep = sqlite.prepare<[string], RawPick<typeof tasks, "id">>("SELECT id FROM tasks WHERE step_id = ? ORDER BY task_index DESC");
  const everyoneAService = sqlite.prepare("UPDATE users SET kind = 'service'");
  const blockWorker = sqlite.prepare<[string, string, number, number]>("INSERT INTO worker_job_failures (job_id, worker_id, failures, last_failure_at, blocked_at) VALUES (?, ?, 3, ?, ?)");
  // rowid: insertion order, the order the actions were issued in.
  const taskRuns = sqlite.prepare<[string], TaskRunRow>(
    `SELECT a.id AS actionId, s.id AS sessionId, s.worker_id AS workerId, w.name AS workerName, t.id AS taskId, t.task_index AS taskIndex,
            st.name AS stepName, a.status AS status, a.started_at AS startedAt, a.ended_at AS endedAt
     FROM session_actions a JOIN sessions s ON s.id = a.session_id JOIN workers w ON w.id = s.worker_id
     JOIN tasks t ON t.id = a.task_id JOIN steps st ON st.id = t.step_id
     WHERE s.job_id = ? AND a.kind = 'TASK_RUN' ORDER BY a.rowid`,
  );
  const doubleCompletions = sqlite.prepare<[string], { taskId: number; n: number }>(
    `SELECT a.task_id AS taskId, COUNT(*) AS n FROM session_actions a JOIN sessions s ON s.id = a.session_id
     WHERE s.job_id = ? AND a.kind = 'TASK_RUN' AND a.status = 'SUCCEEDED' GROUP BY a.task_id HAVING COUNT(*) > 1`,
  );
  return {
    /** A job's task counts per status, or undefined when there is no such job. */
    jobCounts: (jobId: string): CountColumnsRow | undefined => jobCounts.get(jobId),
    jobStatus: (jobId: string): string | undefined => jobStatus.get(jobId)?.status,
    /** The id of a step of the job (its only one, in the tests that ask). */
    stepOfJob: (jobId: string): string | undefined => stepOfJob.get(jobId)?.id,
    /** The id of the step's task with the highest index. */
    lastTaskOfStep: (stepId: string): number | undefined => lastTaskOfStep.get(stepId)?.id,
    /** Every account becomes a service account: the farm then has no person (the first-start setup opens). */
    makeEveryoneAService(): void {
      everyoneAService.run();
    },
    /** The worker kept away from the job, as after three failures on it. */
    blockWorkerForJob(jobId: string, workerId: string, now: number): void {
      blockWorker.run(jobId, workerId, now, now);
    },
    taskRuns: (jobId: string): TaskRunRow[] => taskRuns.all(jobId),
    /** Tasks with more than one SUCCEEDED TASK_RUN action. */
    doubleCompletions: (jobId: string): Array<{ taskId: number; n: number }> => doubleCompletions.all(jobId),
  };
});

/** A task status change a trigger recorded (the state-machine property test's view of every move). */
export interface RecordedTaskMove {
  task: number;
  from: TaskStatus;
  to: TaskStatus;
}

/**
 * The property test's window on task rows: on first use it installs a temporary trigger (this
 * connection only) that records every change of a task's status, so no code path moves a task
 * unseen; a rolled-back savepoint's records go with it.
 */
export const taskMovesRecorder = repository((sqlite) => {
  sqlite.exec(`
    CREATE TEMP TABLE task_moves (seq INTEGER PRIMARY KEY, task INTEGER NOT NULL, from_status TEXT NOT NULL, to_status TEXT NOT NULL);
    CREATE TEMP TRIGGER task_moves_log AFTER UPDATE OF status ON main.tasks WHEN OLD.status IS NOT NEW.status
    BEGIN INSERT INTO task_moves (task, from_status, to_status) VALUES (NEW.id, OLD.status, NEW.status); END;
  `);
  const all = sqlite.prepare<[], RawPick<typeof tasks, "id" | "status">>("SELECT id, status FROM tasks");
  const ofJob = sqlite.prepare<[string], RawPick<typeof tasks, "id">>("SELECT id FROM tasks WHERE job_id = ? ORDER BY id");
  const ofStep = sqlite.prepare<[string], RawPick<typeof tasks, "id">>("SELECT id FROM tasks WHERE step_id = ? ORDER BY id");
  const running = sqlite.prepare<[], { jobId: string }>("SELECT DISTINCT job_id AS jobId FROM tasks WHERE status = 'RUNNING' ORDER BY job_id");
  const grouped = sqlite.prepare<[], { stepId: string; status: TaskStatus; n: number }>("SELECT step_id AS stepId, status, COUNT(*) AS n FROM tasks GROUP BY step_id, status");
  const moves = sqlite.prepare<[], RecordedTaskMove>('SELECT task, from_status AS "from", to_status AS "to" FROM task_moves ORDER BY seq');
  const forget = sqlite.prepare("DELETE FROM task_moves");
  return {
    statuses: () => all.all(),
    idsOfJob: (jobId: string) => ofJob.all(jobId).map((r) => r.id),
    idsOfStep: (stepId: string) => ofStep.all(stepId).map((r) => r.id),
    runningJobs: () => running.all().map((r) => r.jobId),
    recount: () => grouped.all(),
    takeMoves: (): RecordedTaskMove[] => {
      const taken = moves.all();
      forget.run();
      return taken;
    },
  };
});
