/**
 * Test support for the validator's rule tables: a minimal valid template, a way to apply one
 * change to it (addressed with the same `steps[0].script…` paths the errors use), and
 * assertions that compare errors by path and a distinctive message fragment.
 * Only the *.test.ts files next to it import this module.
 */
import { expect } from "vitest";
import { stringify } from "yaml";
import type { TemplateError } from "../errors";
import { checkTemplateText } from "../template";

// Templates are plain data built by the tests; `any` keeps the tables short.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Doc = Record<string, any>;

/** The catalogue's baseline: `{specificationVersion, name: J, steps: [{name: S, script: …onRun: {command: echo}}]}`. */
export function minimalJob(): Doc {
  return {
    specificationVersion: "jobtemplate-2023-09",
    name: "J",
    steps: [{ name: "S", script: { actions: { onRun: { command: "echo" } } } }],
  };
}

export function minimalEnvironmentTemplate(): Doc {
  return {
    specificationVersion: "environment-2023-09",
    environment: { name: "E", script: { actions: { onEnter: { command: "echo" } } } },
  };
}

const SEGMENT = /[^.[\]]+|\[(\d+)\]/g;

function segments(path: string): Array<string | number> {
  return [...path.matchAll(SEGMENT)].map((m) => (m[1] !== undefined ? Number(m[1]) : m[0]));
}

/** Sets `value` at `path` (creating mappings and lists on the way); `undefined` deletes the field. */
export function set(doc: Doc, path: string, value: unknown): Doc {
  const parts = segments(path);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks a Doc, whose fields are any
  let node: any = doc;
  parts.slice(0, -1).forEach((part, i) => {
    if (node[part] === undefined || node[part] === null) node[part] = typeof parts[i + 1] === "number" ? [] : {};
    node = node[part];
  });
  const last = parts[parts.length - 1] as string | number;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return doc;
}

/** The minimal job template with each `[path, value]` change applied in order. */
export function job(...changes: Array<[path: string, value: unknown]>): Doc {
  return changes.reduce((doc, [path, value]) => set(doc, path, value), minimalJob());
}

/** The minimal job template with these job parameter definitions. */
export function withParams(...definitions: Doc[]): Doc {
  return job(["parameterDefinitions", definitions]);
}

/** The minimal job template with fields merged into its only step. */
export function withStep(fields: Doc): Doc {
  const doc = minimalJob();
  doc.steps[0] = { ...doc.steps[0], ...fields };
  return doc;
}

/** The minimal job template with fields merged into its step's onRun action. */
export function withOnRun(fields: Doc): Doc {
  return job(["steps[0].script.actions.onRun", { command: "echo", ...fields }]);
}

/** A step whose parameter space is these task parameter definitions (and optional combination). */
export function withTaskParams(definitions: Doc[], combination?: string): Doc {
  const space: Doc = { taskParameterDefinitions: definitions };
  if (combination !== undefined) space.combination = combination;
  return withStep({ parameterSpace: space });
}

export function withExtensions(doc: Doc, ...extensions: string[]): Doc {
  return { specificationVersion: doc.specificationVersion, extensions, ...doc };
}

export function toText(doc: Doc, format: "yaml" | "json" = "yaml"): string {
  return format === "json" ? JSON.stringify(doc, null, 2) : stringify(doc, { lineWidth: 0 });
}

export function errorsOf(doc: Doc | string, format: "yaml" | "json" = "yaml"): TemplateError[] {
  const text = typeof doc === "string" ? doc : toText(doc, format);
  return checkTemplateText(text, format).errors;
}

/**
 * YAML and JSON are both first-class: a template written as data is also checked as JSON, and
 * must get the same errors (skipped for int64 values, which JSON.stringify cannot write).
 */
function describedErrors(doc: Doc | string): string[] {
  const yaml = errorsOf(doc).map((e) => `${e.path}: ${e.message}`);
  if (typeof doc !== "string" && !hasBigInt(doc)) {
    expect(
      errorsOf(doc, "json").map((e) => `${e.path}: ${e.message}`),
      "JSON and YAML disagree",
    ).toEqual(yaml);
  }
  return yaml;
}

function hasBigInt(value: unknown): boolean {
  if (typeof value === "bigint") return true;
  return typeof value === "object" && value !== null && Object.values(value).some(hasBigInt);
}

/** One change breaks one rule: every error is at `path`, and one of them matches `message`. */
export function expectError(doc: Doc | string, path: string, message: RegExp): void {
  const errors = describedErrors(doc);
  expect(
    errors.filter((e) => !e.startsWith(`${path}: `)),
    `errors at other paths than ${path}:\n${errors.join("\n")}`,
  ).toEqual([]);
  expect(
    errors.some((e) => message.test(e.slice(path.length + 2))),
    `no error matching ${message} in:\n${errors.join("\n")}`,
  ).toBe(true);
}

export function expectValid(doc: Doc | string): void {
  expect(describedErrors(doc)).toEqual([]);
}

/** Row of an invalid-case table: name, template, expected error path, message fragment. */
export type InvalidRow = [name: string, doc: Doc, path: string, message: RegExp];
/** Row of a valid-case table: name, template. */
export type ValidRow = [name: string, doc: Doc];
