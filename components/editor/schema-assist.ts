/**
 * Completions and hover docs from the template JSON Schema (lib/openjd/json-schema), computed
 * from text and an offset only, so the Monaco providers are thin and this is tested with tables.
 */
import { schemaForText } from "@/lib/openjd/json-schema";
import { propertiesOf, schemasAt, valuesOf } from "@/lib/openjd/json-schema-navigate";
import { cursorContext, KEY_LINE, type ContextSegment } from "./cursor-context";

export type Format = "yaml" | "json";

export interface Suggestion {
  label: string;
  insertText: string;
  kind: "property" | "value";
  detail: string;
  documentation: string;
}

export interface Suggestions {
  /** Offset from which the typed token is replaced by the chosen item. */
  replaceFrom: number;
  items: Suggestion[];
}

export function suggestionsAt(text: string, offset: number, format: Format): Suggestions {
  const schema = schemaForText(text);
  const ctx = cursorContext(text, offset, format);
  const here = schemasAt(schema, ctx.path);
  if (ctx.position === "key") {
    const properties = propertiesOf(here, schema).filter((p) => !ctx.existingKeys.includes(p.name));
    if (properties.length > 0) {
      const items = properties.map((p): Suggestion => ({
        label: p.name,
        insertText: format === "json" ? `"${p.name}": ` : `${p.name}: `,
        kind: "property",
        detail: `${p.shape}${p.required ? " (required)" : ""}`,
        documentation: p.description,
      }));
      return { replaceFrom: ctx.tokenStart, items };
    }
  }
  const values = valuesOf(here);
  const description = here.find((s) => s.description)?.description ?? "";
  const items = values.map((v): Suggestion => ({
    label: String(v),
    insertText: format === "json" && typeof v === "string" ? JSON.stringify(v) : String(v),
    kind: "value",
    detail: typeof v,
    documentation: description,
  }));
  return { replaceFrom: ctx.tokenStart, items };
}

export interface Hover {
  start: number;
  end: number;
  /** Markdown. */
  contents: string;
}

/** Documentation of the key under the cursor (or of the key whose value is under it). */
export function hoverAt(text: string, offset: number, format: Format): Hover | null {
  const found = format === "json" ? jsonKeyAt(text, offset) : yamlKeyAt(text, offset);
  if (!found) return null;
  const schema = schemaForText(text);
  const { path } = cursorContext(text, found.start, format);
  const property = propertiesOf(schemasAt(schema, path), schema).find((p) => p.name === found.key);
  if (!property) return null;
  const where = formatPath([...path, found.key]);
  const required = property.required ? " · required" : "";
  return { start: found.start, end: found.end, contents: `**${found.key}** (${property.shape}${required})\n\n${property.description}\n\n\`${where}\`` };
}

function formatPath(path: readonly ContextSegment[]): string {
  return path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

function yamlKeyAt(text: string, offset: number): { key: string; start: number; end: number } | null {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const lineEnd = text.indexOf("\n", offset);
  const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
  const match = KEY_LINE.exec(line);
  if (!match) return null;
  const start = lineStart + match[1]!.length + match[2]!.length;
  const raw = match[3]!;
  const key = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
  return offset >= start && offset <= lineStart + line.length ? { key, start, end: start + raw.length } : null;
}

function jsonKeyAt(text: string, offset: number): { key: string; start: number; end: number } | null {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const lineEnd = text.indexOf("\n", offset);
  const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)) {
    const start = lineStart + match.index;
    const end = start + match[1]!.length + 2;
    if (offset >= start && offset <= end) return { key: match[1]!, start, end };
  }
  return null;
}
