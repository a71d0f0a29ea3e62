/**
 * Completions and hover docs from the template JSON Schema (lib/openjd/json-schema), computed
 * from text and an offset only, so the Monaco providers are thin and this is tested with tables.
 */
import { type DocumentFormat, formatPath, propertiesOf, schemaForText, schemasAt, valuesOf } from "@/lib/openjd";
import { cursorContext, KEY_LINE, unquote } from "./cursor-context";

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

export function suggestionsAt(text: string, offset: number, format: DocumentFormat): Suggestions {
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
export function hoverAt(text: string, offset: number, format: DocumentFormat): Hover | null {
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

/** The whole line the offset is on, and where it starts. */
function lineAt(text: string, offset: number): { lineStart: number; line: string } {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const lineEnd = text.indexOf("\n", offset);
  return { lineStart, line: text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd) };
}

function yamlKeyAt(text: string, offset: number): { key: string; start: number; end: number } | null {
  const { lineStart, line } = lineAt(text, offset);
  const match = KEY_LINE.exec(line);
  if (!match) return null;
  const start = lineStart + match[1]!.length + match[2]!.length;
  const raw = match[3]!;
  return offset >= start && offset <= lineStart + line.length ? { key: unquote(raw), start, end: start + raw.length } : null;
}

function jsonKeyAt(text: string, offset: number): { key: string; start: number; end: number } | null {
  const { lineStart, line } = lineAt(text, offset);
  for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"\s*:/g)) {
    const start = lineStart + match.index;
    const end = start + match[1]!.length + 2;
    if (offset >= start && offset <= end) return { key: match[1]!, start, end };
  }
  return null;
}
