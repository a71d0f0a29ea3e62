/** The data behind `loom summary` (also its JSON form). */
import { type ChunkingInfo, formatCombination, type HostRequirements, IntRangeExpr, type Job, type ParameterValue, parameterValueToJson } from "../../lib/openjd";

/** TASK_DEPENDENCIES: one dependency as resolved (kind "step", "step-any", "tasks" or "tasks-any"). */
export interface DependencySummary {
  dependsOn: string;
  kind: string;
  label: string;
  edges: number;
}

export interface StepSummary {
  name: string;
  description?: string;
  dependencies: string[];
  /** Only for a job with task-to-task dependencies: each dependency's kind, label and edge count. */
  taskDependencies?: DependencySummary[];
  taskParameters: Array<{ name: string; type: string; valueCount: number }>;
  combination: string | null;
  taskCount: number;
  /** Dispatched units: chunks when the step is chunked, otherwise equal to taskCount. */
  chunkCount: number;
  chunking: ChunkingInfo | null;
  hostRequirements: string | null;
  environments: string[];
}

export interface JobSummary {
  name: string;
  description?: string;
  parameters: Array<{ name: string } & ParameterValue>;
  totalSteps: number;
  totalTasks: number;
  totalChunks: number;
  /** Only for a job with task-to-task dependencies. */
  taskEdges?: number;
  steps: StepSummary[];
  environments: Array<{ name: string; description?: string; scope: "job" | string }>;
}

export function summarizeJob(job: Job): JobSummary {
  const steps = job.steps.map((step) => summarizeStep(step, dependenciesOf(job, step)));
  const environments = [
    ...job.environmentTemplates.map((t) => ({ name: t.environment.name, description: t.environment.description, scope: "job" })),
    ...job.jobEnvironments.map((e) => ({ name: e.name, description: e.description, scope: "job" })),
    ...job.steps.flatMap((s) => s.stepEnvironments.map((e) => ({ name: e.name, description: e.description, scope: s.name }))),
  ];
  return {
    name: job.name,
    ...(job.description === undefined ? {} : { description: job.description }),
    parameters: job.parameterDefinitions.map((d) => ({ name: d.name, type: d.type, value: job.parameters[d.name]?.value ?? "" })),
    totalSteps: steps.length,
    totalTasks: steps.reduce((n, s) => n + s.taskCount, 0),
    totalChunks: steps.reduce((n, s) => n + s.chunkCount, 0),
    ...(job.taskGraph ? { taskEdges: job.taskGraph.edges.length } : {}),
    steps,
    environments,
  };
}

/** The task graph numbers steps in template order; job.steps are in dependency order. */
function dependenciesOf(job: Job, step: Job["steps"][number]): DependencySummary[] | null {
  const resolved = job.taskGraph?.steps[job.template.steps.indexOf(step.template)];
  return resolved ? resolved.map((d) => ({ dependsOn: d.dependsOn, kind: d.kind, label: d.label, edges: d.edges })) : null;
}

function summarizeStep(step: Job["steps"][number], taskDependencies: DependencySummary[] | null): StepSummary {
  const space = step.parameterSpace;
  return {
    name: step.name,
    ...(step.description === undefined ? {} : { description: step.description }),
    dependencies: step.dependencies,
    ...(taskDependencies ? { taskDependencies } : {}),
    taskParameters: step.taskParameters.map((p) => ({ name: p.name, type: p.type, valueCount: p.valueCount })),
    combination: step.combination ? formatCombination(step.combination) : null,
    taskCount: space.taskCount,
    chunkCount: space.count,
    chunking: step.chunking,
    hostRequirements: describeHostRequirements(step.hostRequirements),
    environments: step.stepEnvironments.map((e) => e.name),
  };
}

export function describeHostRequirements(requirements: HostRequirements | null): string | null {
  if (!requirements) return null;
  const parts = [
    ...requirements.amounts.map((a) => (a.min !== undefined && a.max !== undefined ? `${a.min} <= ${a.name} <= ${a.max}` : a.min !== undefined ? `${a.name} >= ${a.min}` : `${a.name} <= ${a.max}`)),
    ...requirements.attributes.flatMap((a) => [...(a.anyOf ? [`${a.name} any of [${a.anyOf.join(", ")}]`] : []), ...(a.allOf ? [`${a.name} all of [${a.allOf.join(", ")}]`] : [])]),
  ];
  return parts.join("; ");
}

/**
 * A parameter value for people: lists spaced out with their item count (`["a", "b"] (2 items)`,
 * `[[1, 2], [3]] (2 items)`), a range expression with its value count (`1-10 (10 values)`), and
 * everything else as its text.
 */
export function displayParameterValue(parameter: ParameterValue): string {
  if (parameter.type === "RANGE_EXPR") {
    const parsed = IntRangeExpr.tryParse(parameter.value);
    return parsed.ok ? `${parameter.value} (${plural(parsed.value.size, "value")})` : parameter.value;
  }
  const decoded = parameterValueToJson(parameter);
  if (!Array.isArray(decoded)) return parameter.value;
  const quoted = parameter.type === "LIST[STRING]" || parameter.type === "LIST[PATH]";
  const show = (item: unknown): string => (Array.isArray(item) ? `[${item.map(show).join(", ")}]` : quoted ? JSON.stringify(item) : String(item));
  return `${show(decoded)} (${plural(decoded.length, "item")})`;
}

export function plural(count: number | bigint, noun: string): string {
  return `${count} ${noun}${count === 1 || count === 1n ? "" : "s"}`;
}
