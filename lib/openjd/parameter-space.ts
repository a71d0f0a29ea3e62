/**
 * A step's tasks as a lazy, random-access space (spec §3.4; reference behaviour §2.7).
 *
 * Order matches openjd: products are row-major with the right-most factor changing fastest,
 * associations advance in lock-step, lists keep their written order and range expressions are
 * ascending. Nothing is expanded: task `i` is found by mixed-radix arithmetic over the
 * combination tree, so a space of billions of tasks costs as much as one of ten.
 */
import { chunkValues, type RangeConstraint } from "./chunking";
import { checkCombination, defaultCombination, formatCombination, type CombinationNode } from "./combination-expr";
import { IntRangeExpr } from "./range-expr";

export type { RangeConstraint } from "./chunking";

export type TaskParameterType = "INT" | "FLOAT" | "STRING" | "PATH" | "CHUNK[INT]";

export interface TaskParameterValue {
  type: TaskParameterType;
  value: string;
}

export type TaskParameterSet = Record<string, TaskParameterValue>;

export interface ChunkSettings {
  defaultTaskCount: number;
  targetRuntimeSeconds: number;
  rangeConstraint: RangeConstraint;
}

export interface SpaceParameter {
  name: string;
  type: TaskParameterType;
  /** Values already normalized by the caller (INT lists as canonical decimal strings). */
  values: readonly string[] | IntRangeExpr;
  /** Required for CHUNK[INT]; ignored otherwise. */
  chunks?: ChunkSettings;
}

export type SpaceResult = { ok: true; space: StepParameterSpace } | { ok: false; message: string };

/**
 * Chunk layout materializes the chunked values; template validation caps a range at 1024 values,
 * so this only stops a caller that skipped validation from freezing the process.
 */
const MAX_CHUNKED_VALUES = 1_000_000;

interface Dimension {
  name: string;
  type: TaskParameterType;
  length: bigint;
  /** Value at an index below `length`. */
  get(index: bigint): string;
  /** Every index whose value is `value` (lists may repeat values). */
  find(value: string): bigint[];
  /** Whether a task may carry `value`; wider than `find` only for chunks. */
  accepts(value: string): boolean;
}

type SpaceNode = { kind: "leaf"; dimension: Dimension; length: bigint } | { kind: "product"; factors: SpaceNode[]; length: bigint } | { kind: "association"; members: SpaceNode[]; length: bigint };

export class StepParameterSpace {
  readonly names: readonly string[];
  /**
   * Individual task values (product of dimension sizes) and dispatch units (chunks × the other
   * dimensions). Plain numbers lose precision past 2^53; callers enforce a task limit far below.
   */
  readonly taskCount: number;
  readonly count: number;
  readonly chunkParameter: string | null;
  readonly #root: SpaceNode;
  readonly #exactCount: bigint;

  private constructor(root: SpaceNode, names: readonly string[], taskCount: bigint, chunkParameter: string | null) {
    this.#root = root;
    this.names = names;
    this.#exactCount = root.length;
    this.count = Number(root.length);
    this.taskCount = Number(taskCount);
    this.chunkParameter = chunkParameter;
  }

  static create(parameters: readonly SpaceParameter[], combination?: CombinationNode): SpaceResult {
    const names = parameters.map((p) => p.name);
    const duplicate = names.find((name, i) => names.indexOf(name) !== i);
    if (duplicate !== undefined) return { ok: false, message: `task parameter '${duplicate}' is defined twice` };
    const chunked = parameters.filter((p) => p.type === "CHUNK[INT]");
    if (chunked.length > 1) {
      return { ok: false, message: `a step may have one CHUNK[INT] parameter, found ${chunked.map((p) => p.name).join(", ")}` };
    }
    const chunkParameter = chunked[0]?.name ?? null;
    if (parameters.length === 0 && combination === undefined) return { ok: true, space: StepParameterSpace.empty() };
    const tree = combination ?? defaultCombination(names);
    const problems = checkCombination(tree, names, chunkParameter ?? undefined);
    if (problems.length > 0) return { ok: false, message: problems.join("; ") };

    const taskDimensions = new Map<string, Dimension>();
    const dispatchDimensions = new Map<string, Dimension>();
    for (const parameter of parameters) {
      const built = valueDimension(parameter);
      if (typeof built === "string") return { ok: false, message: built };
      taskDimensions.set(parameter.name, built);
      const chunks = parameter.type === "CHUNK[INT]" ? chunkDimension(parameter, built) : built;
      if (typeof chunks === "string") return { ok: false, message: chunks };
      dispatchDimensions.set(parameter.name, chunks);
    }
    // Chunking cannot change association lengths (a chunked parameter is never inside one),
    // so checking the dispatch tree covers both.
    const root = buildNode(tree, dispatchDimensions);
    if (typeof root === "string") return { ok: false, message: root };
    const tasks = buildNode(tree, taskDimensions);
    if (typeof tasks === "string") return { ok: false, message: tasks };
    return { ok: true, space: new StepParameterSpace(root, names, tasks.length, chunkParameter) };
  }

