import { describe, expect, it } from "vitest";
import { checkCombination, defaultCombination, formatCombination, namesIn, parseCombination, type CombinationNode } from "./combination-expr";

const name = (text: string, offset: number): CombinationNode => ({ kind: "name", name: text, offset });

function parsed(text: string): CombinationNode {
  const result = parseCombination(text);
  if (!result.ok) throw new Error(`${text}: ${result.message}`);
  return result.node;
}

describe("parseCombination accepts", () => {
  it.each([
    ["A", "A"],
    ["A * B * C", "A * B * C"],
    ["A*B", "A * B"],
    ["(A, B)", "(A, B)"],
    ["A * (B,C)", "A * (B, C)"],
    ["(B,C) * A", "(B, C) * A"],
    ["((A,B),C)", "((A, B), C)"],
    ["(A*B, C)", "(A * B, C)"],
    ["(A,B)*(C,D)", "(A, B) * (C, D)"],
    ["  Frame_1 *   _cam  ", "Frame_1 * _cam"],
    ["(A, B, C, D)", "(A, B, C, D)"],
  ])("%j as %s", (text, formatted) => {
    expect(formatCombination(parsed(text))).toBe(formatted);
  });

  it("keeps products flat with the left factor first and records offsets", () => {
    expect(parsed("A * (B, C) * D")).toEqual({
      kind: "product",
      factors: [name("A", 0), { kind: "association", members: [name("B", 5), name("C", 8)] }, name("D", 13)],
    });
  });

  it("allows 1280 characters", () => {
    const text = `A${" ".repeat(1278)}B`.replace(/ B$/, "*B");
    expect(text).toHaveLength(1280);
    expect(parseCombination(text).ok).toBe(true);
  });
});

describe("parseCombination rejects", () => {
  it.each([
    ["", 0, /empty combination expression/],
    ["   ", 0, /empty combination expression/],
    ["(A)", 0, /association at offset 0 has one member; an association needs at least two/],
    ["A * (B)", 4, /has one member/],
    ["A,B", 1, /unexpected ',' at offset 1; an association needs parentheses/],
    ["A * * B", 4, /unexpected '\*' at offset 4; expected a parameter name or '\('/],
    ["(A, B", 5, /expected ',' or '\)' at offset 5 but the expression ended; the '\(' at offset 0 is not closed/],
    ["A B", 2, /unexpected 'B' at offset 2; join parameters with '\*'/],
    ["(A B)", 3, /unexpected 'B' at offset 3; expected '\*', ',' or '\)'/],
    ["A *", 3, /expected a parameter name or '\(' at offset 3 but the expression ended/],
    ["A)", 1, /unexpected '\)' at offset 1; there is no '\(' for it to close/],
    ["()", 1, /unexpected '\)' at offset 1/],
    ["(A,)", 3, /unexpected '\)' at offset 3/],
    ["A (B, C)", 2, /unexpected '\(' at offset 2/],
    ["A + B", 2, /character "\+" at offset 2 is not allowed/],
    ["A\t* B", 1, /character "\\t" at offset 1 is not allowed/],
    ["A * Bé", 5, /character "é" at offset 5 is not allowed/],
    ["1A * B", 0, /'1A' at offset 0 is not a parameter name/],
    ["A".repeat(1281), 1280, /1281 characters long; at most 1280/],
  ])("%j at offset %i", (text, offset, message) => {
    const result = parseCombination(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.offset).toBe(offset);
    expect(result.message).toMatch(message);
  });
});

describe("checkCombination", () => {
  it.each([
    ["A * B * C", ["A", "B", "C"], undefined, []],
    ["(A, B) * C", ["A", "B", "C"], "C", []],
    ["A * X", ["A"], undefined, ["'X' in the combination is not a task parameter of this step (defined: A)"]],
    ["(A, B, A)", ["A", "B"], undefined, ["'A' appears 2 times in the combination; each parameter must appear exactly once"]],
    ["A", ["A", "B"], undefined, ["parameter 'B' is missing from the combination; each parameter must appear exactly once"]],
    ["A * (F, B)", ["A", "B", "F"], "F", ["CHUNK[INT] parameter 'F' cannot be inside an association '( , )'; combine it with '*' instead"]],
    ["((F, B), A)", ["A", "B", "F"], "F", ["CHUNK[INT] parameter 'F' cannot be inside an association '( , )'; combine it with '*' instead"]],
    [
      "A * A * Z",
      ["A", "B"],
      undefined,
      [
        "'A' appears 2 times in the combination; each parameter must appear exactly once",
        "'Z' in the combination is not a task parameter of this step (defined: A, B)",
        "parameter 'B' is missing from the combination; each parameter must appear exactly once",
      ],
    ],
  ])("%s with %j (chunked %s)", (text, names, chunked, problems) => {
    expect(checkCombination(parsed(text), names, chunked)).toEqual(problems);
  });
});

describe("defaultCombination and namesIn", () => {
  it.each([
    [[], "", []],
    [["A"], "A", ["A"]],
    [["Frame", "Camera", "Layer"], "Frame * Camera * Layer", ["Frame", "Camera", "Layer"]],
  ])("%j", (names, text, order) => {
    const node = defaultCombination(names);
    expect(formatCombination(node)).toBe(text);
    expect(namesIn(node)).toEqual(order);
  });

  it("gives default names the offsets of their formatted text", () => {
    const node = defaultCombination(["Frame", "Camera"]);
    expect(node).toEqual({ kind: "product", factors: [name("Frame", 0), name("Camera", 8)] });
  });

  it("lists names in written order with repeats", () => {
    expect(namesIn(parsed("(B, (C, A)) * D * B"))).toEqual(["B", "C", "A", "D", "B"]);
  });
});
