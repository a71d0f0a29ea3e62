import { describe, expect, it } from "vitest";
import { parseCombination, type CombinationNode } from "./combination-expr";
import { StepParameterSpace, type SpaceParameter, type TaskParameterSet, type TaskParameterType } from "./parameter-space";
import { IntRangeExpr } from "./range-expr";

function combination(text: string): CombinationNode {
  const result = parseCombination(text);
  if (!result.ok) throw new Error(result.message);
  return result.node;
}

function space(parameters: readonly SpaceParameter[], text?: string): StepParameterSpace {
  const result = StepParameterSpace.create(parameters, text === undefined ? undefined : combination(text));
  if (!result.ok) throw new Error(result.message);
  return result.space;
}

function failure(parameters: readonly SpaceParameter[], text?: string): string {
  const result = StepParameterSpace.create(parameters, text === undefined ? undefined : combination(text));
  if (result.ok) throw new Error("expected create() to fail");
  return result.message;
}

const list = (name: string, values: readonly (string | number)[], type: TaskParameterType = "INT"): SpaceParameter => ({
  name,
  type,
  values: values.map(String),
});
const expr = (name: string, text: string): SpaceParameter => ({ name, type: "INT", values: IntRangeExpr.parse(text) });

/** Compact rows for readable expectations: values in the order of `names`. */
const rows = (sets: Iterable<TaskParameterSet>, names: readonly string[]): string[][] => [...sets].map((set) => names.map((name) => set[name]?.value ?? "?"));

/** Independent eager expansion (nested loops and zips) to check the lazy arithmetic against. */
function expand(node: CombinationNode, parameters: readonly SpaceParameter[]): Record<string, string>[] {
  switch (node.kind) {
    case "name": {
      const parameter = parameters.find((p) => p.name === node.name)!;
      const values = parameter.values instanceof IntRangeExpr ? [...parameter.values.values()].map(String) : parameter.values;
      return values.map((value) => ({ [node.name]: value }));
    }
    case "product":
      return node.factors.reduce<Record<string, string>[]>((outer, factor) => outer.flatMap((left) => expand(factor, parameters).map((right) => ({ ...left, ...right }))), [{}]);
    case "association": {
      const members = node.members.map((member) => expand(member, parameters));
      return members[0]!.map((_, i) => Object.assign({}, ...members.map((member) => member[i])));
    }
  }
}

const A = list("A", [3, 2, 1]);
const B = list("B", [1, 2]);
const C = list("C", [10, 11]);

describe("iteration order (reference behaviour §2.7)", () => {
  it.each<[string, readonly SpaceParameter[], string | undefined, string[], string[][]]>([
    [
      "A * (B,C)",
      [A, B, C],
      "A * (B,C)",
      ["A", "B", "C"],
      [
        ["3", "1", "10"],
        ["3", "2", "11"],
        ["2", "1", "10"],
        ["2", "2", "11"],
        ["1", "1", "10"],
        ["1", "2", "11"],
      ],
    ],
    [
      "(B,C) * A",
      [A, B, C],
      "(B,C) * A",
      ["A", "B", "C"],
      [
        ["3", "1", "10"],
        ["2", "1", "10"],
        ["1", "1", "10"],
        ["3", "2", "11"],
        ["2", "2", "11"],
        ["1", "2", "11"],
      ],
    ],
    [
      "range expression 5,1-3 × list, default product",
      [expr("A", "5,1-3"), list("B", ["x", "y"], "STRING")],
      undefined,
      ["A", "B"],
      [
        ["1", "x"],
        ["1", "y"],
        ["2", "x"],
        ["2", "y"],
        ["3", "x"],
        ["3", "y"],
        ["5", "x"],
        ["5", "y"],
      ],
    ],
    [
      "spec example (A,B) * C",
      [list("A", [1, 2, 3]), list("B", [10, 11, 12]), list("C", [20, 21])],
      "(A,B) * C",
      ["A", "B", "C"],
      [
        ["1", "10", "20"],
        ["1", "10", "21"],
        ["2", "11", "20"],
        ["2", "11", "21"],
        ["3", "12", "20"],
        ["3", "12", "21"],
      ],
    ],
    ["lists keep their written order, duplicates included", [list("S", ["b", "a", "b"], "STRING")], undefined, ["S"], [["b"], ["a"], ["b"]]],
  ])("%s", (_, parameters, text, names, expected) => {
    const s = space(parameters, text);
    expect(rows(s, names)).toEqual(expected);
    expect(s.count).toBe(expected.length);
    expect(s.taskCount).toBe(expected.length);
    expect(s.chunkParameter).toBeNull();
  });

  it("types each value with its parameter's type", () => {
    const s = space([expr("Frame", "1-2"), list("Cam", ["/a"], "PATH"), list("Scale", ["0.5"], "FLOAT")]);
    expect(s.at(1)).toEqual({
      Frame: { type: "INT", value: "2" },
      Cam: { type: "PATH", value: "/a" },
      Scale: { type: "FLOAT", value: "0.5" },
    });
    expect(s.names).toEqual(["Frame", "Cam", "Scale"]);
  });
});

