import { describe, expect, it } from "vitest";
import { emptyCounts, type StatusCounts } from "./statuses";
import { pendingStepNote, stepBlockers, type BlockerStep } from "./step-blockers";

function step(name: string, dependencies: string[], counts: Partial<StatusCounts>): BlockerStep {
  const full = { ...emptyCounts(), ...counts };
  return { name, dependencies, counts: full, taskCount: Object.values(full).reduce((a, b) => a + b, 0) };
}

describe("stepBlockers", () => {
  const encode = step("Encode", ["Render"], { PENDING: 1 });

  it.each([
    ["under way", { SUCCEEDED: 40, RUNNING: 2, READY: 158 }, "waiting for Render (40/200)"],
    ["failed", { SUCCEEDED: 40, FAILED: 3, READY: 157 }, "blocked: Render failed"],
    ["canceled", { SUCCEEDED: 40, CANCELED: 160 }, "blocked: Render canceled"],
    ["failed and canceled: failed first", { FAILED: 1, CANCELED: 199 }, "blocked: Render failed"],
    ["not compatible", { NOT_COMPATIBLE: 200 }, "blocked: Render not compatible"],
  ] as const)("a dependency %s", (_, counts, note) => {
    expect(pendingStepNote(encode, [step("Render", [], counts), encode])).toBe(note);
  });

  it("says nothing once every dependency succeeded, nor for a step with nothing pending", () => {
    expect(stepBlockers(encode, [step("Render", [], { SUCCEEDED: 5 }), encode])).toEqual([]);
    const running = step("Encode", ["Render"], { READY: 1 });
    expect(pendingStepNote(running, [step("Render", [], { RUNNING: 5 }), running])).toBeNull();
  });

  it("names every dependency still under way, and the blocked ones alone when any is blocked", () => {
    const comp = step("Comp", ["Render", "Sim"], { PENDING: 3 });
    const render = step("Render", [], { SUCCEEDED: 1, READY: 1 });
    expect(pendingStepNote(comp, [render, step("Sim", [], { SUCCEEDED: 2, RUNNING: 8 }), comp])).toBe("waiting for Render (1/2), Sim (2/10)");
    expect(pendingStepNote(comp, [render, step("Sim", [], { FAILED: 1 }), comp])).toBe("blocked: Sim failed");
  });
});
