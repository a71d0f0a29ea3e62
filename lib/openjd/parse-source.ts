/**
 * Parses template text (YAML 1.2 or JSON) into a SourceNode tree with source spans, and turns
 * raw errors into located TemplateErrors. Defensive limits keep hostile input from hanging or
 * exhausting memory: nesting depth, node count and alias expansion are all bounded.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode } from "yaml";
import { formatPath, type RawError, type TemplateError } from "./errors";
import { walkPath, type ObjectEntry, type SourceNode, type Span } from "./source-node";

export type DocumentFormat = "yaml" | "json";

export const SOURCE_LIMITS = {
  /** Bytes of template text accepted at all. */
  maxTextLength: 10 * 1024 * 1024,
  /** Nesting depth of mappings and lists (openjd-rs uses the same cap). */
  maxDepth: 128,
  /** Values in the whole document after alias expansion. */
  maxNodes: 1_000_000,
} as const;

export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  /** 1-based line and column of an offset. */
  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (this.starts[lo] ?? 0) + 1 };
  }
}

export interface ParsedSource {
  text: string;
  root: SourceNode | null;
  lines: LineIndex;
  /** Syntax errors; when non-empty `root` may be null or partial. */
  errors: TemplateError[];
}

export function detectFormat(filename: string): DocumentFormat | null {
  const lower = filename.toLowerCase();
  if (lower.endsWith(".json")) return "json";
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  return null;
}

export function parseSource(text: string, format: DocumentFormat): ParsedSource {
  const lines = new LineIndex(text);
  const fail = (message: string, offset = 0): ParsedSource => {
    const { line, column } = lines.position(offset);
    return { text, root: null, lines, errors: [{ path: "", line, column, message }] };
  };
  if (text.length > SOURCE_LIMITS.maxTextLength) {
    return fail(`the document is larger than ${SOURCE_LIMITS.maxTextLength} bytes`);
  }
  if (format === "json") {
    const jsonError = strictJsonError(text);
    if (jsonError) return fail(`not valid JSON: ${jsonError.message}`, jsonError.offset);
  }
  const doc = parseDocument(text, {
    intAsBigInt: true,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
  });
  if (doc.errors.length > 0) {
    const errors = doc.errors.map((e) => {
      const { line, column } = lines.position(e.pos[0]);
      return { path: "", line, column, message: `not valid ${format === "json" ? "JSON" : "YAML"}: ${firstLine(e.message)}` };
    });
    return { text, root: null, lines, errors };
  }
  const converter = new Converter(doc);
  try {
    const root = doc.contents === null ? null : converter.convert(doc.contents as YamlNode, 0);
    if (root === null) return fail("the document is empty");
    return { text, root, lines, errors: [] };
  } catch (error) {
    if (error instanceof ConversionLimit) return fail(error.message, error.offset);
    throw error;
  }
}

function firstLine(message: string): string {
  return message.split("\n")[0] ?? message;
}

function strictJsonError(text: string): { message: string; offset: number } | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const match = /position (\d+)/.exec(message);
    return { message: message.replace(/^JSON\.parse: /, ""), offset: match ? Number(match[1]) : 0 };
  }
}

class ConversionLimit extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

class Converter {
  private nodes = 0;

  constructor(private readonly doc: Document) {}

  convert(node: YamlNode, depth: number): SourceNode {
    const span = spanOf(node);
    if (++this.nodes > SOURCE_LIMITS.maxNodes) {
      throw new ConversionLimit(`the document has more than ${SOURCE_LIMITS.maxNodes} values`, span?.start ?? 0);
    }
    if (depth > SOURCE_LIMITS.maxDepth) {
      throw new ConversionLimit(`the document is nested deeper than ${SOURCE_LIMITS.maxDepth} levels`, span?.start ?? 0);
    }
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      if (!target) throw new ConversionLimit(`unresolved alias *${node.source}`, span?.start ?? 0);
      return this.convert(target as YamlNode, depth + 1);
    }
    if (isMap(node)) {
      const entries: ObjectEntry[] = [];
      for (const pair of node.items) {
        const keyNode = pair.key as YamlNode | null;
        const keySpan = keyNode ? spanOf(keyNode) : null;
        if (keyNode !== null && !isScalar(keyNode)) {
          throw new ConversionLimit("mapping keys must be plain strings", keySpan?.start ?? span?.start ?? 0);
        }
        const key = keyNode === null ? "" : scalarKeyText(keyNode);
        const valueNode = pair.value as YamlNode | null;
        const value: SourceNode =
          valueNode === null ? { kind: "null", span: keySpan } : this.convert(valueNode, depth + 1);
        entries.push({ key, keySpan, value });
      }
      return { kind: "object", entries, span };
    }
    if (isSeq(node)) {
      const items = node.items.map((item) =>
        item === null ? ({ kind: "null", span } as SourceNode) : this.convert(item as YamlNode, depth + 1),
      );
      return { kind: "array", items, span };
    }
    if (isScalar(node)) return scalarNode(node.value, (node as { source?: string }).source, span);
    throw new ConversionLimit("unsupported YAML node", span?.start ?? 0);
  }
}

function scalarKeyText(node: YamlNode): string {
  const value = (node as { value?: unknown }).value;
  const source = (node as { source?: string }).source;
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return source ?? "";
  return source ?? String(value);
}

function scalarNode(value: unknown, source: string | undefined, span: Span | null): SourceNode {
  if (value === null || value === undefined) return { kind: "null", span };
  if (typeof value === "string") return { kind: "string", value, span };
  if (typeof value === "boolean") return { kind: "bool", value, span };
  if (typeof value === "bigint") return { kind: "int", value, text: value.toString(), span };
  if (typeof value === "number") {
    return { kind: "float", value, text: source ?? String(value), span };
  }
  // Tags outside the core schema (dates, binary) arrive as other objects: keep them as text.
  return { kind: "string", value: source ?? String(value), span };
}

function spanOf(node: YamlNode): Span | null {
  const range = (node as { range?: [number, number, number] | null }).range;
  return range ? { start: range[0], end: range[1] } : null;
}

/** Places raw errors in the source: path string plus line:column of the nearest existing node. */
export function locateErrors(source: Pick<ParsedSource, "root" | "lines"> | null, raw: readonly RawError[]): TemplateError[] {
  return raw.map((error) => {
    const path = formatPath(error.segments);
    if (!source?.root) return { path, line: null, column: null, message: error.message };
    const { node, entry, complete } = walkPath(source.root, error.segments);
    const span = complete && error.atKey && entry?.keySpan ? entry.keySpan : node.span;
    if (!span) return { path, line: null, column: null, message: error.message };
    const { line, column } = source.lines.position(span.start);
    return { path, line, column, message: error.message };
  });
}
