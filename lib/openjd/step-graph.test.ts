import { describe, expect, it } from "vitest";
import { dependencyOrder, findCycle } from "./step-graph";

const steps = (spec: Record<string, string[]>) => Object.entries(spec).map(([name, dependencies]) => ({ name, dependencies }));

describe("findCycle", () => {
  it.each([
    [{ A: [], B: ["A"], C: ["B"] }, null],
    [{ A: ["B"], B: ["A"] }, ["A", "B", "A"]],
    [{ A: [], B: ["C"], C: ["D"], D: ["B"] }, ["B", "C", "D", "B"]],
    [{ A: ["Missing"] }, null],
    [{ A: ["A"] }, ["A", "A"]],
  ])("%j → %j", (spec, cycle) => {
    expect(findCycle(steps(spec))).toEqual(cycle);
  });
});

describe("dependencyOrder", () => {
  it.each([
    [{ A: [], B: [], C: [] }, ["A", "B", "C"]],
    [{ Encode: ["Render"], Render: [] }, ["Render", "Encode"]],
    [{ D: ["B", "C"], C: ["A"], B: ["A"], A: [] }, ["A", "C", "B", "D"]],
    // A cycle cannot be ordered; the rest keeps template order so callers still see every step.
    [{ A: ["B"], B: ["A"], C: [] }, ["C", "A", "B"]],
    // TASK_DEPENDENCIES: a step waiting for some of its own tasks is not an edge between steps.
    [{ B: ["A", "B"], A: ["A"] }, ["A", "B"]],
  ])("%j → %j", (spec, order) => {
    expect(dependencyOrder(steps(spec)).map((s) => s.name)).toEqual(order);
  });
});
