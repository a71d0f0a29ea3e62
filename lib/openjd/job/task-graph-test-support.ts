/**
 * Helpers for the task-graph tests: a job's task graph read back as lines people can check
 * ("Render Frame=2 ← Export Frame=2"), each task named by its parameter values as the parameter
 * space gives them (a chunk as its range, "Frame=1-5").
 */
import type { TaskGraph } from "./task-graph-types";
import type { Job, JobStep } from "./types";

export function stepByIndex(job: Job, index: number): JobStep {
  const name = job.template.steps[index]?.name;
  const step = job.steps.find((s) => s.name === name);
  if (!step) throw new Error(`no step ${index}`);
  return step;
}

/** "Render Frame=2, Eye=left" (the step's name alone when it has no parameters). */
export function describeTask(job: Job, step: number, task: number): string {
  const jobStep = stepByIndex(job, step);
  const set = jobStep.parameterSpace.at(task);
  const values = jobStep.parameterSpace.names.map((n) => `${n}=${set[n]?.value}`).join(", ");
  return values === "" ? jobStep.name : `${jobStep.name} ${values}`;
}

export function graphOf(job: Job): TaskGraph {
  if (!job.taskGraph) throw new Error("the job has no task graph");
  return job.taskGraph;
}

/**
 * One line per all-of edge ("B X=2 ← A X=2") and per any-of group ("B X=2 ← any of A X=1 | A X=3"),
 * in the graph's order.
 */
export function describeEdges(job: Job): string[] {
  const { edges } = graphOf(job);
  const lines: string[] = [];
  const groups = new Map<number, { down: string; ups: string[] }>();
  for (let e = 0; e < edges.length; e++) {
    const down = describeTask(job, edges.downStep[e]!, edges.downTask[e]!);
    const up = describeTask(job, edges.upStep[e]!, edges.upTask[e]!);
    const group = edges.group[e]!;
    if (group === -1) {
      lines.push(`${down} ← ${up}`);
      continue;
    }
    const known = groups.get(group);
    if (known) known.ups.push(up);
    else {
      const entry = { down, ups: [up] };
      groups.set(group, entry);
      lines.push(`#${group}`);
    }
  }
  return lines.map((line) => {
    if (!line.startsWith("#")) return line;
    const group = groups.get(Number(line.slice(1)))!;
    return `${group.down} ← any of ${group.ups.join(" | ")}`;
  });
}

/** Each step's dependencies as `dependsOn: kind, label, edges`. */
export function describeDependencies(job: Job): string[][] {
  return graphOf(job).steps.map((dependencies) => dependencies.map((d) => `${d.dependsOn}: ${d.kind}, ${d.label}, ${d.edges}`));
}
