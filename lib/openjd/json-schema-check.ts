/**
 * A minimal JSON Schema validator for the keywords json-schema-types.ts allows. It exists so
 * tests can prove the published schemas accept every valid sample and conformance template (and
 * refuse some invalid ones) without a schema library; editors use their own validators.
 */
import type { JsonSchema, JsonType } from "./json-schema-types";

export interface SchemaProblem {
  path: string;
  message: string;
}

/** Follows a local `$ref` (`#/definitions/x`); keywords beside it (a description) are kept. */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref !== undefined && hops < 32; hops++) {
    const name = /^#\/definitions\/(.+)$/.exec(current.$ref)?.[1];
    const target = name !== undefined ? root.definitions?.[name] : undefined;
    if (!target) throw new Error(`unresolvable $ref ${current.$ref}`);
    const { $ref: _ref, ...beside } = current;
    current = { ...target, ...beside };
  }
  return current;
}

function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "bigint") return "integer";
  return typeof value as JsonType;
}

function typeMatches(value: unknown, types: JsonType | JsonType[]): boolean {
  const actual = typeOf(value);
  return (Array.isArray(types) ? types : [types]).some((t) => t === actual || (t === "number" && actual === "integer"));
}

const join = (path: string, key: string | number) => (typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`);

/** Every problem found, depth first; an empty list means the value conforms. */
export function checkAgainstSchema(value: unknown, schema: JsonSchema, root: JsonSchema = schema, path = ""): SchemaProblem[] {
  const s = resolveRef(schema, root);
  const problems: SchemaProblem[] = [];
  const fail = (message: string) => problems.push({ path, message });
  if (s.anyOf && !s.anyOf.some((branch) => checkAgainstSchema(value, branch, root, path).length === 0)) fail("matches none of the allowed forms");
  if (s.type !== undefined && !typeMatches(value, s.type)) {
    fail(`expected ${Array.isArray(s.type) ? s.type.join(" or ") : s.type}, got ${typeOf(value)}`);
    return problems;
  }
  if (s.const !== undefined && value !== s.const) fail(`must be ${JSON.stringify(s.const)}`);
  if (s.enum && !s.enum.includes(value as string)) fail(`must be one of ${s.enum.join(", ")}`);
  if (typeof value === "string") {
    const length = [...value].length;
    if (s.minLength !== undefined && length < s.minLength) fail(`shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && length > s.maxLength) fail(`longer than ${s.maxLength}`);
    if (s.pattern !== undefined && !new RegExp(s.pattern, "u").test(value)) fail(`does not match ${s.pattern}`);
  }
  if (typeof value === "number") {
    if (s.minimum !== undefined && value < s.minimum) fail(`below ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) fail(`above ${s.maximum}`);
    if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) fail(`not above ${s.exclusiveMinimum}`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) fail(`fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems) fail(`more than ${s.maxItems} items`);
    if (s.items) value.forEach((item, i) => problems.push(...checkAgainstSchema(item, s.items!, root, join(path, i))));
  }
  if (typeOf(value) === "object") {
    const record = value as Record<string, unknown>;
    for (const key of s.required ?? []) if (!Object.hasOwn(record, key)) fail(`missing required '${key}'`);
    for (const [key, item] of Object.entries(record)) {
      const at = join(path, key);
      if (s.propertyNames) problems.push(...checkAgainstSchema(key, s.propertyNames, root, at));
      const property = s.properties?.[key];
      if (property) problems.push(...checkAgainstSchema(item, property, root, at));
      else if (s.additionalProperties === false) problems.push({ path: at, message: `unknown key '${key}'` });
      else if (typeof s.additionalProperties === "object") problems.push(...checkAgainstSchema(item, s.additionalProperties, root, at));
    }
  }
  return problems;
}
