/**
 * Finding cases in the public conformance suite's layout: bare templates under `job_templates/`
 * and `env_templates/`, job tests `jobs/*.test.yaml`; `.invalid` in a name means "must fail";
 * anything under `proposed/` is reported apart because upstream has not agreed on it yet.
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

export type CaseKind = "job-template" | "environment-template" | "job";

export interface ConformanceCase {
  file: string;
  /** Path shown in reports: relative to the current directory. */
  display: string;
  kind: CaseKind;
  expectInvalid: boolean;
  proposed: boolean;
}

const TEMPLATE_FILE = /\.(ya?ml|json)$/i;

export function discoverCases(roots: readonly string[], cwd: string): ConformanceCase[] {
  const cases: ConformanceCase[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    for (const file of walk(root)) {
      if (seen.has(file)) continue;
      seen.add(file);
      const kind = classify(file);
      if (!kind) continue;
      const name = file.split(sep).at(-1) ?? file;
      cases.push({
        file,
        display: relative(cwd, file) || file,
        kind,
        expectInvalid: name.includes(".invalid."),
        proposed: file.split(sep).includes("proposed"),
      });
    }
  }
  return cases.sort((a, b) => a.display.localeCompare(b.display));
}

function classify(file: string): CaseKind | null {
  const parts = file.split(sep);
  const name = parts.at(-1) ?? "";
  if (parts.includes("jobs")) return name.endsWith(".test.yaml") || name.endsWith(".test.yml") ? "job" : null;
  if (!TEMPLATE_FILE.test(name)) return null;
  if (parts.includes("job_templates")) return "job-template";
  if (parts.includes("env_templates")) return "environment-template";
  return null;
}

function* walk(path: string): Generator<string> {
  const stats = statSync(path);
  if (stats.isFile()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) yield* walk(join(path, entry));
}
