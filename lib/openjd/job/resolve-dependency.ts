/**
 * One dependency with a subspace resolved into edges (TASK_DEPENDENCIES §2): for every
 * downstream frame (a chunk's single values one by one) the entries' ranges select values of
 * the upstream parameters, the upstream rows holding them are its matched set, and the frame's
 * row waits for them. A range reading no task parameter is evaluated once, one reading a single
 * parameter once per value of it, anything else once per frame; matching is by index lookups,
 * so the cost follows the matched rows, never |downstream| × |upstream|.
 */
import type { PathSegment } from "../errors";
import type { ExprValue, PathFormat } from "../expr/values";
import type { FormatEnvironment } from "../format-evaluation";
import type { SubspaceEntry, TaskDependency } from "../model";
import { LayeredSymbols, TaskValues, taskParametersRead } from "./dependency-scope";
import type { EdgeBuffer } from "./edge-buffer";
import { evaluateEntry, selectFrames, selectRows, type EntryValues } from "./subspace-values";
import type { DependencyKind } from "./task-graph-types";
import { describeRow, matchRows, rowLeafIndices, type TaskSpace } from "./task-space";

export interface DependencySides {
  downStep: number;
  downName: string;
  down: TaskSpace;
  upStep: number;
  up: TaskSpace;
  /** The downstream step's dependency scope without its task values. */
  symbols: ReadonlyMap<string, ExprValue>;
  pathFormat: PathFormat;
}

type Failure = { ok: false; segments: PathSegment[]; message: string };
type Located<T> = { ok: true; value: T } | Failure;
export type DependencyOutcome = { ok: true; kind: DependencyKind; edges: number } | Failure;

const ONE_FRAME: readonly number[] = [0];

export function resolveDependency(sides: DependencySides, dependency: TaskDependency, edges: EdgeBuffer): DependencyOutcome {
  const { down, up, downStep, upStep } = sides;
  const self = downStep === upStep;
  const anyOf = dependency.subspace.mode === "anyOf";
  const scope = new EntryScope(sides);
  const entries = dependency.subspace.entries.map((entry) => new CompiledEntry(entry, sides, scope));
  const constraints: (readonly number[] | null)[] = up.leaves.map(() => null);
  const rowIndices = new Int32Array(down.leaves.length);
  const frame = new Int32Array(down.leaves.length);
  const chunkLeaf = down.chunkLeaf >= 0 ? down.leaves[down.chunkLeaf]! : null;
  // Frames of one chunk may select the same upstream rows: remember which row last took each.
  const takenBy = chunkLeaf ? new Int32Array(up.rowCount).fill(-1) : null;
  const start = edges.count;
  if (entries.every((e) => e.reads.length === 0) && !self) {
    // The same upstream tasks for every downstream task: often the whole step, found once.
    const once = matchFrame(entries, frame, constraints, up);
    if (!once.ok) return once;
    if (once.value === null) return { ok: true, kind: anyOf ? "step-any" : "step", edges: 0 };
  }
  const wholeRows: number[] = [];
  let partialFrames = 0;

  for (let row = 0; row < down.rowCount; row++) {
    rowLeafIndices(down, row, rowIndices);
    frame.set(rowIndices);
    const rowStart = edges.count;
    const frames = chunkLeaf?.framesOf?.[rowIndices[down.chunkLeaf]!] ?? ONE_FRAME;
    for (const f of frames) {
      if (chunkLeaf) frame[down.chunkLeaf] = f;
      const matched = matchFrame(entries, frame, constraints, up);
      if (!matched.ok) return matched;
      const rows = matched.value;
      if (rows !== null && rows.length === 0) {
        partialFrames++;
        continue;
      }
      if (rows === null && !self) {
        // The whole upstream step: kept aside, and a gate if every frame says so.
        if (wholeRows.at(-1) !== row) wholeRows.push(row);
        if (!anyOf) break;
        continue;
      }
      partialFrames++;
      if (!anyOf) {
        if (rows === null || (self && rows.includes(row))) return selfWait(sides, entries, scope, row, frame, anyOf);
        for (const u of rows) {
          if (takenBy) {
            if (takenBy[u] === row) continue;
            takenBy[u] = row;
          }
          edges.push(downStep, row, upStep, u, -1);
        }
      } else {
        const count = rows === null ? up.rowCount - 1 : self ? rows.length - (rows.includes(row) ? 1 : 0) : rows.length;
        if (count === 0) return selfWait(sides, entries, scope, row, frame, anyOf);
        const group = edges.newGroup();
        if (rows === null) edges.pushAll(downStep, row, upStep, up.rowCount, group, row);
        else for (const u of rows) if (!self || u !== row) edges.push(downStep, row, upStep, u, group);
      }
    }
    // One frame needing the whole step makes the whole row need it: its other edges say nothing more.
    if (!anyOf && wholeRows.at(-1) === row) edges.truncate(rowStart);
  }

  const whole = anyOf ? partialFrames === 0 : wholeRows.length === down.rowCount;
  if (whole && wholeRows.length > 0) {
    edges.truncate(start);
    return { ok: true, kind: anyOf ? "step-any" : "step", edges: 0 };
  }
  for (const row of wholeRows) edges.pushAll(downStep, row, upStep, up.rowCount, anyOf ? edges.newGroup() : -1);
  return { ok: true, kind: anyOf ? "tasks-any" : "tasks", edges: edges.count - start };
}

