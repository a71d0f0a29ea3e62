/**
 * What NOT_COMPATIBLE is decided from and what it changes (server/services/compatibility.ts):
 * the capabilities of the workers that count (enabled, in an enabled pool, listed), the steps
 * with host requirements that still have tasks waiting, and a step's waiting tasks moved to or
 * from NOT_COMPATIBLE (the service says which statuses move: the state machine's moves).
 */
import type Database from "better-sqlite3";
import { TASK_STATUSES, type TaskStatus } from "../../lib/farm/statuses";
import { assertMoves } from "../../lib/farm/task-transitions";
import type { steps, workers } from "../db/schema";
import { countSumSql } from "../db/status-counts";
import { repository } from "./repository";
import type { RawPick } from "./rows";

export type RequirementStep = RawPick<typeof steps, "id" | "job_id" | "host_requirements" | "incompatible_reason">;

/** `'READY', 'PENDING'`: statuses written into a statement, each checked to be one. */
function statusList(statuses: readonly TaskStatus[]): string {
  for (const status of statuses) if (!TASK_STATUSES.includes(status)) throw new Error(`not a task status: ${String(status)}`);
  return statuses.map((status) => `'${status}'`).join(", ");
}

export const compatibilityRepository = repository((sqlite) => {
  const capabilities = sqlite.prepare<[], RawPick<typeof workers, "capabilities">>(
    "SELECT w.capabilities FROM workers w JOIN pools p ON p.id = w.pool_id WHERE p.enabled = 1 AND w.disabled = 0 AND w.removed_at IS NULL",
  );
  const waitingSteps = sqlite.prepare<[], RequirementStep>(
    `SELECT s.id, s.job_id, s.host_requirements, s.incompatible_reason FROM steps s JOIN jobs j ON j.id = s.job_id
     WHERE j.canceled = 0 AND (s.host_requirements IS NOT NULL AND s.host_requirements != 'null')
       AND ${countSumSql(["READY", "PENDING", "NOT_COMPATIBLE", "SUSPENDED"], "s")} > 0`,
  );
  const setReason = sqlite.prepare<[string | null, string]>("UPDATE steps SET incompatible_reason = ? WHERE id = ?");
  /** One statement per (to, from) pair, as the few callers need them. */
  const moves = new Map<string, Database.Statement<[string]>>();
  return {
    /** The capabilities (JSON text) of every worker that counts for compatibility. */
    enabledCapabilities: (): string[] => capabilities.all().map((w) => w.capabilities),
    /** Steps of jobs not canceled that have host requirements and tasks that could still run. */
    waitingSteps: () => waitingSteps.all(),
    setIncompatibleReason(stepId: string, reason: string | null): void {
      setReason.run(reason, stepId);
    },
    /** Moves the step's tasks in one of `from` to `to`. */
    moveStepTasks(stepId: string, from: readonly TaskStatus[], to: TaskStatus): void {
      assertMoves(from, to, `step ${stepId}`);
      const key = `${to}<${from.join(",")}`;
      let statement = moves.get(key);
      if (!statement) moves.set(key, (statement = sqlite.prepare<[string]>(`UPDATE tasks SET status = ${statusList([to])} WHERE step_id = ? AND status IN (${statusList(from)})`)));
      statement.run(stepId);
    },
  };
});
