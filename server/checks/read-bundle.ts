/**
 * A job bundle .zip uploaded to the library, read the way a check thread reads a template: the
 * base64 decoded, the zip inflated, its parameter values parsed and made plain JSON, its template
 * inspected. A small parameter_values file can take the YAML parser seconds, so none of this
 * runs on the server's event loop (server/checks/run-checks.ts readBundleOffLoop). Pure.
 */
import { nodeToValue, type ParameterInput, type SourceNode } from "../../lib/openjd";
import { readBundleTexts, readZipBundle, type BundleError, type JobBundleResult } from "../services/job-bundle";
import { inspectTemplateText, type InspectedTemplate } from "./inspect-template-text";
import type { TemplateText } from "./validate-submission";

export type ReadBundle = { ok: true; template: TemplateText; parameterValues: Record<string, unknown>; inspected: InspectedTemplate } | { ok: false; error: BundleError };

/** A .zip (base64), or a folder's bundle files sent as texts (`files`, named `fileName`). */
export function readUploadedBundle(base64: string, fileName: string, files?: Readonly<Record<string, string>>): ReadBundle {
  return prepared(files ? readBundleTexts(files, fileName) : readZipBundle(Buffer.from(base64, "base64"), fileName));
}

function prepared(read: JobBundleResult): ReadBundle {
  if (!read.ok) return read;
  const { template, parameterValues } = read.bundle;
  return { ok: true, template, parameterValues: plainValues(parameterValues), inspected: inspectTemplateText(template.text, template.format) };
}

/** Bundle values as JSON: integers beyond double precision stay exact as decimal strings (INT accepts them). */
function plainValues(values: Record<string, ParameterInput>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, plain(value)]));
}

function plain(value: ParameterInput): unknown {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") return plain(nodeToValue(value as SourceNode) as ParameterInput);
  return value;
}
