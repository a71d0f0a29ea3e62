/**
 * A JSON-like tree that remembers where each value came from. Templates are validated on this
 * tree rather than on plain objects so that every error can be located, integers keep their
 * full 64-bit value, and floats keep the text they were written with ("1.50" stays "1.50").
 */
import type { PathSegment } from "./errors";

export interface Span {
  /** Offset of the first character (UTF-16 code units, as JavaScript strings index). */
  start: number;
  end: number;
}

interface NodeBase {
  span: Span | null;
}

export interface ObjectEntry {
  key: string;
  keySpan: Span | null;
  value: SourceNode;
}

export interface ObjectNode extends NodeBase {
  kind: "object";
  entries: ObjectEntry[];
}
export interface ArrayNode extends NodeBase {
  kind: "array";
  items: SourceNode[];
}
export interface StringNode extends NodeBase {
  kind: "string";
  value: string;
}
export interface IntNode extends NodeBase {
  kind: "int";
  value: bigint;
  text: string;
}
export interface FloatNode extends NodeBase {
  kind: "float";
  value: number;
  text: string;
}
export interface BoolNode extends NodeBase {
  kind: "bool";
  value: boolean;
}
export interface NullNode extends NodeBase {
  kind: "null";
}

export type SourceNode = ObjectNode | ArrayNode | StringNode | IntNode | FloatNode | BoolNode | NullNode;
export type ScalarNode = StringNode | IntNode | FloatNode | BoolNode | NullNode;

/** Human name of a node's kind, for "expected a string, got a list" messages. */
export function kindName(node: SourceNode): string {
  switch (node.kind) {
    case "object":
      return "a mapping";
    case "array":
      return "a list";
    case "string":
      return "a string";
    case "int":
      return "an integer";
    case "float":
      return "a number";
    case "bool":
      return "a boolean";
    case "null":
      return "null";
  }
}

/**
 * Key indexes of large mappings. Every error is located by walking its path from the root, so a
 * linear search made 20,000 "unknown field" errors in one mapping cost 0.5 s. Trees are not
 * changed after they are built; an index built for a different length is simply rebuilt.
 */
const KEY_INDEXES = new WeakMap<ObjectNode, { length: number; byKey: Map<string, ObjectEntry> }>();
const INDEX_FROM = 16;

export function getEntry(node: ObjectNode, key: string): ObjectEntry | undefined {
  if (node.entries.length < INDEX_FROM) return node.entries.find((entry) => entry.key === key);
  let index = KEY_INDEXES.get(node);
  if (index === undefined || index.length !== node.entries.length) {
    const byKey = new Map<string, ObjectEntry>();
    // The first entry wins, as with `find`, when a tree built from values repeats a key.
    for (const entry of node.entries) if (!byKey.has(entry.key)) byKey.set(entry.key, entry);
    index = { length: node.entries.length, byKey };
    KEY_INDEXES.set(node, index);
  }
  return index.byKey.get(key);
}

/** Builds a tree from a plain value (API input, tests). Such nodes have no source spans. */
export function nodeFromValue(value: unknown): SourceNode {
  if (value === null || value === undefined) return { kind: "null", span: null };
  if (typeof value === "string") return { kind: "string", value, span: null };
  if (typeof value === "boolean") return { kind: "bool", value, span: null };
  if (typeof value === "bigint") return { kind: "int", value, text: value.toString(), span: null };
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return { kind: "int", value: BigInt(value), text: String(value), span: null };
    return { kind: "float", value, text: String(value), span: null };
  }
  if (Array.isArray(value)) return { kind: "array", items: value.map(nodeFromValue), span: null };
  if (isSourceNode(value)) return value;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).map(([key, v]) => ({
      key,
      keySpan: null,
      value: nodeFromValue(v),
    }));
    return { kind: "object", entries, span: null };
  }
  return { kind: "string", value: String(value), span: null };
}

const NODE_KINDS = new Set(["object", "array", "string", "int", "float", "bool", "null"]);

function isSourceNode(value: unknown): value is SourceNode {
  if (typeof value !== "object" || value === null) return false;
  const v = value as { kind?: unknown; span?: unknown };
  return typeof v.kind === "string" && NODE_KINDS.has(v.kind) && "span" in v;
}

/** Converts a tree back to plain JavaScript (bigints for integers). */
export function nodeToValue(node: SourceNode): unknown {
  switch (node.kind) {
    case "object":
      return Object.fromEntries(node.entries.map((e) => [e.key, nodeToValue(e.value)]));
    case "array":
      return node.items.map(nodeToValue);
    case "null":
      return null;
    default:
      return node.value;
  }
}

/**
 * Finds the deepest node along a path, returning it and whether the whole path was found.
 * Used to place an error on the nearest thing that exists (a missing key points at its parent).
 */
export function walkPath(root: SourceNode, segments: readonly PathSegment[]): { node: SourceNode; entry: ObjectEntry | null; complete: boolean } {
  let node = root;
  let entry: ObjectEntry | null = null;
  for (const segment of segments) {
    if (typeof segment === "number" && node.kind === "array" && node.items[segment] !== undefined) {
      node = node.items[segment];
      entry = null;
      continue;
    }
    if (typeof segment === "string" && node.kind === "object") {
      const found = getEntry(node, segment);
      if (found) {
        node = found.value;
        entry = found;
        continue;
      }
    }
    return { node, entry: null, complete: false };
  }
  return { node, entry, complete: true };
}
