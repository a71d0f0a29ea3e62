import { describe, expect, it } from "vitest";
import { fitZoom, frameHeight, layoutSize, layoutSteps, NODE_HEIGHT, NODE_WIDTH, openingZoom, READABLE_ZOOM, stepEdges, type LayoutStep, type PlacedStep } from "./step-layout";

const step = (name: string, ...dependencies: string[]): LayoutStep => ({ id: `id-${name}`, name, dependencies });

function columns(steps: LayoutStep[]): Record<string, number> {
  const placed = layoutSteps(steps);
  const xs = [...new Set(placed.map((p) => p.x))].sort((a, b) => a - b);
  return Object.fromEntries(placed.map((p) => [p.id.slice(3), xs.indexOf(p.x)]));
}

/** The README's sample (task-parameter-definition-showcase.yaml): twelve steps, none depending on another. */
const twelve = [
  "Basic integer range expression",
  "Range is a format string",
  "Integer range expression with a skip value",
  "Compound integer range expression",
  "List of integer values",
  "List of float values",
  "List of string values",
  "List of path values",
  "Cartesian product",
  "Association",
  "Mix of operators",
  "Mix of operators two",
].map((name) => step(name));

const chain = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? step("C0") : step(`C${i}`, `C${i - 1}`)));

/** Render → composite → encode chains, fans and loose steps, as a 100-step job might mix them. */
function mixed(n: number): LayoutStep[] {
  const steps: LayoutStep[] = [];
  for (let i = 0; steps.length < n; i++) {
    const kind = i % 4;
    if (kind === 0) steps.push(step(`R${i}`), step(`E${i}`, `R${i}`), step(`P${i}`, `E${i}`));
    else if (kind === 1) steps.push(step(`F${i}`), step(`Fa${i}`, `F${i}`), step(`Fb${i}`, `F${i}`), step(`Fz${i}`, `Fa${i}`, `Fb${i}`));
    else steps.push(step(`L${i}`));
  }
  return steps.slice(0, n);
}

function expectApart(placed: readonly PlacedStep[]) {
  for (const a of placed) {
    for (const b of placed) {
      if (a === b) continue;
      const apart = Math.abs(a.x - b.x) >= NODE_WIDTH || Math.abs(a.y - b.y) >= NODE_HEIGHT;
      expect(apart, `${a.id} and ${b.id}`).toBe(true);
    }
  }
}

/** The graph's frame on a 1280 px wide screen (the page's content width), at its tallest. */
const FRAME = { width: 1200, height: 300 };

describe("step graph layout", () => {
  it.each([
    [[step("A"), step("B", "A"), step("C", "B")], { A: 0, B: 1, C: 2 }],
    [[step("A"), step("B", "A"), step("C", "A"), step("D", "B", "C")], { A: 0, B: 1, C: 1, D: 2 }],
    [[step("D", "B", "C"), step("C", "A"), step("B", "A"), step("A")], { A: 0, B: 1, C: 1, D: 2 }],
  ])("puts every step one column right of its deepest dependency (%#)", (steps, expected) => {
    expect(columns(steps)).toEqual(expected);
  });

  it.each([
    ["a fan", [step("A"), ...Array.from({ length: 6 }, (_, i) => step(`S${i}`, "A")), step("Z", "S0", "S5")]],
    ["12 independent", twelve],
    ["100 mixed", mixed(100)],
  ])("never overlaps two nodes (%s)", (_, steps) => {
    expectApart(layoutSteps(steps));
  });

  it("puts a step with no dependency either way beside a chain, not under it", () => {
    const [render, encode, preview] = layoutSteps([step("Render"), step("Encode", "Render"), step("Preview")]);
    expect(render!.x).toBeLessThan(encode!.x);
    expect(preview!.y).toBe(render!.y);
    expect(preview!.x).toBeGreaterThan(encode!.x);
  });

  it("is deterministic", () => {
    const steps = [step("A"), step("B", "A"), step("C", "A")];
    expect(layoutSteps(steps)).toEqual(layoutSteps(steps));
  });

  it("draws an edge per dependency, by id, and ignores unknown names", () => {
    expect(stepEdges([step("A"), step("B", "A", "Missing")])).toEqual([{ id: "id-A->id-B", source: "id-A", target: "id-B" }]);
  });

  it("lays out one step whole, at full size", () => {
    const size = layoutSize(layoutSteps([step("Only")]));
    expect(size).toEqual({ width: NODE_WIDTH, height: NODE_HEIGHT });
    expect(openingZoom(size, FRAME)).toBe(1);
  });

  it("wraps twelve independent steps into a wide block that fits readable", () => {
    const placed = layoutSteps(twelve);
    const size = layoutSize(placed);
    const rows = new Set(placed.map((p) => p.y)).size;
    const columns = new Set(placed.map((p) => p.x)).size;
    expect(rows).toBeGreaterThan(1);
    expect(columns).toBeGreaterThan(rows);
    expect(rows * columns).toBeLessThan(twelve.length + columns); // no row left almost empty
    expect(size.width / size.height).toBeGreaterThan(2);
    // The whole sample at the default viewport, names at a readable size: no pan, no shrinking.
    expect(fitZoom(size, { width: FRAME.width, height: frameHeight(size, FRAME.width) })).toBeGreaterThanOrEqual(READABLE_ZOOM);
  });

  it("keeps a chain of twelve in one row, left to right, and opens it at a readable zoom (panned, not shrunk)", () => {
    const placed = layoutSteps(chain(12));
    const xs = placed.map((p) => p.x);
    expect(new Set(placed.map((p) => p.y)).size).toBe(1);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    const size = layoutSize(placed);
    expect(fitZoom(size, FRAME)).toBeLessThan(READABLE_ZOOM);
    expect(openingZoom(size, FRAME)).toBe(READABLE_ZOOM);
  });

  it("lays 100 mixed steps out wider than tall, dependencies always to the left", () => {
    const steps = mixed(100);
    const placed = layoutSteps(steps);
    const at = new Map(placed.map((p) => [p.id, p]));
    for (const e of stepEdges(steps)) expect(at.get(e.source)!.x, e.id).toBeLessThan(at.get(e.target)!.x);
    const size = layoutSize(placed);
    expect(size.width).toBeGreaterThan(size.height);
    expect(size.width / size.height).toBeLessThan(20);
    expect(frameHeight(size, FRAME.width)).toBeLessThanOrEqual(FRAME.height);
  });
});
