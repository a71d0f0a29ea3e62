/**
 * Robustness of the EXPR language: generated, mutated and token-soup expressions (and format
 * strings holding them) must parse or fail with a located syntax error, then evaluate with
 * concrete symbols and type-check with unresolved ones, or fail with a located ExprError, and
 * never throw anything else. Every pathological input must end honestly (a limit, a syntax
 * error for nesting, an overflow…). 1,500 cases here, with lowered budgets so the suite stays
 * fast; `npm run test:robustness:expr` runs 12,000 at the spec's budgets and enforces 1 s.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { caseFailures, generateExprCase, runExprCase, runPathological } from "../testing/expr-case";
import { BUILT_IN_EXPRESSIONS, expressionsInDocument } from "../testing/expr-corpus";
import { VOCABULARY } from "../testing/expr-mutations";
import { pathologicalExpressions } from "../testing/expr-pathological";
import { standardLibrary } from "./functions";

const SEEDED_CASES = 1200;
const FAST_CHECK_RUNS = 150;
const SEED = 20_230_914;
const HANG_MS = 5000;
/** A tenth of the spec's budgets: limit errors still happen, and no case can take long. */
const LIMITS = { operations: 1_000_000, memoryBytes: 10_000_000 };
const libraries = { template: standardLibrary("template"), host: standardLibrary("host") };

/** Expressions of the samples and EXPR conformance templates, found as scripts/conformance-gate.mjs finds them. */
function loadCorpus(): string[] {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
  const samples = resolve(process.env.OPENJD_SAMPLES_DIR ?? join(root, "..", "shared", "openjd-samples"));
  const walk = (dir: string, deep: boolean): string[] =>
    !existsSync(dir)
      ? []
      : readdirSync(dir)
          .sort()
          .flatMap((f) => {
            const path = join(dir, f);
            return statSync(path).isDirectory() ? (deep ? walk(path, true) : []) : /\.(ya?ml|json)$/.test(f) ? [path] : [];
          });
  const files = [...walk(samples, false), ...walk(join(samples, "conformance", "2023-09", "EXPR"), true)];
  const found = files.flatMap((file) =>
    parseAllDocuments(readFileSync(file, "utf8")).flatMap((doc) =>
      "toJS" in doc && doc.errors.length === 0 ? expressionsInDocument(doc.toJS({ maxAliasCount: 100 }), file, libraries.host).map((e) => e.source) : [],
    ),
  );
  return [...new Set(found)];
}

describe("EXPR robustness", () => {
  const loaded = loadCorpus();
  const corpus = loaded.length > 0 ? loaded : [...BUILT_IN_EXPRESSIONS];

  it("regenerates a case from its seed", () => {
    expect(generateExprCase(SEED, 42, corpus, libraries)).toEqual(generateExprCase(SEED, 42, corpus, libraries));
  });

  it(`answers ${SEEDED_CASES} generated and mutated expressions with a value or a located error`, () => {
    const failures: string[] = [];
    const outcomes = new Map<string, number>();
    for (let index = 0; index < SEEDED_CASES; index++) {
      const testCase = generateExprCase(SEED, index, corpus, libraries);
      const outcome = runExprCase(testCase, libraries, LIMITS);
      failures.push(...caseFailures(`case ${index} ${JSON.stringify(testCase.source.slice(0, 200))}`, outcome, HANG_MS));
      outcomes.set(outcome.evaluated, (outcomes.get(outcome.evaluated) ?? 0) + 1);
    }
    console.info(`expr robustness: ${SEEDED_CASES} cases over ${corpus.length} corpus expressions: ${[...outcomes].map(([k, v]) => `${k} ${v}`).join(", ")}`);
    expect(failures.slice(0, 10)).toEqual([]);
    // The generator must mostly produce valid expressions, or evaluation is barely exercised.
    expect(outcomes.get("ok") ?? 0).toBeGreaterThan(SEEDED_CASES / 5);
    expect(outcomes.get("limit") ?? 0).toBeGreaterThan(0);
  });

  it(`answers ${FAST_CHECK_RUNS} sequences of the language's tokens`, () => {
    const source = fc
      .array(fc.oneof(fc.constantFrom(...VOCABULARY), fc.constantFrom(...corpus)), { minLength: 1, maxLength: 12 })
      .chain((tokens) => fc.constantFrom(tokens.join(" "), tokens.join("")));
    fc.assert(
      fc.property(source, fc.boolean(), (text, format) => {
        const outcome = runExprCase({ kind: "fast-check", source: format ? `a {{ ${text} }} b` : text, format, host: false }, libraries, LIMITS);
        expect(caseFailures("fast-check", outcome, HANG_MS)).toEqual([]);
      }),
      { numRuns: FAST_CHECK_RUNS, seed: SEED },
    );
  });

  it(`answers ${FAST_CHECK_RUNS} arbitrary strings`, () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.boolean(), (text, format) => {
        const outcome = runExprCase({ kind: "fast-check", source: text, format, host: true }, libraries, LIMITS);
        expect(caseFailures("fast-check", outcome, HANG_MS)).toEqual([]);
      }),
      { numRuns: FAST_CHECK_RUNS, seed: SEED },
    );
  });

  it.each(pathologicalExpressions().map((input) => [input.name, input] as const))("pathological input: %s", (_name, input) => {
    const result = runPathological(input, libraries, LIMITS);
    // Every function the inputs call is registered, so none may be skipped (a skipped input asserts nothing).
    expect(result.skipped, `${input.name} calls a function the library does not have`).toBe(false);
    expect(caseFailures(input.name, result.outcome, HANG_MS)).toEqual([]);
    expect(input.expect, `ended in ${result.observed}, check ${result.outcome.checked}`).toContain(result.observed);
    expect(input.expect).toContain(result.outcome.checked);
  });
});