/** The upstream rows one frame waits for: null for all of them, [] for none. */
function matchFrame(entries: readonly CompiledEntry[], frame: Int32Array, constraints: (readonly number[] | null)[], up: TaskSpace): Located<readonly number[] | null> {
  for (const entry of entries) {
    const rows = entry.rowsAt(frame);
    if (!rows.ok) return rows;
    if (rows.value.length === 0) return { ok: true, value: [] };
    constraints[entry.upLeaf] = rows.value;
  }
  return { ok: true, value: matchRows(up, constraints) };
}

/** The task values a range reads, set over the step's scope. */
class EntryScope {
  readonly task = new Map<string, ExprValue>();
  readonly env: FormatEnvironment;
  readonly values: TaskValues[];

  constructor(readonly sides: DependencySides) {
    this.env = { symbols: new LayeredSymbols(this.task, sides.symbols), scope: "template", pathFormat: sides.pathFormat };
    this.values = sides.down.leaves.map((leaf) => new TaskValues(leaf, sides.pathFormat));
  }

  set(leaves: readonly number[], frame: Int32Array): void {
    for (const leaf of leaves) {
      const values = this.values[leaf]!;
      this.task.set(`Task.Param.${values.leaf.name}`, values.param(frame[leaf]!));
      this.task.set(`Task.RawParam.${values.leaf.name}`, values.raw(frame[leaf]!));
    }
  }

  /** "Frame=3, Layer=bg": the frame as the user wrote its values. */
  describe(frame: Int32Array): string {
    return this.sides.down.leaves.map((leaf, i) => `${leaf.name}=${leaf.texts[frame[i]!]}`).join(", ") || "the step's only task";
  }
}

class CompiledEntry {
  readonly upLeaf: number;
  /** Downstream leaves the range reads. */
  readonly reads: readonly number[];
  /** Rows by the value index of the one leaf read (or at [0] when none is read); by the indices read otherwise. */
  readonly #byValue: (readonly number[] | undefined)[] = [];
  readonly #byValues = new Map<string, readonly number[]>();

  constructor(
    readonly entry: SubspaceEntry,
    private readonly sides: DependencySides,
    private readonly scope: EntryScope,
  ) {
    this.upLeaf = sides.up.leafByName.get(entry.name)!;
    const names = taskParametersRead(entry.range);
    const leaves = names && [...names].map((name) => sides.down.leafByName.get(name) ?? -1);
    this.reads = leaves && !leaves.includes(-1) ? leaves : sides.down.leaves.map((_, i) => i);
  }

  /** The upstream leaf's rows this entry selects for the frame, ascending; evaluated once per distinct values read. */
  rowsAt(frame: Int32Array): Located<readonly number[]> {
    const reads = this.reads;
    const slot = reads.length === 0 ? 0 : reads.length === 1 ? frame[reads[0]!]! : -1;
    const key = slot >= 0 ? "" : reads.map((leaf) => frame[leaf]).join(",");
    const cached = slot >= 0 ? this.#byValue[slot] : this.#byValues.get(key);
    if (cached) return { ok: true, value: cached };
    const values = this.valuesAt(frame);
    if (!values.ok) return values;
    const rows = selectRows(this.sides.up.leaves[this.upLeaf]!, values.value);
    if (slot >= 0) this.#byValue[slot] = rows;
    else this.#byValues.set(key, rows);
    return { ok: true, value: rows };
  }

  valuesAt(frame: Int32Array): Located<EntryValues> {
    this.scope.set(this.reads, frame);
    const values = evaluateEntry(this.entry.range, this.sides.up.leaves[this.upLeaf]!.type, this.scope.env);
    if (values.ok) return values;
    const forTask = this.reads.length > 0 ? ` for task ${this.scope.describe(frame)}` : "";
    return { ok: false, segments: [...(values.path ?? this.entry.range.path)], message: `range of ${this.entry.name}${forTask}: ${values.message}` };
  }
}

/**
 * A row that would wait for itself: a task (the one-task cycle) or, with chunks, a chunk one of
 * whose frames waits for a frame of the same chunk. Chunks are fixed when the job is created.
 */
function selfWait(sides: DependencySides, entries: readonly CompiledEntry[], scope: EntryScope, row: number, frame: Int32Array, anyOf: boolean): DependencyOutcome {
  const { down } = sides;
  const task = describeRow(down, row);
  if (down.chunkLeaf < 0) return { ok: false, segments: [], message: `step ${sides.downName}: tasks wait for each other in a cycle: ${task} → ${task}` };
  const leaf = down.leaves[down.chunkLeaf]!;
  const own = leaf.framesOf?.[leaf.chunkOf?.[frame[down.chunkLeaf]!] ?? 0] ?? [];
  const entry = entries.find((e) => e.upLeaf === sides.up.leafByName.get(leaf.name));
  const values = entry?.valuesAt(frame);
  const chosen = values?.ok ? new Set(selectFrames(sides.up.leaves[entry!.upLeaf]!, values.value).map((i) => sides.up.leaves[entry!.upLeaf]!.texts[i])) : null;
  const waitedFor = own.map((i) => leaf.texts[i]!).filter((text) => chosen === null || chosen.has(text));
  const me = leaf.texts[frame[down.chunkLeaf]!]!;
  const what = waitedFor.length === 1 && waitedFor[0] === me ? "itself" : `${anyOf ? "any of " : ""}${waitedFor.length === 1 ? "frame" : "frames"} ${waitedFor.join(", ")} of the same chunk`;
  return {
    ok: false,
    segments: [],
    message: `step ${sides.downName}: chunk ${task} would wait for itself: its frame ${leaf.name}=${me} waits for ${what} (chunks are formed when the job is created; make the chunks smaller or the dependency not reach within a chunk)`,
  };
}