describe("random access agrees with an eager expansion", () => {
  const P = list("P", ["p0", "p1"], "STRING");
  const Q = list("Q", ["q0", "q1", "q2"], "STRING");
  const R = expr("R", "10-60:10");
  const S = list("S", ["s0", "s1", "s2", "s3", "s4", "s5"], "STRING");
  const T = list("T", ["t0", "t1"], "STRING");
  const U = list("U", ["u0", "u1"], "STRING");
  it.each<[string, readonly SpaceParameter[]]>([
    ["P * Q * R", [P, Q, R]],
    ["R * P * Q", [P, Q, R]],
    ["(P * Q, R)", [P, Q, R]],
    ["(R, (P * Q, S))", [P, Q, R, S]],
    ["(P, T) * (S, R * U)", [P, S, expr("R", "1-3"), T, U]],
    ["T * (P * Q, S) * U", [P, Q, S, T, U]],
    ["((P, T), U) * Q", [P, Q, T, U]],
  ])("%s", (text, parameters) => {
    const s = space(parameters, text);
    const expected = expand(combination(text), parameters);
    const got = [...s].map((set) => Object.fromEntries(Object.entries(set).map(([k, v]) => [k, v.value])));
    expect(got).toEqual(expected);
    expect(s.count).toBe(expected.length);
    for (let i = expected.length - 1; i >= 0; i -= 3) {
      expect(Object.fromEntries(Object.entries(s.at(i)).map(([k, v]) => [k, v.value]))).toEqual(expected[i]);
      expect(s.contains(s.at(i))).toBe(true);
    }
    expect(() => s.at(expected.length)).toThrow(RangeError);
    expect(() => s.at(-1)).toThrow(RangeError);
    expect(() => s.at(1.5)).toThrow(RangeError);
  });
});

