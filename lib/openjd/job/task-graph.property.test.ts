/**
 * The task graph against the contract's meaning, by brute force: random small jobs (INT, STRING
 * and chunked parameters, products and associations, offsets, lists, ranges and whole ranges,
 * allOf and anyOf, self-dependencies) are created through the normal path, and a reference
 * that enumerates every pair of downstream and upstream frames must find the same requirements
 * per task, refuse exactly the jobs that would deadlock, and agree on which tasks are ready
 * after every success of a random completion order.
 *
 * Random choices come from a tape of numbers, so fast-check shrinks a failure to a small job.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IntRangeExpr } from "../range-expr";
import { checkTemplateText } from "../template";
import { createJob } from "./create-job";
import { stepByIndex } from "./task-graph-test-support";
import { TaskReadiness } from "./task-readiness";
import type { Job } from "./types";

class Tape {
  #at = 0;
  constructor(private readonly values: readonly number[]) {}
  pick(n: number): number {
    return (this.values[this.#at++] ?? 0) % n;
  }
}

type Value = number | string;
interface Param {
  name: string;
  type: "INT" | "STRING" | "CHUNK[INT]";
  values: Value[];
  chunk?: { size: number; contiguous: boolean };
}
type Entry = { name: string } & (
  { kind: "offset"; source: string; k: number; list: boolean } | { kind: "same"; source: string } | { kind: "list"; values: Value[] } | { kind: "range"; from: number; to: number } | { kind: "whole" }
);
interface Dependency {
  upstream: number;
  mode: "allOf" | "anyOf" | null;
  entries: Entry[];
}
interface Step {
  name: string;
  params: Param[];
  association: boolean;
  dependencies: Dependency[];
}

const isInt = (p: Param) => p.type !== "STRING";

function randomJob(tape: Tape): Step[] {
  const steps: Step[] = [];
  const count = 1 + tape.pick(3);
  for (let i = 0; i < count; i++) {
    const names = ["X", "Y", "Z"].slice(tape.pick(3));
    const params: Param[] = names.slice(0, [1, 1, 2, 2, 0][tape.pick(5)]).map((name) => {
      if (tape.pick(3) === 0) return { name, type: "STRING", values: Array.from({ length: 1 + tape.pick(3) }, () => "abc"[tape.pick(3)]!) };
      return { name, type: "INT", values: Array.from({ length: 1 + tape.pick(4) }, () => tape.pick(4)) };
    });
    const intParam = params.find(isInt);
    if (intParam && tape.pick(3) === 0) {
      intParam.type = "CHUNK[INT]";
      intParam.values = [...new Set(intParam.values)];
      intParam.chunk = { size: 1 + tape.pick(3), contiguous: tape.pick(2) === 0 };
    }
    const association = params.length === 2 && params[0]!.values.length === params[1]!.values.length && !params.some((p) => p.chunk) && tape.pick(2) === 0;
    const step: Step = { name: `S${i}`, params, association, dependencies: [] };
    for (let d = i === 0 ? tape.pick(2) : 1 + tape.pick(2); d > 0; d--) {
      // On itself a quarter of the time (always for the first step), else on an earlier step.
      const upstream = i === 0 || tape.pick(4) === 0 ? i : tape.pick(i);
      if (step.dependencies.some((x) => x.upstream === upstream)) continue;
      const up = upstream === i ? step : steps[upstream]!;
      const mode = up.params.length === 0 ? null : (([null, "allOf", "anyOf"] as const)[upstream === i ? 1 + tape.pick(2) : tape.pick(5) % 3] ?? null);
      if (mode === null && upstream === i) continue;
      const named = up.params.filter(() => tape.pick(2) === 0);
      const entries = mode === null ? [] : (named.length > 0 ? named : up.params.slice(0, 1)).map((p) => randomEntry(tape, p, params));
      step.dependencies.push({ upstream, mode, entries });
    }
    steps.push(step);
  }
  return steps;
}

function randomEntry(tape: Tape, up: Param, own: readonly Param[]): Entry {
  const sources = own.filter((p) => isInt(p) === isInt(up));
  const source = sources[tape.pick(Math.max(sources.length, 1))];
  const name = up.name;
  const kind = tape.pick(5);
  if (kind <= 1 && source) return isInt(up) ? { name, kind: "offset", source: source.name, k: tape.pick(3) - 1, list: tape.pick(2) === 0 } : { name, kind: "same", source: source.name };
  if (kind === 2) return { name, kind: "list", values: Array.from({ length: 1 + tape.pick(2) }, () => (isInt(up) ? tape.pick(5) - 1 : "abcd"[tape.pick(4)]!)) };
  if (kind === 3 && isInt(up)) {
    const from = tape.pick(4);
    return { name, kind: "range", from, to: from + tape.pick(3) };
  }
  return { name, kind: "whole" };
}

function templateText(steps: readonly Step[]): string {
  const range = (e: Entry, upstream: string): unknown => {
    switch (e.kind) {
      case "offset": {
        const text = `{{Task.Param.${e.source}${e.k < 0 ? ` - ${-e.k}` : ` + ${e.k}`}}}`;
        return e.list ? [text] : text;
      }
      case "same":
        return `{{Task.Param.${e.source}}}`;
      case "list":
        return e.values;
      case "range":
        return e.from === e.to ? String(e.from) : `${e.from}-${e.to}`;
      case "whole":
        return `{{Step.${upstream}.ParameterSpace.${e.name}.Range}}`;
    }
  };
  return JSON.stringify({
    specificationVersion: "jobtemplate-2023-09",
    extensions: ["TASK_DEPENDENCIES", "EXPR", "TASK_CHUNKING"],
    name: "P",
    steps: steps.map((s) => ({
      name: s.name,
      ...(s.params.length > 0
        ? {
            parameterSpace: {
              taskParameterDefinitions: s.params.map((p) => ({
                name: p.name,
                type: p.type,
                range: p.values,
                ...(p.chunk ? { chunks: { defaultTaskCount: p.chunk.size, rangeConstraint: p.chunk.contiguous ? "CONTIGUOUS" : "NONCONTIGUOUS" } } : {}),
              })),
              ...(s.association ? { combination: `(${s.params.map((p) => p.name).join(", ")})` } : {}),
            },
          }
        : {}),
      ...(s.dependencies.length > 0
        ? {
            dependencies: s.dependencies.map((d) => {
              const upstream = steps[d.upstream]!.name;
              if (d.mode === null) return { dependsOn: upstream };
              return { dependsOn: upstream, dependsOnSubspace: { [d.mode]: d.entries.map((e) => ({ name: e.name, range: range(e, upstream) })) } };
            }),
          }
        : {}),
      script: { actions: { onRun: { command: "echo" } } },
    })),
  });
}

/** The reference: every task's frames and what each needs, by enumerating all frame pairs. */
interface Frame {
  row: number;
  values: Record<string, string>;
}
interface Need {
  upstream: number;
  allOf: Set<number>;
  groups: Set<number>[];
}

