/**
 * The farm at a glance (server/queries/overview.ts maps the rows): the fleet per status, the
 * tasks per status from the jobs' stored roll-ups (never a count over every task), and the tasks
 * that finished per minute since a time.
 */
import { TASK_STATUSES } from "../../lib/farm/statuses";
import { countColumn, type CountColumnsRow } from "../db/status-counts";
import type { ReadTx } from "./repository";
import { WORKER_TALLY_COLUMNS, type WorkerTallyRow } from "./worker-queries";

const MINUTE_MS = 60_000;

/** Tasks of one status that ended in one minute (`minute`: epoch ms / 60,000). */
export interface FinishedRow {
  minute: number;
  status: string;
  n: number;
}

const FLEET = `SELECT ${WORKER_TALLY_COLUMNS} FROM workers WHERE removed_at IS NULL GROUP BY status`;
const SUMS = TASK_STATUSES.map((status) => `COALESCE(SUM(${countColumn(status)}), 0) AS ${countColumn(status)}`).join(", ");
const TASKS = `SELECT ${SUMS} FROM jobs`;
// Only jobs still open or ended inside the window can hold tasks that ended in it; their
// finished tasks are found through the (job, status) index.
const FINISHED = `SELECT t.ended_at / ${MINUTE_MS} AS minute, t.status, COUNT(*) AS n FROM tasks t
     WHERE t.job_id IN (SELECT id FROM jobs WHERE ended_at IS NULL OR ended_at >= ?)
       AND t.status IN ('SUCCEEDED', 'FAILED') AND t.ended_at >= ?
     GROUP BY minute, t.status`;

export const overviewQueriesRepository = {
  /** Workers (not removed) per status. */
  fleet: (tx: ReadTx): Promise<WorkerTallyRow[]> => tx.all<WorkerTallyRow>(FLEET),
  /** Every job's task counts summed, per status column. */
  taskTotals: async (tx: ReadTx): Promise<CountColumnsRow> => (await tx.get<CountColumnsRow>(TASKS))!,
  /** SUCCEEDED and FAILED tasks that ended at or after `since`, per minute and status. */
  finishedSince: (tx: ReadTx, since: number): Promise<FinishedRow[]> => tx.all<FinishedRow>(FINISHED, [since, since]),
};
