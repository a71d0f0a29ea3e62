/**
 * The OpenJD template corpus the benchmarks run over: the samples in ../shared/openjd-samples
 * (or $OPENJD_SAMPLES_DIR, as scripts/conformance-gate.mjs resolves it) and the job and
 * environment templates of every conformance folder, valid and invalid alike.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { detectFormat } from "../lib/openjd";
import type { SeedTemplate } from "../lib/openjd/testing";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function samplesDir(): string {
  return resolve(process.env.OPENJD_SAMPLES_DIR ?? join(REPO_ROOT, "..", "shared", "openjd-samples"));
}

function templatesIn(dir: string, base: string): SeedTemplate[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((file) => {
      const format = detectFormat(file);
      const path = join(dir, file);
      return format ? [{ name: relative(base, path), text: readFileSync(path, "utf8"), format }] : [];
    });
}

/** Every template found, in a stable order; empty when the samples are not on disk. */
export function loadCorpus(dir = samplesDir()): SeedTemplate[] {
  const templates = templatesIn(dir, dir);
  const suite = join(dir, "conformance", "2023-09");
  if (existsSync(suite)) {
    for (const folder of readdirSync(suite).sort()) {
      templates.push(...templatesIn(join(suite, folder, "job_templates"), dir), ...templatesIn(join(suite, folder, "env_templates"), dir));
    }
  }
  return templates;
}
