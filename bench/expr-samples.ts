/**
 * Reads the EXPR corpus from disk: every `{{ … }}` and `let` expression in the samples and in
 * the EXPR and WRAP_ACTIONS conformance folders (found as scripts/conformance-gate.mjs finds
 * them: $OPENJD_SAMPLES_DIR or ../shared/openjd-samples). Empty when they are not there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseAllDocuments } from "yaml";
import { standardLibrary } from "../lib/openjd";
import { type CorpusExpression, expressionsInDocument } from "../lib/openjd/testing";
import { samplesDir } from "./corpus";

function filesUnder(dir: string, recursive: boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return recursive ? filesUnder(path, true) : [];
      return /\.(ya?ml|json)$/.test(name) ? [path] : [];
    });
}

export function loadExprCorpus(dir = samplesDir()): CorpusExpression[] {
  const suite = join(dir, "conformance", "2023-09");
  const files = [...filesUnder(dir, false), ...filesUnder(join(suite, "EXPR"), true), ...filesUnder(join(suite, "WRAP_ACTIONS"), true)];
  const library = standardLibrary("host");
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(file, "utf8")).flatMap((doc) => {
      if (!("toJS" in doc) || doc.errors.length > 0) return [];
      return expressionsInDocument(doc.toJS({ maxAliasCount: 100 }), relative(dir, file), library);
    }),
  );
}
