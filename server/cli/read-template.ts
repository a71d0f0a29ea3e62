/** Reading template files for the CLI: existence, format by extension, parse and validate. */
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type CheckedTemplate, checkTemplateText, detectFormat, type Template } from "../../lib/openjd";

export class FileProblem extends Error {}

export interface LoadedTemplate extends CheckedTemplate {
  file: string;
  directory: string;
}

/** Reads `file` (relative to `cwd`, the process's by default); messages name it as given. */
export function readTemplateFile(file: string, options: { cwd?: string; expected?: Template["kind"] } = {}): LoadedTemplate {
  const path = resolve(options.cwd ?? ".", file);
  let stats;
  try {
    stats = statSync(path);
  } catch {
    throw new FileProblem(`'${file}' does not exist.`);
  }
  if (!stats.isFile()) throw new FileProblem(`'${file}' is not a file.`);
  const format = detectFormat(file);
  if (format === null) throw new FileProblem(`'${file}' is not JSON or YAML (expected a .json, .yaml or .yml file).`);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    // A file that stats fine can still fail to read (permissions, I/O errors, special files).
    throw new FileProblem(`'${file}' could not be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`);
  }
  return { ...checkTemplateText(text, format, options.expected), file, directory: dirname(path) };
}
