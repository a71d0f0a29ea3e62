/**
 * A valid submission as plain data: what persisting a job needs (its row's fields, its steps in
 * the template's order) and what a preview shows, with no functions and no lazy parameter
 * spaces, so it crosses from a check thread by structured clone. Task rows come separately, in
 * batches of parameter JSON strings walked from the lazy space (a 1,000,000-task job never
 * exists as one array).
 */
import { type HostRequirements, type Job, type JobStep, type ParameterValue, stackFor } from "../../lib/openjd";
import type { ResolvedSettings, ValidSubmission } from "./validate-submission";

export interface PlannedStep {
  /** Position in the template's `steps` list (the step row's step_index). */
  index: number;
  name: string;
  dependencies: string[];
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
}

/**
 * Consecutive tasks of one step from task index `first`: their parameter sets as JSON array
 * texts of up to TASK_CHUNK_ROWS sets each. Few long strings cross between threads in no time
 * (20,000 short ones took the receiving event loop 10–100 ms to deserialize), and SQLite reads
 * them with json_each: the server's thread never touches a task's parameters one by one.
 */
export interface TaskBatch {
  stepIndex: number;
  first: number;
  rows: number;
  chunks: string[];
}

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
  return {
    name: job.name,
    description: job.description ?? null,
    parameters: job.parameters,
    settings: valid.settings,
    taskCount: valid.taskCount,
    runOrder: job.steps.map((step) => ordered.indexOf(step)),
    steps: ordered.map((step, index) => ({
      index,
      name: step.name,
      dependencies: step.dependencies,
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

/** Every task of the job, step by step in index order, about `rows` at a time. */
export function* taskBatches(job: Job, rows: number): Generator<TaskBatch> {
  const steps = orderedSteps(job);
  for (let stepIndex = 0; stepIndex < steps.length; stepIndex++) {
    const space = steps[stepIndex]!.parameterSpace;
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
      yield { stepIndex, first, rows: end - first, chunks };
    }
  }
}
