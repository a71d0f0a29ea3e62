/**
 * The subset of JSON Schema (draft-07) the published template schemas use, typed so the schema
 * data is checked by the compiler and the walkers (json-schema-check, json-schema-navigate) know
 * every keyword they must handle.
 */
export type JsonType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";

export interface JsonSchema {
  $schema?: string;
  $id?: string;
  $ref?: string;
  title?: string;
  /** Shown as hover documentation and beside completions. */
  description?: string;
  type?: JsonType | JsonType[];
  enum?: ReadonlyArray<string | number | boolean>;
  const?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: readonly JsonSchema[];
  default?: unknown;
  /** Values offered as completions without restricting what is valid. */
  examples?: readonly unknown[];
  definitions?: Record<string, JsonSchema>;
}
