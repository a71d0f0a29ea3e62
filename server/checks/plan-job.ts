/**
 * A valid submission as plain data: what persisting a job needs (its row's fields, its steps in
 * the template's order) and what a preview shows, with no functions and no lazy parameter
 * spaces, so it crosses from a check thread by structured clone. Task rows come separately, in
 * batches of parameter JSON strings walked from the lazy space (a 1,000,000-task job never
 * exists as one array), then the task-to-task edges the same way (plan-dependencies.ts).
 */
import { type HostRequirements, type Job, type JobStep, type ParameterValue, stackFor } from "../../lib/openjd";
import type { ResolvedDependency } from "../../lib/openjd";
import { edgeBatches, resolvedDependencies, waitingCounts, waitingRows, waitingTaskCounts, type EdgeBatch } from "./plan-dependencies";
import type { ResolvedSettings, ValidSubmission } from "./validate-submission";

export type { EdgeBatch } from "./plan-dependencies";

export interface PlannedStep {
  /** Position in the template's `steps` list (the step row's step_index). */
  index: number;
  name: string;
  dependencies: string[];
  /** Its dependencies as job creation resolved them (kinds, labels, edge counts). */
  taskDependencies: ResolvedDependency[];
  /** Of its tasks, how many wait on other tasks when the job is created (they start PENDING). */
  waitingTasks: number;
  hostRequirements: HostRequirements | null;
  /** Ids of the environments the step's Sessions enter, outermost first. */
  environmentStack: string[];
  chunked: boolean;
  chunk: { parameter: string; items: number; itemsPerChunk: number } | null;
  /** Tasks the step creates; a chunk of frames is one task. */
  taskCount: number;
}

export interface JobPlan {
  name: string;
  description: string | null;
  parameters: Record<string, ParameterValue>;
  settings: ResolvedSettings;
  taskCount: number;
  /** In the template's order. */
  steps: PlannedStep[];
  /** Indexes of `steps` in dependency order, as lib/openjd lists a job's steps (previews show this). */
  runOrder: number[];
  /** Task-to-task edges and any-of groups (TASK_DEPENDENCIES), written after the tasks. */
  edgeCount: number;
  groupCount: number;
}

/**
 * Consecutive tasks of one step from task index `first`: their parameter sets as JSON array
 * texts of up to TASK_CHUNK_ROWS sets each. Few long strings cross between threads in no time
 * (20,000 short ones took the receiving event loop 10–100 ms to deserialize), and SQLite reads
 * them with json_each: the server's thread never touches a task's parameters one by one.
 */
export interface TaskBatch {
  kind: "tasks";
  stepIndex: number;
  first: number;
  rows: number;
  chunks: string[];
  /**
   * Per chunk, the tasks that wait on others (plan-dependencies.ts waitingRows): their number of
   * requirements and their indexes; absent when none of the batch's tasks waits.
   */
  waiting?: Array<Array<[number, string]> | null>;
}

/** What a creation streams from its check thread: the tasks step by step, then the edges. */
export type CreationBatch = TaskBatch | EdgeBatch;

/** Parameter sets per chunk: one INSERT statement, a few milliseconds. */
export const TASK_CHUNK_ROWS = 500;

/** The job's steps in template order (stepIndex is the position in its `steps` list). */
function orderedSteps(job: Job): JobStep[] {
  const byName = new Map(job.steps.map((s) => [s.name, s]));
  return job.template.steps.map((t) => byName.get(t.name)!);
}

export function planJob(valid: ValidSubmission): JobPlan {
  const { job } = valid;
  const ordered = orderedSteps(job);
  const graph = job.taskGraph;
  const dependencies = resolvedDependencies(job, ordered);
  const waiting = waitingTaskCounts(graph && waitingCounts(graph, taskCounts(ordered)), ordered.length);
  return {
    name: job.name,
    description: job.description ?? null,
    parameters: job.parameters,
    settings: valid.settings,
    taskCount: valid.taskCount,
    runOrder: job.steps.map((step) => ordered.indexOf(step)),
    edgeCount: graph?.edges.length ?? 0,
    groupCount: graph?.groupCount ?? 0,
    steps: ordered.map((step, index) => ({
      index,
      name: step.name,
      dependencies: step.dependencies,
      taskDependencies: dependencies[index]!,
      waitingTasks: waiting[index]!,
      hostRequirements: step.hostRequirements,
      environmentStack: stackFor(job, step).map((e) => e.id),
      chunked: step.chunking !== null,
      chunk: chunkOf(step),
      taskCount: step.parameterSpace.count,
    })),
  };
}

function chunkOf(step: JobStep): PlannedStep["chunk"] {
  if (step.chunking === null) return null;
  const { parameter, defaultTaskCount } = step.chunking;
  const items = step.taskParameters.find((p) => p.name === parameter)?.valueCount ?? 0;
  return { parameter, items, itemsPerChunk: defaultTaskCount };
}

const taskCounts = (steps: readonly JobStep[]) => steps.map((s) => s.parameterSpace.count);

/** Every task of the job, step by step in index order, about `rows` at a time; then its task-to-task edges. */
export function* taskBatches(job: Job, rows: number): Generator<CreationBatch> {
  const steps = orderedSteps(job);
  const graph = job.taskGraph;
  const waiting = graph && waitingCounts(graph, taskCounts(steps));
  for (let stepIndex = 0; stepIndex < steps.length; stepIndex++) {
    const space = steps[stepIndex]!.parameterSpace;
    const perTask = waiting?.get(stepIndex);
    // Keys in the order the template defines the parameters (the space fills them right to left).
    const keyOrder = [...space.names, "type", "value"];
    for (let first = 0; first < space.count; first += rows) {
      const end = Math.min(space.count, first + rows);
      const chunks: string[] = [];
      for (let from = first; from < end; from += TASK_CHUNK_ROWS) {
        const sets = [];
        for (let i = from; i < Math.min(end, from + TASK_CHUNK_ROWS); i++) sets.push(space.at(i));
        chunks.push(JSON.stringify(sets, keyOrder));
      }
      const batch: TaskBatch = { kind: "tasks", stepIndex, first, rows: end - first, chunks };
      if (perTask) batch.waiting = chunks.map((_, k) => waitingRows(perTask, first + k * TASK_CHUNK_ROWS, Math.min(TASK_CHUNK_ROWS, end - first - k * TASK_CHUNK_ROWS)));
      yield batch;
    }
  }
  if (graph) yield* edgeBatches(graph, rows);
}