describe("huge spaces", () => {
  it("counts and indexes without materializing", () => {
    const started = performance.now();
    const s = space([expr("Frame", "1-9999999999"), list("Cam", ["a", "b", "c"], "STRING")]);
    expect(s.taskCount).toBe(29999999997);
    expect(s.count).toBe(29999999997);
    expect(rows([s.at(s.count - 1), s.at(4)], ["Frame", "Cam"])).toEqual([
      ["9999999999", "c"],
      ["2", "b"],
    ]);
    expect(s.contains({ Frame: { type: "INT", value: "123456789" }, Cam: { type: "STRING", value: "b" } })).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("contains", () => {
  const s = space([A, B, C], "A * (B,C)");
  const set = (a: string, b: string, c: string, type: TaskParameterType = "INT"): TaskParameterSet => ({
    A: { type, value: a },
    B: { type: "INT", value: b },
    C: { type: "INT", value: c },
  });
  it.each<[string, TaskParameterSet, boolean]>([
    ["an existing combination", set("2", "2", "11"), true],
    ["associated values out of step", set("2", "1", "11"), false],
    ["an unknown value", set("4", "1", "10"), false],
    ["a different spelling", set("02", "1", "10"), false],
    ["the wrong type", set("2", "1", "10", "STRING"), false],
    ["a missing parameter", { A: { type: "INT", value: "2" }, B: { type: "INT", value: "1" } }, false],
    ["an extra parameter", { ...set("2", "1", "10"), D: { type: "INT", value: "1" } }, false],
  ])("%s → %s", (_, candidate, expected) => {
    expect(s.contains(candidate)).toBe(expected);
  });

  it.each<[string, boolean]>([
    ["7", true],
    ["007", false],
    ["8", false],
    ["x", false],
  ])("range-expression values: %s → %s", (value, expected) => {
    expect(space([expr("F", "1-9:2")]).contains({ F: { type: "INT", value } })).toBe(expected);
  });

  it("finds repeated list values in associations", () => {
    const r = space([list("X", ["a", "b", "a"], "STRING"), list("Y", ["1", "2", "3"])], "(X, Y)");
    expect(r.contains({ X: { type: "STRING", value: "a" }, Y: { type: "INT", value: "3" } })).toBe(true);
    expect(r.contains({ X: { type: "STRING", value: "a" }, Y: { type: "INT", value: "2" } })).toBe(false);
  });
});

describe("association lengths", () => {
  it.each<[string, readonly SpaceParameter[], string | null]>([
    ["(A, B)", [list("A", [1, 2, 3]), list("B", [1, 2])], "association (A, B) has members of lengths 3 and 2"],
    ["(A, B * C)", [list("A", [1, 2, 3, 4, 5, 6]), list("B", [1, 2]), list("C", [1, 2, 3])], null],
    ["(A, B * C)", [list("A", [1, 2]), list("B", [1, 2]), list("C", [1, 2, 3])], "association (A, B * C) has members of lengths 2 and 6"],
    ["((A, B), C)", [list("A", [1, 2]), list("B", [3, 4]), list("C", [5])], "association ((A, B), C) has members of lengths 2 and 1"],
    ["(A, B, C)", [expr("A", "1-3"), list("B", [1, 2, 3]), expr("C", "7-9")], null],
    ["(A, B) * (C, D)", [list("A", [1]), list("B", [2]), list("C", [1, 2]), list("D", [1])], "association (C, D) has members of lengths 2 and 1"],
  ])("%s", (text, parameters, problem) => {
    const result = StepParameterSpace.create(parameters, combination(text));
    if (problem === null) expect(result.ok).toBe(true);
    else expect(result.ok ? "accepted" : result.message).toContain(problem);
  });
});

describe("create rejects", () => {
  const chunked = (name: string, text = "1-4"): SpaceParameter => ({
    name,
    type: "CHUNK[INT]",
    values: IntRangeExpr.parse(text),
    chunks: { defaultTaskCount: 2, targetRuntimeSeconds: 0, rangeConstraint: "CONTIGUOUS" },
  });
  it.each<[string, readonly SpaceParameter[], string | undefined, RegExp]>([
    ["an unknown name", [A], "A * Z", /'Z' in the combination is not a task parameter/],
    ["a missing name", [A, B], "A", /parameter 'B' is missing/],
    ["a duplicated definition", [A, A], undefined, /'A' is defined twice/],
    ["two CHUNK[INT] parameters", [chunked("F"), chunked("G")], undefined, /one CHUNK\[INT\] parameter, found F, G/],
    ["a chunked parameter in an association", [chunked("F"), B], "(F, B)", /CHUNK\[INT\] parameter 'F' cannot be inside an association/],
    ["missing chunk settings", [{ name: "F", type: "CHUNK[INT]", values: ["1"] }], undefined, /needs chunk settings/],
    ["a zero chunk size", [{ ...chunked("F"), chunks: { defaultTaskCount: 0, targetRuntimeSeconds: 0, rangeConstraint: "CONTIGUOUS" } }], undefined, /defaultTaskCount of at least 1, got 0/],
    ["a non-integer chunk value", [{ ...chunked("F"), values: ["1", "x"] }], undefined, /not an integer: 'x'/],
    ["an empty list", [list("A", [])], undefined, /'A' has no values/],
    ["a range expression for a STRING", [{ name: "S", type: "STRING", values: IntRangeExpr.parse("1-3") }], undefined, /needs a list/],
  ])("%s", (_, parameters, text, message) => {
    expect(failure(parameters, text)).toMatch(message);
  });
});

describe("empty space", () => {
  it.each([
    ["empty()", StepParameterSpace.empty()],
    ["create([])", space([])],
  ])("%s is one task with no parameters", (_, s) => {
    expect(s.count).toBe(1);
    expect(s.taskCount).toBe(1);
    expect(s.names).toEqual([]);
    expect(s.at(0)).toEqual({});
    expect([...s]).toEqual([{}]);
    expect(s.contains({})).toBe(true);
    expect(s.contains({ A: { type: "INT", value: "1" } })).toBe(false);
    expect(() => s.at(1)).toThrow(RangeError);
  });
});

describe("chunked spaces", () => {
  const frames = (values: string | string[], defaultTaskCount: number, rangeConstraint: "CONTIGUOUS" | "NONCONTIGUOUS"): SpaceParameter => ({
    name: "Frame",
    type: "CHUNK[INT]",
    values: typeof values === "string" ? IntRangeExpr.parse(values) : values,
    chunks: { defaultTaskCount, targetRuntimeSeconds: 0, rangeConstraint },
  });
  const cam = list("Cam", ["a", "b"], "STRING");
  const light = list("Light", ["k", "f"], "STRING");

  it.each<[string, readonly SpaceParameter[], string | undefined, number, string[][]]>([
    [
      "chunks outermost by default",
      [frames("1-8", 3, "CONTIGUOUS"), cam],
      undefined,
      16,
      [
        ["1-3", "a"],
        ["1-3", "b"],
        ["4-6", "a"],
        ["4-6", "b"],
        ["7-8", "a"],
        ["7-8", "b"],
      ],
    ],
    [
      "chunks innermost",
      [frames("1-8", 3, "NONCONTIGUOUS"), cam],
      "Cam * Frame",
      16,
      [
        ["1-3", "a"],
        ["4-6", "a"],
        ["7,8", "a"],
        ["1-3", "b"],
        ["4-6", "b"],
        ["7,8", "b"],
      ],
    ],
    [
      "chunks times an association",
      [frames("1-12", 5, "CONTIGUOUS"), cam, light],
      "(Cam, Light) * Frame",
      24,
      [
        ["1-4", "a", "k"],
        ["5-8", "a", "k"],
        ["9-12", "a", "k"],
        ["1-4", "b", "f"],
        ["5-8", "b", "f"],
        ["9-12", "b", "f"],
      ],
    ],
    ["a list range is sorted before chunking", [frames(["5", "1", "3", "2"], 2, "CONTIGUOUS")], undefined, 4, [["1-2"], ["3-3"], ["5-5"]]],
    ["one chunk for a small range", [frames("1-5", 100, "CONTIGUOUS")], undefined, 5, [["1-5"]]],
  ])("%s", (_, parameters, text, taskCount, expected) => {
    const s = space(parameters, text);
    const names = parameters.map((p) => p.name);
    expect(rows(s, names)).toEqual(expected);
    expect(s.count).toBe(expected.length);
    expect(s.taskCount).toBe(taskCount);
    expect(s.chunkParameter).toBe("Frame");
    expect(s.at(0).Frame?.type).toBe("CHUNK[INT]");
  });

  it.each<[string, "CONTIGUOUS" | "NONCONTIGUOUS", string, boolean]>([
    ["laid-out chunk", "CONTIGUOUS", "4-6", true],
    ["resized contiguous chunk", "CONTIGUOUS", "2-5", true],
    ["single-frame chunk", "CONTIGUOUS", "8-8", true],
    ["contiguous chunk written as one value", "CONTIGUOUS", "8", false],
    ["contiguous chunk across a gap", "CONTIGUOUS", "8-10", false],
    ["contiguous chunk with a list", "CONTIGUOUS", "1,2", false],
    ["noncontiguous subset", "NONCONTIGUOUS", "1,3,10", true],
    ["noncontiguous single value", "NONCONTIGUOUS", "8", true],
    ["noncontiguous value outside", "NONCONTIGUOUS", "1,9", false],
    ["not a range expression", "NONCONTIGUOUS", "1-", false],
    ["huge range", "NONCONTIGUOUS", "1-9999999999", false],
  ])("contains a %s (%s %s) → %s", (_, constraint, chunk, expected) => {
    const s = space([frames("1-8,10", 3, constraint), cam]);
    expect(s.contains({ Frame: { type: "CHUNK[INT]", value: chunk }, Cam: { type: "STRING", value: "a" } })).toBe(expected);
  });

  it("rejects an INT-typed value for the chunked parameter", () => {
    const s = space([frames("1-8", 3, "CONTIGUOUS")]);
    expect(s.contains({ Frame: { type: "INT", value: "1-3" } })).toBe(false);
  });
});

describe("parameter names", () => {
  it("keeps '__proto__' as an ordinary parameter (it is a valid identifier)", () => {
    const created = StepParameterSpace.create([{ name: "__proto__", type: "STRING", values: ["a", "b"] }]);
    if (!created.ok) throw new Error(created.message);
    const first = created.space.at(0);
    expect(Object.keys(first)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(first, "__proto__")?.value).toEqual({ type: "STRING", value: "a" });
  });
});
