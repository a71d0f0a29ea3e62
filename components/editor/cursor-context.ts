/**
 * Where the cursor is inside a template that is being typed (and so often does not parse): the
 * path of the mapping or list it is in, whether it is writing a key or a value, the partial word,
 * and the keys already present. YAML is read by indentation, JSON by a tolerant scan.
 */
import type { DocumentFormat, PathSegment } from "@/lib/openjd";

export interface CursorContext {
  /** The mapping (key position) or the field (value position) the cursor is in. */
  path: PathSegment[];
  position: "key" | "value";
  /** The characters already typed of the token being completed (without a JSON quote). */
  prefix: string;
  /** Offset where the token being completed starts (its opening quote, in JSON). */
  tokenStart: number;
  /** The token is inside a JSON string whose opening quote is already typed. */
  quoted: boolean;
  /** Keys the mapping already has (key position). */
  existingKeys: string[];
}

export const KEY_LINE = /^( *)((?:- +)*)("[^"]*"|'[^']*'|[^\s#:'"{}[\],-][^:#]*?|-[^\s:#][^:#]*?)\s*:(?: +|$)(.*)$/;
const DASHES = /^( *)((?:- *)*)/;

interface Frame {
  col: number;
  segment: PathSegment | null;
  isItem: boolean;
  keys: string[];
  items: number;
}

/** A key or scalar without the quotes it was written in (`'a'`, `"a"`). */
export const unquote = (key: string) => (/^(["']).*\1$/.test(key) ? key.slice(1, -1) : key);

export function cursorContext(text: string, offset: number, format: DocumentFormat): CursorContext {
  return format === "json" ? jsonContext(text, offset) : yamlContext(text, offset);
}

function yamlContext(text: string, offset: number): CursorContext {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const stack: Frame[] = [{ col: -1, segment: null, isItem: false, keys: [], items: 0 }];
  const top = () => stack[stack.length - 1]!;
  const pushItems = (indent: number, dashes: string) => {
    let col = indent;
    for (const dash of dashes.match(/- */g) ?? []) {
      while (stack.length > 1 && (top().col > col || (top().col === col && top().isItem))) stack.pop();
      const parent = top();
      stack.push({ col, segment: parent.items++, isItem: true, keys: [], items: 0 });
      col += dash.length;
    }
    return col;
  };
  const pushKey = (col: number, key: string) => {
    while (stack.length > 1 && top().col >= col) stack.pop();
    top().keys.push(key);
    stack.push({ col, segment: key, isItem: false, keys: [], items: 0 });
  };
  let blockScalarCol: number | null = null;
  for (const line of text.slice(0, lineStart).split("\n")) {
    const indent = line.length - line.trimStart().length;
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    if (blockScalarCol !== null && indent > blockScalarCol) continue;
    blockScalarCol = null;
    const match = KEY_LINE.exec(line);
    if (!match) {
      pushItems(indent, DASHES.exec(line)?.[2] ?? "");
      continue;
    }
    const col = pushItems(match[1]!.length, match[2]!);
    pushKey(col, unquote(match[3]!));
    if (/^[|>][-+0-9]*\s*(#.*)?$/.test(match[4]!)) blockScalarCol = col;
  }
  const current = text.slice(lineStart, offset);
  const match = KEY_LINE.exec(current);
  if (match) {
    const col = pushItems(match[1]!.length, match[2]!);
    while (stack.length > 1 && top().col >= col) stack.pop();
    const value = match[4]!;
    const path = [...pathOf(stack), unquote(match[3]!)];
    if (/^[[{]/.test(value)) return flowContext(path, value, offset);
    return { path, position: "value", prefix: value, tokenStart: offset - value.length, quoted: false, existingKeys: [] };
  }
  const dashes = DASHES.exec(current)!;
  const col = pushItems(dashes[1]!.length, dashes[2]!);
  const prefix = current.slice(dashes[0].length);
  while (stack.length > 1 && top().col >= col) stack.pop();
  if (prefix.startsWith("{")) return flowContext(pathOf(stack), prefix, offset);
  return { path: pathOf(stack), position: "key", prefix, tokenStart: offset - prefix.length, quoted: false, existingKeys: [...top().keys] };
}

/** One level of YAML flow style: `[A, B` (a list item) or `{name: P, type: I` (a mapping). */
function flowContext(path: PathSegment[], value: string, offset: number): CursorContext {
  const parts = value.slice(1).split(",");
  const last = parts[parts.length - 1]!;
  const prefix = last.trimStart();
  const base = { quoted: false, existingKeys: [] as string[] };
  if (value.startsWith("[")) return { ...base, path: [...path, parts.length - 1], position: "value", prefix, tokenStart: offset - prefix.length };
  const colon = prefix.indexOf(":");
  if (colon >= 0) {
    const after = prefix.slice(colon + 1).trimStart();
    return { ...base, path: [...path, prefix.slice(0, colon).trim()], position: "value", prefix: after, tokenStart: offset - after.length };
  }
  const keys = parts.slice(0, -1).map((p) => p.split(":")[0]!.trim());
  return { ...base, path, position: "key", prefix, tokenStart: offset - prefix.length, existingKeys: keys };
}

function pathOf(stack: readonly Frame[]): PathSegment[] {
  return stack.flatMap((f) => (f.segment === null ? [] : [f.segment]));
}

interface JsonFrame {
  kind: "object" | "array";
  segment: PathSegment | null;
  keys: string[];
  key: string | null;
  expectingKey: boolean;
  index: number;
}

function jsonContext(text: string, offset: number): CursorContext {
  const stack: JsonFrame[] = [];
  let i = 0;
  let lastString: string | null = null;
  const open = (kind: JsonFrame["kind"]) => {
    const parent = stack[stack.length - 1];
    const segment = parent ? (parent.kind === "object" ? parent.key : parent.index) : null;
    stack.push({ kind, segment, keys: [], key: null, expectingKey: kind === "object", index: 0 });
  };
  while (i < offset) {
    const c = text[i]!;
    const frame = stack[stack.length - 1];
    if (c === '"') {
      let j = i + 1;
      while (j < offset && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (j >= offset) return jsonResult(stack, text.slice(i + 1, offset), i, true);
      lastString = text.slice(i + 1, j);
      i = j + 1;
      continue;
    }
    if (c === "{" || c === "[") open(c === "{" ? "object" : "array");
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ":" && frame?.kind === "object") {
      frame.key = lastString ?? "";
      frame.keys.push(frame.key);
      frame.expectingKey = false;
    } else if (c === ",") {
      if (frame?.kind === "object") frame.expectingKey = true;
      else if (frame) frame.index++;
    }
    i++;
  }
  const word = /[A-Za-z0-9_.$-]*$/.exec(text.slice(0, offset))![0];
  return jsonResult(stack, word, offset - word.length, false);
}

function jsonResult(stack: readonly JsonFrame[], prefix: string, tokenStart: number, quoted: boolean): CursorContext {
  const path = stack
    .slice(1)
    .map((f) => f.segment!)
    .filter((s) => s !== null);
  const frame = stack[stack.length - 1];
  if (frame?.kind === "object" && frame.expectingKey) return { path, position: "key", prefix, tokenStart, quoted, existingKeys: [...frame.keys] };
  const field = frame?.kind === "object" ? [frame.key ?? ""] : frame ? [frame.index] : [];
  return { path: [...path, ...field], position: "value", prefix, tokenStart, quoted, existingKeys: [] };
}