function framesOf(job: Job, stepIndex: number): Frame[] {
  const space = stepByIndex(job, stepIndex).parameterSpace;
  const frames: Frame[] = [];
  for (let row = 0; row < space.count; row++) {
    const set = space.at(row);
    const chunked = Object.values(set).find((v) => v.type === "CHUNK[INT]");
    const plain = Object.fromEntries(Object.entries(set).map(([k, v]) => [k, v.value]));
    if (!chunked) frames.push({ row, values: plain });
    else {
      const name = Object.keys(set).find((k) => set[k] === chunked)!;
      for (const f of IntRangeExpr.parse(chunked.value).values()) frames.push({ row, values: { ...plain, [name]: f.toString() } });
    }
  }
  return frames;
}

function referenceNeeds(steps: readonly Step[], job: Job): Need[][][] {
  const frames = steps.map((_, i) => framesOf(job, i));
  const rowCounts = steps.map((_, i) => stepByIndex(job, i).parameterSpace.count);
  return steps.map((step, s) =>
    Array.from({ length: rowCounts[s]! }, (_, row) =>
      step.dependencies.map((d): Need => {
        const need: Need = { upstream: d.upstream, allOf: new Set(), groups: [] };
        if (d.mode === null) {
          for (let u = 0; u < rowCounts[d.upstream]!; u++) need.allOf.add(u);
          return need;
        }
        const up = steps[d.upstream]!;
        for (const frame of frames[s]!.filter((f) => f.row === row)) {
          const matched = new Set(frames[d.upstream]!.filter((u) => d.entries.every((e) => accepts(e, up, frame, u))).map((u) => u.row));
          if (d.mode === "allOf") for (const u of matched) need.allOf.add(u);
          else if (matched.size > 0) need.groups.push(matched);
        }
        return need;
      }),
    ),
  );
}

