/**
 * Parses template text (YAML 1.2 or JSON) into a SourceNode tree with source spans, and turns
 * raw errors into located TemplateErrors. Defensive limits keep hostile input from hanging or
 * exhausting memory: nesting depth, node count and alias expansion are all bounded.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type Node as YamlNode } from "yaml";
import { formatPath, type RawError, type TemplateError } from "./errors";
import { readYamlDocument } from "./read-yaml";
import { walkPath, type ObjectEntry, type SourceNode, type Span } from "./source-node";

export type DocumentFormat = "yaml" | "json";

export const SOURCE_LIMITS = {
  /**
   * Characters of template text accepted at all. The spec sets no limit; AWS Deadline Cloud
   * takes 300,000. Composing a 4 MiB block or folded scalar already costs the `yaml` package
   * about 0.3 s, and it grows faster than linearly beyond.
   */
  maxTextLength: 4 * 1024 * 1024,
  /** Nesting depth of mappings and lists (openjd-rs uses the same cap). */
  maxDepth: 128,
  /**
   * Values in the whole document after alias expansion. The largest real templates hold a few
   * thousand; converting and validating 100,000 takes about 0.1 s.
   */
  maxNodes: 100_000,
  /**
   * Lexical tokens (scalars, indicators, spaces, line breaks) in the text, about six per line.
   * The `yaml` parser spends close to a microsecond on each, so this keeps parsing near 0.25 s.
   */
  maxTokens: 250_000,
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
    return fail(`the document is ${text.length} characters long; at most ${SOURCE_LIMITS.maxTextLength} are accepted`);
  }
  if (format === "json") {
    const jsonError = strictJsonError(text);
    if (jsonError) return fail(`not valid JSON: ${jsonError.message}`, jsonError.offset);
  }
  const read = readYamlDocument(text, SOURCE_LIMITS);
  if (!read.ok) return fail(read.message, read.offset);
  const doc = read.doc;
  const syntaxErrors = (found: ReadonlyArray<{ offset: number; message: string }>): ParsedSource => {
    const errors = found.map(({ offset, message }) => {
      const { line, column } = lines.position(offset);
      return { path: "", line, column, message: `not valid ${format === "json" ? "JSON" : "YAML"}: ${message}` };
    });
    return { text, root: null, lines, errors };
  };
  if (doc.errors.length > 0) {
    // After the first syntax error the parser is out of step and the rest are mostly echoes of it.
    const first = doc.errors[0] as (typeof doc.errors)[number];
    const more = doc.errors.length - 1;
    const message = `${firstLine(first.message)}${more > 0 ? ` (the parser reported ${more} more error${more === 1 ? "" : "s"} after this one)` : ""}`;
    return syntaxErrors([{ offset: first.pos[0], message }]);
  }
  const converter = new Converter(doc);
  try {
    const root = doc.contents === null ? null : converter.convert(doc.contents as YamlNode, 0);
    if (root === null) return fail("the document is empty");
    if (converter.duplicateKeys.length > 0) {
      return syntaxErrors(converter.duplicateKeys.map(({ key, offset }) => ({ offset, message: `the key ${JSON.stringify(key)} appears more than once in its mapping` })));
    }
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

/**
 * Turns the `yaml` document into a SourceNode tree. Aliases are expanded (the validators see
 * plain trees), so before expanding one the converter checks the size of what it would copy:
 * the sizes of all anchored nodes are measured once, in document order, which also finds
 * aliases that point into their own anchor. A billion-laughs document is refused at its first
 * alias over budget instead of after a million copies.
 */
class Converter {
  private nodes = 0;
  readonly duplicateKeys: Array<{ key: string; offset: number }> = [];
  private readonly anchors = new Map<string, YamlNode>();
  private readonly aliasTargets = new Map<YamlNode, YamlNode | "cycle" | null>();
  private readonly sizes = new Map<YamlNode, number>();
  private readonly open = new Set<YamlNode>();

  constructor(doc: Document) {
    if (doc.contents !== null) this.measure(doc.contents as YamlNode);
  }

  /** Expanded size of a node; children are measured before their parent, in document order. */
  private measure(node: YamlNode): number {
    if (isAlias(node)) {
      const target = this.anchors.get(node.source) ?? null;
      const resolved = target !== null && this.open.has(target) ? "cycle" : target;
      this.aliasTargets.set(node, resolved);
      return resolved === null || resolved === "cycle" ? 1 : (this.sizes.get(resolved) ?? 1);
    }
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) this.anchors.set(anchor, node);
    let size = 1;
    if (isMap(node) || isSeq(node)) {
      this.open.add(node);
      for (const item of node.items as unknown[]) {
        if (isPair(item)) {
          if (item.key) size += this.measure(item.key as YamlNode);
          if (item.value) size += this.measure(item.value as YamlNode);
        } else if (item) size += this.measure(item as YamlNode);
      }
      this.open.delete(node);
    }
    // Sums of nested aliases grow exponentially; anything past the limit is simply too big.
    size = Math.min(size, Number.MAX_SAFE_INTEGER);
    this.sizes.set(node, size);
    return size;
  }

  convert(node: YamlNode, depth: number): SourceNode {
    const span = spanOf(node);
    if (depth > SOURCE_LIMITS.maxDepth) {
      throw new ConversionLimit(`the document is nested deeper than ${SOURCE_LIMITS.maxDepth} levels`, span?.start ?? 0);
    }
    if (isAlias(node)) {
      const target = this.aliasTargets.get(node) ?? null;
      if (target === null) throw new ConversionLimit(`unresolved alias *${node.source}`, span?.start ?? 0);
      if (target === "cycle") throw new ConversionLimit(`the alias *${node.source} refers to a node that contains it`, span?.start ?? 0);
      if (this.nodes + (this.sizes.get(target) ?? 1) > SOURCE_LIMITS.maxNodes) throw this.tooManyNodes(span);
      return this.convert(target, depth);
    }
    if (++this.nodes > SOURCE_LIMITS.maxNodes) throw this.tooManyNodes(span);
    if (isMap(node)) {
      const entries: ObjectEntry[] = [];
      const seen = new Set<string>();
      for (const pair of node.items) {
        const keyNode = pair.key as YamlNode | null;
        const keySpan = keyNode ? spanOf(keyNode) : null;
        if (keyNode !== null && !isScalar(keyNode)) {
          throw new ConversionLimit("mapping keys must be plain strings", keySpan?.start ?? span?.start ?? 0);
        }
        const key = keyNode === null ? "" : scalarKeyText(keyNode);
        if (seen.has(key)) this.duplicateKeys.push({ key, offset: keySpan?.start ?? span?.start ?? 0 });
        seen.add(key);
        const valueNode = pair.value as YamlNode | null;
        const value: SourceNode = valueNode === null ? { kind: "null", span: keySpan } : this.convert(valueNode, depth + 1);
        entries.push({ key, keySpan, value });
      }
      return { kind: "object", entries, span };
    }
    if (isSeq(node)) {
      const items = node.items.map((item) => (item === null ? ({ kind: "null", span } as SourceNode) : this.convert(item as YamlNode, depth + 1)));
      return { kind: "array", items, span };
    }
    if (isScalar(node)) return scalarNode(node.value, (node as { source?: string }).source, span);
    throw new ConversionLimit("unsupported YAML node", span?.start ?? 0);
  }

  private tooManyNodes(span: Span | null): ConversionLimit {
    return new ConversionLimit(`the document has more than ${SOURCE_LIMITS.maxNodes} values (counting each alias as a copy)`, span?.start ?? 0);
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
