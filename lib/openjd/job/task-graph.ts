/**
 * Task-to-task dependencies resolved at job creation (TASK_DEPENDENCIES §2, §2.3): every step
 * dependency becomes a gate on the whole upstream step or edges between task rows, the tasks of
 * a step never wait for each other in a cycle, and the job holds at most MAX_TASK_EDGES edges.
 * Pure: the same template and values always give the same graph.
 */
import type { CombinationNode } from "../combination-expr";
import { stringValue, type ExprValue } from "../expr/values";
import type { FormatEnvironment } from "../format-evaluation";
import type { JobTemplate, StepTemplate, TaskDependency, TaskParameterRange } from "../model";
import { clip } from "../numbers";
import type { SpaceParameter } from "../parameter-space";
import { LayeredSymbols, stepRangeSymbols } from "./dependency-scope";
import { EdgeBuffer } from "./edge-buffer";
import { resolveDependency } from "./resolve-dependency";
import { findTaskCycle, type EdgeRange } from "./task-cycles";
import { MAX_TASK_EDGES, type DependencyKind, type ResolvedDependency, type TaskGraph } from "./task-graph-types";
import { compileTaskSpace, describeRow, type TaskSpace } from "./task-space";
import type { ChunkingInfo, JobError } from "./types";

export interface TaskGraphStep {
  template: StepTemplate;
  /** The parameter space as resolved at job creation. */
  parameters: readonly SpaceParameter[];
  combination: CombinationNode | null;
  chunking: ChunkingInfo | null;
  /** The step's template scope: parameters, its `let` values (and Job.Name, Step.Name with EXPR). */
  symbols: FormatEnvironment;
}

export interface TaskGraphInput {
  jobName: string;
  expr: boolean;
  /** Every step, in template order. */
  steps: readonly TaskGraphStep[];
}

export interface TaskGraphOptions {
  /** The edge cap (default MAX_TASK_EDGES); tests lower it. */
  maxEdges?: number;
}

export type TaskGraphResult = { ok: true; graph: TaskGraph } | { ok: false; errors: JobError[] };

/** Whether a template needs a task graph at all: jobs without subspaces skip all of this. */
export function hasTaskDependencies(template: JobTemplate): boolean {
  return template.steps.some((step) => (step.taskDependencies?.length ?? 0) > 0);
}

export function resolveTaskGraph(input: TaskGraphInput, options: TaskGraphOptions = {}): TaskGraphResult {
  const maxEdges = options.maxEdges ?? MAX_TASK_EDGES;
  const errors: JobError[] = [];
  const fail = (segments: readonly (string | number)[], message: string) => errors.push({ origin: { kind: "template" }, segments: [...segments], message });
  const indexOf = new Map<string, number>();
  input.steps.forEach((step, i) => {
    if (!indexOf.has(step.template.name)) indexOf.set(step.template.name, i);
  });
  const spaces: TaskSpace[] = [];
  const spaceOf = (i: number): TaskSpace => {
    const step = input.steps[i]!;
    return (spaces[i] ??= compileTaskSpace(step.parameters, step.combination, step.chunking));
  };
  const ranges = stepRangeSymbols(
    input.steps.map((s) => ({ name: s.template.name, parameters: s.parameters })),
    input.expr,
  );
  const edges = new EdgeBuffer(maxEdges);
  const selfSpans: EdgeRange[][] = input.steps.map(() => []);
  let pastCap: TaskDependency | null = null;

  const steps = input.steps.map((step, s): ResolvedDependency[] => {
    const bySlot = new Map((step.template.taskDependencies ?? []).map((d) => [d.path.at(-1), d]));
    const names = new Map<string, ExprValue>([
      ["Job.Name", stringValue(input.jobName)],
      ["Step.Name", stringValue(step.template.name)],
    ]);
    const symbols = new LayeredSymbols(step.symbols.symbols, names, ranges);
    return step.template.dependencies.map((dependsOn, index) => {
      const upstreamStep = indexOf.get(dependsOn) ?? -1;
      const self = upstreamStep === s;
      const dependency = bySlot.get(index);
      const resolved: ResolvedDependency = { index, dependsOn, upstreamStep, self, kind: "step", label: "whole step", edges: 0 };
      if (!dependency || upstreamStep < 0) return resolved;
      const start = edges.count;
      const sides = { downStep: s, downName: step.template.name, down: spaceOf(s), upStep: upstreamStep, up: spaceOf(upstreamStep), symbols, pathFormat: step.symbols.pathFormat };
      const outcome = resolveDependency(sides, dependency, edges);
      if (!outcome.ok) {
        fail(outcome.segments.length > 0 ? outcome.segments : dependency.path, outcome.message);
        return resolved;
      }
      if (edges.overflowed && pastCap === null) pastCap = dependency;
      const span: EdgeRange = [start, edges.count];
      if (self) selfSpans[s]!.push(span);
      return { ...resolved, kind: outcome.kind, label: dependencyLabel(outcome.kind, dependency, self), edges: outcome.edges };
    });
  });
  if (pastCap !== null) {
    const at: TaskDependency = pastCap;
    fail(
      at.path,
      `the job would have ${edges.count.toLocaleString("en-US")} task-to-task edges; at most ${maxEdges.toLocaleString("en-US")} are allowed (this dependency passes the limit; a dependency that matches the whole upstream step for every task costs no edges)`,
    );
  }
  if (errors.length > 0) return { ok: false, errors };

  selfSpans.forEach((selfEdges, s) => {
    if (selfEdges.length === 0) return;
    const cycle = findTaskCycle(edges, selfEdges, spaceOf(s).rowCount);
    if (cycle === null) return;
    const step = input.steps[s]!;
    const first = step.template.taskDependencies?.find((d) => d.dependsOn === step.template.name);
    fail(first?.path ?? step.template.path, `step ${step.template.name}: tasks wait for each other in a cycle: ${cycle.map((row) => describeRow(spaceOf(s), row)).join(" → ")}`);
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, graph: { steps, edges: edges.finish(), groupCount: edges.groups } };
}

/** What a graph edge shows: "whole step", "any task", "Frame = {{Task.Param.Frame}}", "self: …". */
export function dependencyLabel(kind: DependencyKind, dependency: TaskDependency, self: boolean): string {
  if (kind === "step") return "whole step";
  if (kind === "step-any") return "any task";
  const entries = dependency.subspace.entries.map((e) => `${e.name} = ${rangeText(e.range)}`).join(", ");
  const text = kind === "tasks-any" ? `any of ${entries}` : entries;
  return self ? `self: ${text}` : text;
}

function rangeText(range: TaskParameterRange): string {
  if (range.kind === "expression") return clip(range.format.raw, 60);
  const items = range.items.map((item) => item.format.raw);
  return clip(items.length === 1 ? items[0]! : `[${items.join(", ")}]`, 60);
}
