/**
 * What the dispatcher (server/scheduler/dispatch.ts) reads to choose a worker's next work: the
 * candidate steps of the best jobs, a step's next due tasks, the idle workers a retry could go
 * to instead, a held Session's job order. Read inside the sync's unit of work, once or a few
 * times per decision: named statements, prepared once per connection.
 */
import type { jobs, steps, tasks, workers } from "../db/schema";
import { perEngine, statement, type ReadTx, type Tx } from "./repository";
import type { RawPick } from "./rows";
import type { TaskRow } from "./tasks";

/** A step with READY tasks of a job that dispatches, with its job's order and its tasks in flight. */
export type CandidateStepRow = RawPick<typeof steps, "id" | "job_id" | "step_index" | "name" | "host_requirements" | "environment_stack" | "runtime_total_ms" | "runtime_count"> &
  RawPick<typeof jobs, "priority" | "seq"> & { in_flight: number };

/** A READY task as the dispatcher takes it: with its retry time and where it last failed. */
export type ClaimableTask = TaskRow & RawPick<typeof tasks, "retry_at" | "last_failed_worker_id">;

export type JobOrderRow = RawPick<typeof jobs, "priority" | "seq">;

const CANDIDATES = statement<CandidateStepRow>(
  "claims.candidateSteps",
  `SELECT st.id, st.job_id, st.step_index, st.name, st.host_requirements, st.environment_stack, st.runtime_total_ms, st.runtime_count,
          st.count_assigned + st.count_running AS in_flight, j.priority, j.seq
   FROM (SELECT id, priority, seq FROM jobs WHERE status IN ('READY', 'RUNNING', 'ASSIGNED') AND suspended = FALSE AND canceled = FALSE
         ORDER BY priority DESC, seq ASC LIMIT ?) j
   JOIN steps st ON st.job_id = j.id
   WHERE st.count_ready > 0`,
);
// PostgreSQL: replicas claim at once, so the rows are locked as they are read and rows another
// unit holds are skipped (over the partial index tasks_ready), never waited for nor claimed twice.
// SQLite's units take turns: nothing to skip. A READY task still waiting (its upstream was
// requeued while it ran, and a retry or a lost worker put it back) is not taken until that
// upstream succeeds again.
const NEXT_TASKS = perEngine((d) =>
  statement<ClaimableTask>(
    `claims.nextTasks@${d.engine}`,
    `SELECT id, job_id, step_id, task_index, parameters, status, failure_count, interruption_count, session_id, worker_id, retry_at, last_failed_worker_id
   FROM tasks WHERE step_id = ? AND status = 'READY' AND waiting = 0 AND (retry_at IS NULL OR retry_at <= ?) ORDER BY task_index LIMIT ?${d.engine === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""}`,
  ),
);
// Idle workers that could take a retry instead of the worker it failed on (workers_status index).
// IDLE is a status a silent worker loses (sweep-workers.ts): no heartbeat check needed.
const IDLE_OTHERS = statement<RawPick<typeof workers, "capabilities">>(
  "claims.idleOthers",
  `SELECT w.capabilities FROM workers w JOIN pools p ON p.id = w.pool_id
   WHERE w.status = 'IDLE' AND w.id != ? AND w.drain IS NULL AND w.disabled = FALSE AND w.removed_at IS NULL AND p.enabled = TRUE
     AND NOT EXISTS (SELECT 1 FROM worker_job_failures f WHERE f.job_id = ? AND f.worker_id = w.id AND f.blocked_at IS NOT NULL)
   LIMIT 200`,
);
const JOB_ORDER = statement<JobOrderRow>("claims.jobOrder", "SELECT priority, seq FROM jobs WHERE id = ?");

export const claimsRepository = {
  /** Steps with READY tasks of the `jobs` best jobs that dispatch (priority, then submission order). */
  candidateSteps: (tx: ReadTx, jobs: number): Promise<CandidateStepRow[]> => tx.all(CANDIDATES, [jobs]),
  /** The step's READY tasks due at `now`, in index order, at most `limit`. */
  nextTasks: (tx: Tx, stepId: string, now: number, limit: number): Promise<ClaimableTask[]> => tx.all(NEXT_TASKS[tx.engine], [stepId, now, limit]),
  /** Up to 200 idle workers of enabled pools other than `workerId` that are not kept away from the job; their capabilities (JSON). */
  idleOthers: (tx: ReadTx, workerId: string, jobId: string): Promise<Array<RawPick<typeof workers, "capabilities">>> => tx.all(IDLE_OTHERS, [workerId, jobId]),
  jobOrder: (tx: ReadTx, jobId: string): Promise<JobOrderRow | undefined> => tx.get(JOB_ORDER, [jobId]),
};