  /** A step without a parameter space runs exactly one task with no parameters. */
  static empty(): StepParameterSpace {
    return new StepParameterSpace({ kind: "product", factors: [], length: 1n }, [], 1n, null);
  }

  at(index: number): TaskParameterSet {
    if (!Number.isInteger(index) || index < 0 || BigInt(index) >= this.#exactCount) {
      throw new RangeError(`task index ${index} is outside 0..${this.#exactCount - 1n}`);
    }
    // A null prototype: "__proto__" is a valid parameter name and must be an ordinary key.
    const set: TaskParameterSet = Object.create(null) as TaskParameterSet;
    fill(this.#root, BigInt(index), set);
    return set;
  }

  *[Symbol.iterator](): Iterator<TaskParameterSet> {
    for (let i = 0; i < this.count; i++) yield this.at(i);
  }

  /**
   * True when some task has exactly these parameter values. The CHUNK[INT] value may be any
   * range expression over the parameter's values that its range constraint allows (a CONTIGUOUS
   * chunk must be written `a-b` and cover consecutive values), as in openjd-model.
   */
  contains(set: TaskParameterSet): boolean {
    const keys = Object.keys(set);
    if (keys.length !== this.names.length || !this.names.every((name) => Object.hasOwn(set, name))) return false;
    return accepts(this.#root, set);
  }
}

function valueDimension(parameter: SpaceParameter): Dimension | string {
  const { name, type, values } = parameter;
  if (values instanceof IntRangeExpr) {
    if (type !== "INT" && type !== "CHUNK[INT]") return `parameter '${name}' of type ${type} needs a list of values, not a range expression`;
    if (values.size === 0n) return `parameter '${name}' has no values`;
    const find = (value: string): bigint[] => {
      const parsed = canonicalInteger(value);
      const index = parsed === null ? -1n : values.indexOf(parsed);
      return index < 0n ? [] : [index];
    };
    return {
      name,
      type,
      length: values.size,
      get: (index) => values.at(index).toString(),
      find,
      accepts: (value) => find(value).length > 0,
    };
  }
  return listDimension(name, type, values);
}

function chunkDimension(parameter: SpaceParameter, values: Dimension): Dimension | string {
  const { name, chunks } = parameter;
  if (!chunks) return `CHUNK[INT] parameter '${name}' needs chunk settings`;
  if (!Number.isSafeInteger(chunks.defaultTaskCount) || chunks.defaultTaskCount < 1) {
    return `CHUNK[INT] parameter '${name}' needs a defaultTaskCount of at least 1, got ${chunks.defaultTaskCount}`;
  }
  if (values.length > BigInt(MAX_CHUNKED_VALUES)) {
    return `CHUNK[INT] parameter '${name}' has ${values.length} values; at most ${MAX_CHUNKED_VALUES} can be chunked`;
  }
  const integers: bigint[] = [];
  for (let i = 0n; i < values.length; i++) {
    const parsed = canonicalInteger(values.get(i));
    if (parsed === null) return `CHUNK[INT] parameter '${name}' has a value that is not an integer: '${values.get(i)}'`;
    integers.push(parsed);
  }
  const chunkList = listDimension(name, "CHUNK[INT]", chunkValues(integers, chunks));
  if (typeof chunkList === "string") return chunkList;
  const members = new Set(integers);
  const contiguous = chunks.rangeConstraint === "CONTIGUOUS";
  return { ...chunkList, accepts: (value) => isValidChunk(value, members, contiguous) };
}

/**
 * Like openjd-model, a chunk is accepted when it is any subset of the parameter's values that its
 * constraint allows, not only one of the chunks laid out here: a scheduler that resized chunks
 * (or a retry of a split chunk) still names a valid piece of the step.
 */
function isValidChunk(value: string, members: ReadonlySet<bigint>, contiguous: boolean): boolean {
  if (contiguous && !/^[ \t]*-?[0-9]+[ \t]*-[ \t]*-?[0-9]+[ \t]*$/.test(value)) return false;
  const parsed = IntRangeExpr.tryParse(value);
  if (!parsed.ok || parsed.value.size > BigInt(members.size)) return false;
  for (const member of parsed.value.values()) if (!members.has(member)) return false;
  return true;
}

function listDimension(name: string, type: TaskParameterType, values: readonly string[]): Dimension | string {
  if (values.length === 0) return `parameter '${name}' has no values`;
  return {
    name,
    type,
    length: BigInt(values.length),
    get: (index) => values[Number(index)]!,
    find: (value) => values.flatMap((candidate, i) => (candidate === value ? [BigInt(i)] : [])),
    accepts: (value) => values.includes(value),
  };
}

/** Only the canonical spelling matches, so `contains` agrees with what `at` produces. */
function canonicalInteger(text: string): bigint | null {
  if (!/^-?[0-9]+$/.test(text)) return null;
  const value = BigInt(text);
  return value.toString() === text ? value : null;
}

function buildNode(node: CombinationNode, dimensions: ReadonlyMap<string, Dimension>): SpaceNode | string {
  switch (node.kind) {
    case "name": {
      const dimension = dimensions.get(node.name)!;
      return { kind: "leaf", dimension, length: dimension.length };
    }
    case "product": {
      const factors: SpaceNode[] = [];
      for (const factor of node.factors) {
        const built = buildNode(factor, dimensions);
        if (typeof built === "string") return built;
        factors.push(built);
      }
      return { kind: "product", factors, length: factors.reduce((total, f) => total * f.length, 1n) };
    }
    case "association": {
      const members: SpaceNode[] = [];
      for (const member of node.members) {
        const built = buildNode(member, dimensions);
        if (typeof built === "string") return built;
        const first = members[0];
        if (first && first.length !== built.length) {
          return `association ${formatCombination(node)} has members of lengths ${first.length} and ${built.length}; members advance together, so their lengths must be equal`;
        }
        members.push(built);
      }
      return { kind: "association", members, length: members[0]!.length };
    }
  }
}

function fill(node: SpaceNode, index: bigint, set: TaskParameterSet): void {
  switch (node.kind) {
    case "leaf":
      set[node.dimension.name] = { type: node.dimension.type, value: node.dimension.get(index) };
      return;
    case "product": {
      let rest = index;
      for (let i = node.factors.length - 1; i >= 0; i--) {
        const factor = node.factors[i]!;
        fill(factor, rest % factor.length, set);
        rest /= factor.length;
      }
      return;
    }
    case "association":
      for (const member of node.members) fill(member, index, set);
      return;
  }
}

function accepts(node: SpaceNode, set: TaskParameterSet): boolean {
  switch (node.kind) {
    case "leaf": {
      const wanted = set[node.dimension.name];
      return wanted !== undefined && wanted.type === node.dimension.type && node.dimension.accepts(wanted.value);
    }
    case "product":
      return node.factors.every((factor) => accepts(factor, set));
    case "association":
      return matchingIndices(node, set).length > 0;
  }
}

/** Indices of `node` that produce the values in `set`; only for associations, so never chunks. */
function matchingIndices(node: SpaceNode, set: TaskParameterSet): bigint[] {
  switch (node.kind) {
    case "leaf": {
      const wanted = set[node.dimension.name];
      return wanted && wanted.type === node.dimension.type ? node.dimension.find(wanted.value) : [];
    }
    case "product": {
      let indices = [0n];
      for (const factor of node.factors) {
        const own = matchingIndices(factor, set);
        indices = indices.flatMap((outer) => own.map((inner) => outer * factor.length + inner));
        if (indices.length === 0) return [];
      }
      return indices;
    }
    case "association": {
      let indices: bigint[] | null = null;
      for (const member of node.members) {
        const own = matchingIndices(member, set);
        indices = indices === null ? own : indices.filter((index) => own.includes(index));
        if (indices.length === 0) return [];
      }
      return indices ?? [];
    }
  }
}
