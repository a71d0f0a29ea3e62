/**
 * `-p` job parameter arguments, as openjd-cli reads them: `Key=Value` (split at the first `=`),
 * an inline JSON object `{...}`, or `file://path` to a JSON or YAML mapping. Later ones win.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { detectFormat, type ParameterInput, parseSource, type SourceNode } from "../../lib/openjd";
import { UsageError } from "./args";

/** `cwd` is where relative `file://` paths are found. */
export function parseJobParameters(args: readonly string[], cwd = "."): Record<string, ParameterInput> {
  // A Map, not property assignment: `__proto__` is a valid parameter name and must stay an own key.
  const values = new Map<string, ParameterInput>();
  const add = (entries: ReadonlyArray<[string, ParameterInput]>) => entries.forEach(([key, value]) => values.set(key, value));
  for (const raw of args) {
    const arg = raw.trim();
    if (arg.startsWith("file://")) add(mappingEntries(readParameterFile(arg.slice("file://".length), cwd), arg));
    else if (/^\{.*\}$/s.test(arg)) add(mappingEntries(parseText(arg, "json", arg), arg));
    else {
      const eq = arg.indexOf("=");
      if (eq <= 0) {
        throw new UsageError(`job parameter '${arg}' is not KEY=VALUE, an inline JSON object, or file://PATH to a JSON or YAML file`);
      }
      values.set(arg.slice(0, eq), arg.slice(eq + 1));
    }
  }
  return Object.fromEntries(values);
}

function readParameterFile(file: string, cwd: string): SourceNode {
  const format = detectFormat(file);
  if (format === null) throw new UsageError(`'${file}' is not JSON or YAML`);
  let text: string;
  try {
    text = readFileSync(resolve(cwd, file), "utf8");
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

function mappingEntries(node: SourceNode, label: string): Array<[string, ParameterInput]> {
  if (node.kind !== "object") throw new UsageError(`job parameters in ${label} must be a mapping of names to values`);
  return node.entries.map((e) => [e.key, e.value]);
}
