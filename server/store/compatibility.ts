/**
 * What NOT_COMPATIBLE is decided from and what it changes (server/services/compatibility.ts):
 * the capabilities of the workers that count (enabled, in an enabled pool, listed), the steps
 * with host requirements that still have tasks waiting, and a step's waiting tasks moved to or
 * from NOT_COMPATIBLE (the service says which statuses move: the state machine's moves).
 */
import type { RunResult } from "./engine/engine";
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import { assertMoves } from "../../lib/farm/task-transitions";
import type { steps, workers } from "../db/schema";
import { countSumSql } from "../db/status-counts";
import type { ReadTx, Tx } from "./repository";
import type { RawPick } from "./rows";

export type RequirementStep = RawPick<typeof steps, "id" | "job_id" | "host_requirements" | "incompatible_reason">;

/** `'READY', 'PENDING'`: statuses written into a statement, each checked to be one. */
function statusList(statuses: readonly TaskStatus[]): string {
  for (const status of statuses) if (!TASK_STATUSES.includes(status)) throw new Error(`not a task status: ${String(status)}`);
  return statuses.map((status) => `'${status}'`).join(", ");
}

const CAPABILITIES = "SELECT w.capabilities FROM workers w JOIN pools p ON p.id = w.pool_id WHERE p.enabled = TRUE AND w.disabled = FALSE AND w.removed_at IS NULL";
const WAITING_STEPS = `SELECT s.id, s.job_id, s.host_requirements, s.incompatible_reason FROM steps s JOIN jobs j ON j.id = s.job_id
   WHERE j.canceled = FALSE AND (s.host_requirements IS NOT NULL AND s.host_requirements != 'null')
     AND ${countSumSql(["READY", "PENDING", "NOT_COMPATIBLE", "SUSPENDED"], "s")} > 0`;
const SET_REASON = "UPDATE steps SET incompatible_reason = ? WHERE id = ?";

/** The statement text per (to, from) pair, as the few callers need them. */
const moves = new Map<string, string>();

export const compatibilityRepository = {
  /** The capabilities (JSON text) of every worker that counts for compatibility. */
  enabledCapabilities: async (tx: ReadTx): Promise<string[]> => (await tx.all<RawPick<typeof workers, "capabilities">>(CAPABILITIES)).map((w) => w.capabilities),
  /** Steps of jobs not canceled that have host requirements and tasks that could still run. */
  waitingSteps: (tx: ReadTx) => tx.all<RequirementStep>(WAITING_STEPS),
  setIncompatibleReason(tx: Tx, stepId: string, reason: string | null): Promise<RunResult> {
    return tx.run(SET_REASON, [reason, stepId]);
  },
  /** Moves the step's tasks in one of `from` to `to`. */
  async moveStepTasks(tx: Tx, stepId: string, from: readonly TaskStatus[], to: TaskStatus): Promise<void> {
    assertMoves(from, to, `step ${stepId}`);
    const key = `${to}<${from.join(",")}`;
    let sql = moves.get(key);
    if (sql === undefined) moves.set(key, (sql = `UPDATE tasks SET status = ${statusList([to])} WHERE step_id = ? AND status IN (${statusList(from)})`));
    await tx.run(sql, [stepId]);
  },
};
