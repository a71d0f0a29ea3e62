/**
 * A step's parameter space as the task-dependency resolver reads it (TASK_DEPENDENCIES §2): each
 * parameter's values with the keys they match by, and the combination tree over two index
 * spaces at once — frames (a chunked parameter's single values, what dependencies are decided
 * over) and rows (the step's tasks, a chunk being one, what edges connect). Everything is
 * materialized per parameter (at most 1,024 values each), never per task.
 */
import { chunkValues } from "../chunking";
import { defaultCombination, type CombinationNode } from "../combination-expr";
import { parseFloatText, parseIntText, type Parsed } from "../numbers";
import type { SpaceParameter, TaskParameterType } from "../parameter-space";
import { IntRangeExpr } from "../range-expr";
import type { ChunkingInfo } from "./types";

export interface SpaceLeaf {
  name: string;
  /** CHUNK[INT] is matched and evaluated as INT: one frame at a time. */
  type: TaskParameterType;
  /** Value texts in range order (a chunked parameter's frames). */
  texts: readonly string[];
  /** The integers of an INT or CHUNK[INT] parameter, by value index; null for other types. */
  ints: readonly bigint[] | null;
  /** Row-space length: the chunk count for the chunked parameter, otherwise the value count. */
  rowLength: number;
  /** Value index → row-space index (its chunk); null when they are the same. */
  chunkOf: Int32Array | null;
  /** Row-space index → value indices (the frames of a chunk); null when they are the same. */
  framesOf: readonly (readonly number[])[] | null;
  /** How a row-space index is shown ("1-5" for a chunk). */
  rowTexts: readonly string[];
  /** Matching key → row-space indices, ascending. */
  rowsByKey: ReadonlyMap<string, readonly number[]>;
}

export type SpaceTree =
  { kind: "leaf"; leaf: number; rowLength: number } | { kind: "product"; factors: SpaceTree[]; rowLength: number } | { kind: "association"; members: SpaceTree[]; rowLength: number };

export interface TaskSpace {
  leaves: SpaceLeaf[];
  leafByName: ReadonlyMap<string, number>;
  /** Null for a step without a parameter space (one task). */
  tree: SpaceTree | null;
  rowCount: number;
  /** The chunked parameter's leaf, or -1. */
  chunkLeaf: number;
}

/** The key a value is matched by: INT as its integer, FLOAT as its number, STRING and PATH as written. */
export function valueKey(type: TaskParameterType, text: string): Parsed<string> {
  switch (type) {
    case "INT":
    case "CHUNK[INT]": {
      const parsed = parseIntText(text);
      return parsed.ok ? { ok: true, value: parsed.value.toString() } : parsed;
    }
    case "FLOAT": {
      const parsed = parseFloatText(text);
      return parsed.ok ? { ok: true, value: String(parsed.value.value) } : parsed;
    }
    case "STRING":
    case "PATH":
      return { ok: true, value: text };
  }
}

export function compileTaskSpace(parameters: readonly SpaceParameter[], combination: CombinationNode | null, chunking: ChunkingInfo | null): TaskSpace {
  const leaves = parameters.map((p) => compileLeaf(p, chunking));
  const leafByName = new Map(leaves.map((leaf, i) => [leaf.name, i]));
  const node = combination ?? (parameters.length > 0 ? defaultCombination(parameters.map((p) => p.name)) : null);
  const tree = node ? compileTree(node, leafByName, leaves) : null;
  return { leaves, leafByName, tree, rowCount: tree?.rowLength ?? 1, chunkLeaf: leaves.findIndex((l) => l.chunkOf !== null) };
}

function compileLeaf(parameter: SpaceParameter, chunking: ChunkingInfo | null): SpaceLeaf {
  const values = parameter.values;
  const texts = values instanceof IntRangeExpr ? Array.from(values.values(), (v) => v.toString()) : [...values];
  const isInt = parameter.type === "INT" || parameter.type === "CHUNK[INT]";
  const ints = isInt ? texts.map((t) => BigInt(t)) : null;
  const keys = texts.map((t) => {
    const key = valueKey(parameter.type, t);
    return key.ok ? key.value : t;
  });
  let chunkOf: Int32Array | null = null;
  let framesOf: number[][] | null = null;
  let rowTexts: readonly string[] = texts;
  if (parameter.type === "CHUNK[INT]" && chunking && ints) {
    // The same layout the parameter space uses (chunkValues over the frames), mapped back to frames.
    rowTexts = chunkValues(ints, chunking);
    const indexOf = new Map(ints.map((v, i) => [v, i]));
    chunkOf = new Int32Array(texts.length);
    framesOf = rowTexts.map((chunk, c) => {
      const frames = Array.from(IntRangeExpr.parse(chunk).values(), (v) => indexOf.get(v) ?? -1).sort((a, b) => a - b);
      for (const f of frames) chunkOf![f] = c;
      return frames;
    });
  }
  const rowsByKey = new Map<string, number[]>();
  keys.forEach((key, i) => {
    const row = chunkOf ? chunkOf[i]! : i;
    const rows = rowsByKey.get(key);
    if (!rows) rowsByKey.set(key, [row]);
    else if (!rows.includes(row)) rows.push(row);
  });
  return { name: parameter.name, type: parameter.type, texts, ints, rowLength: rowTexts.length, chunkOf, framesOf, rowTexts, rowsByKey };
}

