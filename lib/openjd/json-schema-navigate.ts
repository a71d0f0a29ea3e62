/**
 * Reading a JSON Schema at a path inside a document: what keys an object there may have, what
 * values a field there may take, and its documentation. The editor's completions and hover docs
 * are built on these; `anyOf` branches are merged, since the editor cannot know yet which one
 * the author means.
 */
import { resolveRef } from "./json-schema-check";
import type { JsonSchema } from "./json-schema-types";

export type SchemaPathSegment = string | number;

/** Every schema that applies at `path` (several when anyOf branches fork). */
export function schemasAt(root: JsonSchema, path: readonly SchemaPathSegment[]): JsonSchema[] {
  let current = expand([root], root);
  for (const segment of path) {
    const next: JsonSchema[] = [];
    for (const schema of current) {
      if (typeof segment === "number") {
        if (schema.items) next.push(schema.items);
      } else if (schema.properties && Object.hasOwn(schema.properties, segment)) next.push(schema.properties[segment]!);
      else if (typeof schema.additionalProperties === "object") next.push(schema.additionalProperties);
    }
    current = expand(next, root);
    if (current.length === 0) break;
  }
  return current;
}

function expand(schemas: readonly JsonSchema[], root: JsonSchema): JsonSchema[] {
  const out: JsonSchema[] = [];
  const visit = (schema: JsonSchema, depth: number) => {
    const resolved = resolveRef(schema, root);
    out.push(resolved);
    // Branches inherit the description written beside them (`{description, anyOf: [...]}`).
    if (depth < 8) for (const branch of resolved.anyOf ?? []) visit({ description: resolved.description, ...branch }, depth + 1);
  };
  for (const schema of schemas) visit(schema, 0);
  return out;
}

export interface PropertyInfo {
  name: string;
  description: string;
  required: boolean;
  /** What the value is: "object", "list", or a scalar type, for the completion's detail. */
  shape: string;
}

/** The keys an object at this place may hold, in schema order, each once. */
export function propertiesOf(schemas: readonly JsonSchema[], root: JsonSchema): PropertyInfo[] {
  const seen = new Map<string, PropertyInfo>();
  for (const schema of schemas) {
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if (seen.has(name)) continue;
      const resolved = resolveRef(property, root);
      seen.set(name, { name, description: resolved.description ?? "", required: schema.required?.includes(name) ?? false, shape: shapeOf(resolved) });
    }
  }
  return [...seen.values()];
}

function shapeOf(schema: JsonSchema): string {
  const types = schema.type !== undefined ? [schema.type].flat() : (schema.anyOf ?? []).flatMap((b) => (b.type !== undefined ? [b.type].flat() : []));
  const names = [...new Set(types.map((t) => (t === "array" ? "list" : t)))];
  return names.length > 0 ? names.join(" | ") : "any";
}

/** Values worth offering at this place: enum and const values, examples, booleans. */
export function valuesOf(schemas: readonly JsonSchema[]): Array<string | number | boolean> {
  const values = new Set<string | number | boolean>();
  for (const schema of schemas) {
    if (schema.const !== undefined) values.add(schema.const);
    for (const value of schema.enum ?? []) values.add(value);
    for (const value of schema.examples ?? []) if (typeof value !== "object") values.add(value as string);
    if (schema.type === "boolean") [true, false].forEach((v) => values.add(v));
  }
  return [...values];
}
