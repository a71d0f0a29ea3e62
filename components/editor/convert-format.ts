/**
 * The editor's format: detected from the text (JSON starts with `{`), and converted between
 * YAML and JSON when the author switches. Integers keep their exact digits and floats their
 * written form in JSON output; YAML comments do not survive a trip through JSON.
 */
import { stringify } from "yaml";
import { type DocumentFormat, nodeToValue, parseSource, type SourceNode } from "@/lib/openjd";

export function detectContentFormat(text: string): DocumentFormat {
  return /^\s*[{[]/.test(text) ? "json" : "yaml";
}

export type Conversion = { ok: true; text: string } | { ok: false; message: string };

export function convertTemplate(text: string, from: DocumentFormat, to: DocumentFormat): Conversion {
  if (from === to) return { ok: true, text };
  const source = parseSource(text, from);
  if (source.root === null) {
    const first = source.errors[0];
    return { ok: false, message: `fix the ${from.toUpperCase()} syntax first${first?.line ? ` (${first.line}:${first.column ?? 1})` : ""}: ${first?.message ?? "the document is empty"}` };
  }
  if (to === "json") return { ok: true, text: `${toJson(source.root, "")}\n` };
  return { ok: true, text: stringify(nodeToValue(source.root), { lineWidth: 0 }) };
}

function toJson(node: SourceNode, indent: string): string {
  const inner = `${indent}  `;
  switch (node.kind) {
    case "object":
      if (node.entries.length === 0) return "{}";
      return `{\n${node.entries.map((e) => `${inner}${JSON.stringify(e.key)}: ${toJson(e.value, inner)}`).join(",\n")}\n${indent}}`;
    case "array":
      if (node.items.length === 0) return "[]";
      return `[\n${node.items.map((item) => `${inner}${toJson(item, inner)}`).join(",\n")}\n${indent}]`;
    case "int":
      return node.value.toString();
    case "float":
      // The written text when it is valid JSON ("1.50"), else the number (YAML's ".5", "1e3").
      return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(node.text) ? node.text : String(node.value);
    case "string":
      return JSON.stringify(node.value);
    case "bool":
      return String(node.value);
    case "null":
      return "null";
  }
}
