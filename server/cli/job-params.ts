/**
 * `-p` job parameter arguments, as openjd-cli reads them: `Key=Value` (split at the first `=`),
 * an inline JSON object `{...}`, or `file://path` to a JSON or YAML mapping. Later ones win.
 */
import { readFileSync } from "node:fs";
import { parseSource, detectFormat } from "../../lib/openjd/parse-source";
import type { ParameterInput } from "../../lib/openjd/job/parameter-values";
import type { SourceNode } from "../../lib/openjd/source-node";
import { UsageError } from "./args";

export function parseJobParameters(args: readonly string[]): Record<string, ParameterInput> {
  const values: Record<string, ParameterInput> = {};
  for (const raw of args) {
    const arg = raw.trim();
    if (arg.startsWith("file://")) Object.assign(values, mappingEntries(readParameterFile(arg.slice("file://".length)), arg));
    else if (/^\{.*\}$/s.test(arg)) Object.assign(values, mappingEntries(parseText(arg, "json", arg), arg));
    else {
      const eq = arg.indexOf("=");
      if (eq <= 0) {
        throw new UsageError(`job parameter '${arg}' is not KEY=VALUE, an inline JSON object, or file://PATH to a JSON or YAML file`);
      }
      values[arg.slice(0, eq)] = arg.slice(eq + 1);
    }
  }
  return values;
}

function readParameterFile(file: string): SourceNode {
  const format = detectFormat(file);
  if (format === null) throw new UsageError(`'${file}' is not JSON or YAML`);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UsageError(`'${file}' does not exist`);
  }
  return parseText(text, format, file);
}

function parseText(text: string, format: "json" | "yaml", label: string): SourceNode {
  const parsed = parseSource(text, format);
  if (!parsed.root) throw new UsageError(`job parameters in ${label} could not be read: ${parsed.errors[0]?.message ?? "empty"}`);
  return parsed.root;
}

function mappingEntries(node: SourceNode, label: string): Record<string, ParameterInput> {
  if (node.kind !== "object") throw new UsageError(`job parameters in ${label} must be a mapping of names to values`);
  return Object.fromEntries(node.entries.map((e) => [e.key, e.value]));
}
