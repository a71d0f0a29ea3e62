/** Reading template files for the CLI: existence, format by extension, parse and validate. */
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { checkTemplateText, type CheckedTemplate } from "../../lib/openjd/template";
import { detectFormat } from "../../lib/openjd/parse-source";
import type { Template } from "../../lib/openjd/model";

export class FileProblem extends Error {}

export interface LoadedTemplate extends CheckedTemplate {
  file: string;
  directory: string;
}

export function readTemplateFile(file: string, expected?: Template["kind"]): LoadedTemplate {
  let stats;
  try {
    stats = statSync(file);
  } catch {
    throw new FileProblem(`'${file}' does not exist.`);
  }
  if (!stats.isFile()) throw new FileProblem(`'${file}' is not a file.`);
  const format = detectFormat(file);
  if (format === null) throw new FileProblem(`'${file}' is not JSON or YAML (expected a .json, .yaml or .yml file).`);
  const text = readFileSync(file, "utf8");
  return { ...checkTemplateText(text, format, expected), file, directory: dirname(resolve(file)) };
}
