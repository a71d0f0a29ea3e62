import { describe, expect, it } from "vitest";
import { layoutSteps, NODE_HEIGHT, NODE_WIDTH, stepEdges, type LayoutStep } from "./step-layout";

const step = (name: string, ...dependencies: string[]): LayoutStep => ({ id: `id-${name}`, name, dependencies });

function columns(steps: LayoutStep[]): Record<string, number> {
  const placed = layoutSteps(steps);
  const xs = [...new Set(placed.map((p) => p.x))].sort((a, b) => a - b);
  return Object.fromEntries(placed.map((p) => [p.id.slice(3), xs.indexOf(p.x)]));
}

describe("step graph layout", () => {
  it.each([
    [[step("A"), step("B", "A"), step("C", "B")], { A: 0, B: 1, C: 2 }],
    [[step("Render"), step("Encode", "Render"), step("Preview")], { Render: 0, Encode: 1, Preview: 0 }],
    [[step("A"), step("B", "A"), step("C", "A"), step("D", "B", "C")], { A: 0, B: 1, C: 1, D: 2 }],
    [[step("D", "B", "C"), step("C", "A"), step("B", "A"), step("A")], { A: 0, B: 1, C: 1, D: 2 }],
  ])("puts every step one column right of its deepest dependency (%#)", (steps, expected) => {
    expect(columns(steps)).toEqual(expected);
  });

  it("never overlaps two nodes", () => {
    const steps = [step("A"), ...Array.from({ length: 6 }, (_, i) => step(`S${i}`, "A")), step("Z", "S0", "S5")];
    const placed = layoutSteps(steps);
    for (const a of placed) {
      for (const b of placed) {
        if (a === b) continue;
        const apart = Math.abs(a.x - b.x) >= NODE_WIDTH || Math.abs(a.y - b.y) >= NODE_HEIGHT;
        expect(apart, `${a.id} and ${b.id}`).toBe(true);
      }
    }
  });

  it("is deterministic", () => {
    const steps = [step("A"), step("B", "A"), step("C", "A")];
    expect(layoutSteps(steps)).toEqual(layoutSteps(steps));
  });

  it("draws an edge per dependency, by id, and ignores unknown names", () => {
    expect(stepEdges([step("A"), step("B", "A", "Missing")])).toEqual([{ id: "id-A->id-B", source: "id-A", target: "id-B" }]);
  });
});
