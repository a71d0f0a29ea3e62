/**
 * One task's task-to-task dependencies (TASK_DEPENDENCIES) as the job page shows them: what it
 * waits for and what waits for it, each a page of linked tasks (id, step, parameters, status)
 * with the total, and, for a PENDING task, the upstream tasks that block it with the note the
 * task table prints ("blocked: ExportPerFrame Frame=7 FAILED"). Bounded however wide the
 * fan-in: a page is read in index order and stops at its limit.
 */
import { z } from "zod";
import type { TaskStatus } from "../../lib/farm/statuses";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { taskDependencyQueriesRepository, type LinkedTaskRow } from "../store/task-dependency-queries";

export const taskDependenciesInput = z.object({
  taskId: z.number().int().positive(),
  upstreamOffset: z.number().int().nonnegative().default(0),
  downstreamOffset: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(200).default(50),
});

export interface LinkedTask {
  taskId: number;
  step: string;
  stepIndex: number;
  taskIndex: number;
  parameters: Record<string, { type: string; value: string }>;
  status: TaskStatus;
  /** The any-of group the edge belongs to (null: all-of, a requirement by itself). */
  group: number | null;
  /** The upstream task has succeeded and this edge counts as met. */
  met: boolean;
}

export interface LinkedPage {
  total: number;
  tasks: LinkedTask[];
}

export interface TaskDependencies {
  taskId: number;
  status: TaskStatus;
  /** Its requirements not met yet (all-of edges, any-of groups). */
  waiting: number;
  upstream: LinkedPage;
  downstream: LinkedPage;
  /** For a PENDING task: the upstream tasks that ended without success while it still needs them (the first few). */
  blockedBy: LinkedPage;
  /** "blocked: ExportPerFrame Frame=7 FAILED" for a blocked task; null otherwise. */
  note: string | null;
}

/** Blockers named in a note; the rest are counted. */
const NOTE_BLOCKERS = 3;

function linkedTask(row: LinkedTaskRow): LinkedTask {
  return {
    taskId: row.id,
    step: row.step_name,
    stepIndex: row.step_index,
    taskIndex: row.task_index,
    parameters: JSON.parse(row.parameters) as LinkedTask["parameters"],
    status: row.status,
    group: row.group_no < 0 ? null : row.group_no,
    met: row.met === 1,
  };
}

/** "ExportPerFrame Frame=7 FAILED": the step, each parameter's value, the status. */
export function describeLinkedTask(task: Pick<LinkedTask, "step" | "parameters" | "status">): string {
  const values = Object.entries(task.parameters).map(([name, p]) => `${name}=${p.value}`);
  return [task.step, ...values, task.status].join(" ");
}

/** The note of a blocked task: its first blockers named, the rest counted. */
export function blockedNote(blockedBy: LinkedPage): string | null {
  if (blockedBy.total === 0) return null;
  const named = blockedBy.tasks.slice(0, NOTE_BLOCKERS).map(describeLinkedTask).join(", ");
  const more = blockedBy.total - Math.min(NOTE_BLOCKERS, blockedBy.tasks.length);
  return `blocked: ${named}${more > 0 ? ` and ${more.toLocaleString("en")} more` : ""}`;
}

export async function taskDependencies(farm: Farm, raw: z.input<typeof taskDependenciesInput>): Promise<TaskDependencies> {
  const input = taskDependenciesInput.parse(raw);
  return farm.store.read(
    async (tx) => {
      const task = await taskDependencyQueriesRepository.place(tx, input.taskId);
      if (!task) throw new AppError("NOT_FOUND", `no task ${input.taskId}`);
      const page = ({ total, rows }: { total: number; rows: LinkedTaskRow[] }): LinkedPage => ({ total, tasks: rows.map(linkedTask) });
      const upstream = page(await taskDependencyQueriesRepository.upstream(tx, task, input.upstreamOffset, input.limit));
      const downstream = page(await taskDependencyQueriesRepository.downstream(tx, task, input.downstreamOffset, input.limit));
      const blockedBy = task.status === "PENDING" && task.waiting > 0 ? page(await taskDependencyQueriesRepository.blockers(tx, task, input.limit)) : { total: 0, tasks: [] };
      return { taskId: task.id, status: task.status, waiting: task.waiting, upstream, downstream, blockedBy, note: blockedNote(blockedBy) };
    },
    { consistent: true },
  );
}
