/**
 * Readiness over a task graph: gates on whole steps (all of it, or its first success), all-of
 * edges and any-of groups; and the order `loom run` takes a step's tasks in.
 */
import { describe, expect, it } from "vitest";
import { SIM_THEN_RENDER } from "../testing/task-dependency-templates";
import { createOk } from "./job-test-support";
import { taskOrder, TaskReadiness } from "./task-readiness";
import type { TaskGraph } from "./task-graph-types";

const RUN = { actions: { onRun: { command: "echo" } } };
const frames = { taskParameterDefinitions: [{ name: "Frame", type: "INT", range: "1-3" }] };
const template = JSON.stringify({
  specificationVersion: "jobtemplate-2023-09",
  extensions: ["TASK_DEPENDENCIES", "EXPR"],
  name: "J",
  steps: [
    { name: "A", parameterSpace: frames, script: RUN },
    { name: "Whole", dependencies: [{ dependsOn: "A" }], script: RUN },
    { name: "First", dependencies: [{ dependsOn: "A", dependsOnSubspace: { anyOf: [{ name: "Frame", range: "{{Step.A.ParameterSpace.Frame.Range}}" }] } }], script: RUN },
    { name: "Same", parameterSpace: frames, dependencies: [{ dependsOn: "A", dependsOnSubspace: [{ name: "Frame", range: "{{Task.Param.Frame}}" }] }], script: RUN },
    {
      name: "Near",
      parameterSpace: frames,
      dependencies: [{ dependsOn: "A", dependsOnSubspace: { anyOf: [{ name: "Frame", range: ["{{Task.Param.Frame - 1}}", "{{Task.Param.Frame + 1}}"] }] } }],
      script: RUN,
    },
  ],
});

function readyAfter(graph: TaskGraph, succeeded: Array<[number, number]>): string[] {
  const readiness = new TaskReadiness(graph, [3, 1, 1, 3, 3]);
  for (const [step, task] of succeeded) readiness.succeed(step, task);
  const names = ["A", "Whole", "First", "Same", "Near"];
  return [3, 1, 1, 3, 3].flatMap((count, step) => Array.from({ length: count }, (_, task) => (readiness.isReady(step, task) ? `${names[step]}${count > 1 ? task + 1 : ""}` : [])).flat());
}

describe("TaskReadiness", () => {
  const graph = createOk({ template }).taskGraph!;

  it.each<[string, Array<[number, number]>, string[]]>([
    ["nothing done: the upstream tasks, and Near 1 and 3's groups are not met yet", [], ["A1", "A2", "A3"]],
    ["A2 done: First's gate opens, Same 2 and Near 1, Near 3 can run", [[0, 1]], ["A1", "A3", "First", "Same2", "Near1", "Near3"]],
    [
      "every A task done: Whole too",
      [
        [0, 0],
        [0, 1],
        [0, 2],
      ],
      ["Whole", "First", "Same1", "Same2", "Same3", "Near1", "Near2", "Near3"],
    ],
    [
      "a task done is no longer ready; succeeding twice changes nothing",
      [
        [0, 0],
        [0, 0],
        [4, 1],
      ],
      ["A2", "A3", "First", "Same1"],
    ],
  ])("%s", (_name, succeeded, ready) => {
    expect(readyAfter(graph, succeeded)).toEqual(ready);
  });

  it("reports the tasks a success releases from their edges", () => {
    const readiness = new TaskReadiness(graph, [3, 1, 1, 3, 3]);
    expect(readiness.succeed(0, 1)).toEqual([
      [3, 1],
      [4, 0],
      [4, 2],
    ]);
    expect(readiness.succeed(0, 0)).toEqual([
      [3, 0],
      [4, 1],
    ]);
  });
});

describe("taskOrder", () => {
  it("is parameter-space order without self-dependencies, and the chain's order with one", () => {
    const job = createOk({ template: SIM_THEN_RENDER, parameterValues: { FrameCount: 2, TimeStepsPerFrame: 2 } });
    expect(taskOrder(job.taskGraph, 0, 4)).toEqual([0, 1, 2, 3]);
    expect(taskOrder(job.taskGraph, 1, 2)).toEqual([0, 1]);
    expect(taskOrder(null, 0, 3)).toEqual([0, 1, 2]);
  });

  it("takes the smallest ready task first", () => {
    const reversed = createOk({ template: SIM_THEN_RENDER.replace("Task.Param.TimeStepNumber - 1", "Task.Param.TimeStepNumber + 1"), parameterValues: { FrameCount: 2, TimeStepsPerFrame: 2 } });
    expect(taskOrder(reversed.taskGraph, 0, 4)).toEqual([3, 2, 1, 0]);
  });
});