function compileTree(node: CombinationNode, leafByName: ReadonlyMap<string, number>, leaves: readonly SpaceLeaf[]): SpaceTree {
  switch (node.kind) {
    case "name": {
      const leaf = leafByName.get(node.name)!;
      return { kind: "leaf", leaf, rowLength: leaves[leaf]!.rowLength };
    }
    case "product": {
      const factors = node.factors.map((f) => compileTree(f, leafByName, leaves));
      return { kind: "product", factors, rowLength: factors.reduce((n, f) => n * f.rowLength, 1) };
    }
    case "association": {
      const members = node.members.map((m) => compileTree(m, leafByName, leaves));
      return { kind: "association", members, rowLength: members[0]?.rowLength ?? 1 };
    }
  }
}

/** Fills `out[leaf]` with each leaf's row-space index for `row` (row-major, right-most fastest). */
export function rowLeafIndices(space: TaskSpace, row: number, out: Int32Array): void {
  if (space.tree) fill(space.tree, row, out);
}

function fill(node: SpaceTree, index: number, out: Int32Array): void {
  switch (node.kind) {
    case "leaf":
      out[node.leaf] = index;
      return;
    case "product": {
      let rest = index;
      for (let i = node.factors.length - 1; i >= 0; i--) {
        const factor = node.factors[i]!;
        fill(factor, rest % factor.rowLength, out);
        rest = Math.floor(rest / factor.rowLength);
      }
      return;
    }
    case "association":
      for (const member of node.members) fill(member, index, out);
  }
}

/**
 * The rows whose leaves all lie in their constraint (row-space indices per leaf, ascending and
 * unique; null = unconstrained): null when that is every row, else the rows ascending. Costs the
 * size of the answer, never the size of the space.
 */
export function matchRows(space: TaskSpace, constraints: readonly (readonly number[] | null)[]): readonly number[] | null {
  return space.tree ? match(space.tree, constraints) : null;
}

function match(node: SpaceTree, constraints: readonly (readonly number[] | null)[]): readonly number[] | null {
  switch (node.kind) {
    case "leaf": {
      const own = constraints[node.leaf] ?? null;
      return own !== null && own.length === node.rowLength ? null : own;
    }
    case "product": {
      const parts = node.factors.map((f) => match(f, constraints));
      if (parts.every((p) => p === null)) return null;
      if (parts.some((p) => p !== null && p.length === 0)) return [];
      let rows: number[] = [0];
      node.factors.forEach((factor, i) => {
        const own = parts[i] ?? null;
        const next: number[] = [];
        const length = factor.rowLength;
        for (const outer of rows) {
          if (own === null) for (let inner = 0; inner < length; inner++) next.push(outer * length + inner);
          else for (const inner of own) next.push(outer * length + inner);
        }
        rows = next;
      });
      return rows;
    }
    case "association": {
      let rows: readonly number[] | null = null;
      for (const member of node.members) {
        const own = match(member, constraints);
        if (own === null) continue;
        rows = rows === null ? own : intersect(rows, own);
        if (rows.length === 0) return rows;
      }
      return rows !== null && rows.length === node.rowLength ? null : rows;
    }
  }
}

function intersect(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return out;
}

/** "Frame=1-5, Layer=bg": a task (row) for messages. */
export function describeRow(space: TaskSpace, row: number): string {
  if (space.leaves.length === 0) return "the step's only task";
  const indices = new Int32Array(space.leaves.length);
  rowLeafIndices(space, row, indices);
  return space.leaves.map((leaf, i) => `${leaf.name}=${leaf.rowTexts[indices[i]!]}`).join(", ");
}