function accepts(entry: Entry, up: Step, frame: Frame, candidate: Frame): boolean {
  const value = candidate.values[entry.name]!;
  const param = up.params.find((p) => p.name === entry.name)!;
  const same = (v: Value) => (isInt(param) ? Number(value) === Number(v) : value === v);
  switch (entry.kind) {
    case "offset":
      return Number(value) === Number(frame.values[entry.source]) + entry.k;
    case "same":
      return value === frame.values[entry.source];
    case "list":
      return entry.values.some(same);
    case "range":
      return Number(value) >= entry.from && Number(value) <= entry.to;
    case "whole":
      return param.values.some(same);
  }
}

function referenceReady(needs: Need[][][], done: readonly Set<number>[], s: number, row: number): boolean {
  if (done[s]!.has(row)) return false;
  return needs[s]![row]!.every((n) => [...n.allOf].every((u) => done[n.upstream]!.has(u)) && n.groups.every((g) => [...g].some((u) => done[n.upstream]!.has(u))));
}

function deadlocks(needs: Need[][][]): boolean {
  const done = needs.map(() => new Set<number>());
  for (let progress = true; progress;) {
    progress = false;
    needs.forEach((rows, s) =>
      rows.forEach((_, row) => {
        if (!referenceReady(needs, done, s, row)) return;
        done[s]!.add(row);
        progress = true;
      }),
    );
  }
  return needs.some((rows, s) => done[s]!.size < rows.length);
}

/** Per downstream task and upstream step: the tasks needed by all-of, and the distinct any-of groups (a task never in its own). */
function normalized(needs: Need[][][]): string[] {
  const lines: string[] = [];
  needs.forEach((rows, s) =>
    rows.forEach((deps, row) => {
      const byUp = new Map<number, { allOf: Set<number>; groups: Set<string> }>();
      for (const n of deps) {
        const entry = byUp.get(n.upstream) ?? { allOf: new Set<number>(), groups: new Set<string>() };
        byUp.set(n.upstream, entry);
        for (const u of n.allOf) entry.allOf.add(u);
        for (const g of n.groups) entry.groups.add(JSON.stringify([...g].filter((u) => n.upstream !== s || u !== row).sort((a, b) => a - b)));
      }
      for (const [up, { allOf, groups }] of [...byUp].sort((a, b) => a[0] - b[0])) {
        if (allOf.size === 0 && groups.size === 0) continue;
        lines.push(`${s}:${row} <- ${up}: all ${JSON.stringify([...allOf].sort((a, b) => a - b))} any ${[...groups].sort().join(" ")}`);
      }
    }),
  );
  return lines;
}

