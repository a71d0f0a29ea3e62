/**
 * Read models of pools and workers (server/queries/workers.ts, worker-timeline.ts, why-waiting.ts
 * and the submission preview map the rows): the admin views' pools and workers with what each
 * worker runs now, the fleet as the timeline and "why isn't this task running?" see it.
 */
import type { WorkerStatus } from "../../lib/farm/statuses";
import type { pools, sessions, workers } from "../db/schema";
import { perEngine, type ReadTx } from "./repository";
import type { RawPick } from "./rows";

/** Columns of a worker tally; GROUP BY status (and whatever else is grouped). */
export const WORKER_TALLY_COLUMNS = "status, COUNT(*) AS n, SUM(CASE WHEN drain IS NOT NULL THEN 1 ELSE 0 END) AS drained, SUM(CASE WHEN disabled THEN 1 ELSE 0 END) AS disabled";

/** Workers of one status: how many, and how many of them an admin drained or disabled. */
export interface WorkerTallyRow {
  status: WorkerStatus;
  n: number;
  drained: number;
  disabled: number;
}

export type PoolRow = RawPick<typeof pools, "id" | "name" | "description" | "enabled" | "created_at" | "token_rotated_at">;

export type WorkerListRow = RawPick<typeof workers, "id" | "pool_id" | "name" | "status" | "capabilities" | "drain" | "disabled" | "last_heartbeat_at" | "registered_at"> & { pool_name: string };

/** A worker's open Session (the latest), its job, and the task it runs in it. */
export type CurrentWorkRow = RawPick<typeof sessions, "job_id"> & { session_id: string; job_name: string; task_id: number | null; step_name: string | null; task_index: number | null };

export type TimelineWorkerRow = RawPick<typeof workers, "id" | "name" | "status"> & { pool_name: string };

/** A worker as "why isn't this task running?" weighs it: busy when it holds a Session that has not ended. */
export type WaitingWorkerRow = RawPick<typeof workers, "id" | "name" | "status" | "drain" | "disabled" | "capabilities"> & { pool_enabled: number; busy: number };

export type PreviewWorkerRow = RawPick<typeof workers, "pool_id" | "status" | "capabilities">;

const POOL_LIST = "SELECT id, name, description, enabled, created_at, token_rotated_at FROM pools ORDER BY name";
const TALLY_BY_POOL = `SELECT pool_id, ${WORKER_TALLY_COLUMNS} FROM workers WHERE removed_at IS NULL GROUP BY pool_id, status`;
const LIST = `SELECT w.id, w.pool_id, p.name AS pool_name, w.name, w.status, w.capabilities, w.drain, w.disabled, w.last_heartbeat_at, w.registered_at
     FROM workers w JOIN pools p ON p.id = w.pool_id WHERE w.removed_at IS NULL`;
const ALL = `${LIST} ORDER BY w.name, p.name`;
const OF_POOL = `${LIST} AND w.pool_id = ? ORDER BY w.name, p.name`;
// Through the Session's open actions (a partial index), not a scan of every task.
const CURRENT = `SELECT s.id AS session_id, s.job_id, j.name AS job_name, t.id AS task_id, st.name AS step_name, t.task_index
   FROM sessions s JOIN jobs j ON j.id = s.job_id
   LEFT JOIN tasks t ON t.id = (
     SELECT a.task_id FROM session_actions a
     WHERE a.session_id = s.id AND a.status IN ('ASSIGNED', 'RUNNING') AND a.kind = 'TASK_RUN' ORDER BY a.seq LIMIT 1)
   LEFT JOIN steps st ON st.id = t.step_id
   WHERE s.worker_id = ? AND s.state != 'ENDED' ORDER BY s.started_at DESC LIMIT 1`;
const TIMELINE = perEngine(
  (d) => `SELECT w.id, w.name, p.name AS pool_name, w.status FROM workers w JOIN pools p ON p.id = w.pool_id
     WHERE (w.removed_at IS NULL OR w.id IN ${d.jsonValues("?", "text")}) AND (CAST(? AS text) IS NULL OR w.pool_id = ?) ORDER BY w.name, p.name`,
);
const WAITING = `SELECT w.id, w.name, w.status, w.drain, w.disabled, p.enabled AS pool_enabled, w.capabilities,
            EXISTS (SELECT 1 FROM sessions s WHERE s.worker_id = w.id AND s.state != 'ENDED') AS busy
     FROM workers w JOIN pools p ON p.id = w.pool_id WHERE w.removed_at IS NULL`;
const PREVIEW_POOLS = "SELECT id, name, enabled FROM pools ORDER BY name";
const PREVIEW_WORKERS = "SELECT pool_id, status, capabilities FROM workers WHERE disabled = FALSE";

export const workerQueriesRepository = {
  /** Every pool, by name. */
  pools: (tx: ReadTx): Promise<PoolRow[]> => tx.all<PoolRow>(POOL_LIST),
  /** Workers (not removed) per pool and status. */
  tallyByPool: (tx: ReadTx) => tx.all<WorkerTallyRow & { pool_id: string }>(TALLY_BY_POOL),
  /** Workers not removed, of one pool or all, by name, with their pool's name. */
  list: (tx: ReadTx, poolId?: string): Promise<WorkerListRow[]> => (poolId ? tx.all<WorkerListRow>(OF_POOL, [poolId]) : tx.all<WorkerListRow>(ALL)),
  /** What a worker runs now: its latest Session not ended; undefined when it holds none. */
  currentWork: (tx: ReadTx, workerId: string): Promise<CurrentWorkRow | undefined> => tx.get<CurrentWorkRow>(CURRENT, [workerId]),
  /** The timeline's workers: those not removed and the removed ones that ran a shown Session, of one pool or all. */
  timeline: (tx: ReadTx, shownWorkerIds: readonly string[], poolId: string | null): Promise<TimelineWorkerRow[]> =>
    tx.all<TimelineWorkerRow>(TIMELINE[tx.engine], [JSON.stringify(shownWorkerIds), poolId, poolId]),
  /** The fleet (workers not removed) as "why isn't this task running?" weighs it. */
  waitingFleet: (tx: ReadTx): Promise<WaitingWorkerRow[]> => tx.all<WaitingWorkerRow>(WAITING),
  /** Pools by name, for the submission preview. */
  previewPools: (tx: ReadTx) => tx.all<RawPick<typeof pools, "id" | "name" | "enabled">>(PREVIEW_POOLS),
  /** Workers not disabled, for the submission preview (removed workers are not filtered out). */
  previewWorkers: (tx: ReadTx): Promise<PreviewWorkerRow[]> => tx.all<PreviewWorkerRow>(PREVIEW_WORKERS),
};