/** The same view read from the task graph. */
function graphNeeds(job: Job): Need[][][] {
  const graph = job.taskGraph!;
  const counts = job.template.steps.map((_, i) => stepByIndex(job, i).parameterSpace.count);
  const needs: Need[][][] = counts.map((count) => Array.from({ length: count }, () => []));
  const needFor = (s: number, row: number, upstream: number) => {
    const list = needs[s]![row]!;
    const found = list.find((n) => n.upstream === upstream);
    if (found) return found;
    const need: Need = { upstream, allOf: new Set(), groups: [] };
    list.push(need);
    return need;
  };
  graph.steps.forEach((deps, s) =>
    deps.forEach((d) => {
      if (d.kind !== "step" && d.kind !== "step-any") return;
      const all = new Set(Array.from({ length: counts[d.upstreamStep]! }, (_, u) => u));
      for (let row = 0; row < counts[s]!; row++) {
        if (d.kind === "step") for (const u of all) needFor(s, row, d.upstreamStep).allOf.add(u);
        else needFor(s, row, d.upstreamStep).groups.push(all);
      }
    }),
  );
  const groups = new Map<number, Set<number>>();
  const { edges } = graph;
  for (let e = 0; e < edges.length; e++) {
    const need = needFor(edges.downStep[e]!, edges.downTask[e]!, edges.upStep[e]!);
    const group = edges.group[e]!;
    if (group === -1) need.allOf.add(edges.upTask[e]!);
    else {
      let members = groups.get(group);
      if (!members) {
        groups.set(group, (members = new Set()));
        need.groups.push(members);
      }
      members.add(edges.upTask[e]!);
    }
  }
  return needs;
}

describe("the task graph against brute force", () => {
  it("finds the same requirements, refuses exactly the deadlocks, and agrees on readiness", () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { minLength: 60, maxLength: 120 }), fc.array(fc.nat(1000), { maxLength: 80 }), (choices, order) => {
        const steps = randomJob(new Tape(choices));
        const text = templateText(steps);
        const checked = checkTemplateText(text, "json", "job");
        if (checked.template?.kind !== "job") throw new Error(`the generator wrote an invalid template: ${JSON.stringify(checked.errors)}\n${text}`);
        const created = createJob({ template: checked.template.template });
        if (!created.ok) {
          // Only a deadlock may refuse such a job; the reference must find one too.
          for (const error of created.errors) expect(error.message).toMatch(/wait for each other in a cycle|would wait for itself/);
          const shell = createJob({ template: { ...checked.template.template, steps: checked.template.template.steps.map((s) => ({ ...s, dependencies: [], taskDependencies: [] })) } });
          if (!shell.ok) throw new Error("the job without dependencies failed");
          expect(deadlocks(referenceNeeds(steps, shell.job))).toBe(true);
          refused++;
          return;
        }
        const job = created.job;
        const needs = referenceNeeds(steps, job);
        expect(deadlocks(needs)).toBe(false);
        accepted++;
        if (!job.taskGraph) return void expect(steps.some((s) => s.dependencies.some((d) => d.mode !== null))).toBe(false);
        expect(normalized(graphNeeds(job))).toEqual(normalized(needs));
        const counts = steps.map((_, i) => stepByIndex(job, i).parameterSpace.count);
        const readiness = new TaskReadiness(job.taskGraph, counts);
        const done = steps.map(() => new Set<number>());
        const tape = new Tape(order);
        for (;;) {
          const ours: string[] = [];
          const theirs: string[] = [];
          counts.forEach((count, s) => {
            for (let row = 0; row < count; row++) {
              if (readiness.isReady(s, row)) ours.push(`${s}:${row}`);
              if (referenceReady(needs, done, s, row)) theirs.push(`${s}:${row}`);
            }
          });
          expect(ours).toEqual(theirs);
          if (ours.length === 0) break;
          const [s, row] = ours[tape.pick(ours.length)]!.split(":").map(Number) as [number, number];
          readiness.succeed(s, row);
          done[s]!.add(row);
        }
        expect(done.every((d, s) => d.size === counts[s])).toBe(true);
      }),
      { numRuns: 800 },
    );
    // The generator must reach both outcomes, or the property says little.
    expect(accepted).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(50);
  });
});
