/**
 * Robustness of the template front door: mutated corpus templates and pathological inputs must
 * come back as a typed template or located errors, never as an exception, a hang or a crash.
 * This runs 1,500 cases; `npm run test:robustness` runs 12,000 and enforces the 1 s budget.
 * Timing here only catches hangs (5 s for one case): speed is measured in bench/.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createJob } from "./job/create-job";
import { detectFormat } from "./parse-source";
import { pathologicalInputs } from "./testing/pathological-templates";
import { generateCase, runCase, type CaseOutcome } from "./testing/robustness-case";
import { SEED_TEMPLATES } from "./testing/seed-templates";
import { checkTemplateText } from "./template";
import { FIELD_NAMES, parseTree, writeTree, type SeedTemplate, type TreeValue } from "./testing/template-mutator";

const CASES = 1500;
const GENERATED_RUNS = 300;
const SEED = 20_230_901;
const HANG_MS = 5000;

/** The samples and conformance templates, found as scripts/conformance-gate.mjs finds them. */
function loadCorpus(): SeedTemplate[] {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const samples = resolve(process.env.OPENJD_SAMPLES_DIR ?? join(root, "..", "shared", "openjd-samples"));
  const suite = join(samples, "conformance", "2023-09");
  const dirs = [samples];
  if (existsSync(suite)) for (const folder of readdirSync(suite).sort()) dirs.push(join(suite, folder, "job_templates"), join(suite, folder, "env_templates"));
  return dirs
    .filter((dir) => existsSync(dir))
    .flatMap((dir) =>
      readdirSync(dir)
        .sort()
        .flatMap((file) => {
          const format = detectFormat(file);
          return format ? [{ name: file, text: readFileSync(join(dir, file), "utf8"), format }] : [];
        }),
    );
}

function describeFailure(label: string, outcome: CaseOutcome): string[] {
  const out = outcome.problems.map((p) => `${label} (${outcome.kind}): ${p}`);
  if (outcome.exception) {
    const { stage, error } = outcome.exception;
    out.push(`${label} (${outcome.kind}): ${stage} threw ${error instanceof Error ? error.stack : String(error)}`);
  }
  if (outcome.ms > HANG_MS) out.push(`${label} (${outcome.kind}): took ${outcome.ms.toFixed(0)} ms`);
  return out;
}

/** Template-shaped trees: OpenJD keys at any depth, scalars that OpenJD fields care about. */
const scalar: fc.Arbitrary<TreeValue> = fc.oneof(
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom("jobtemplate-2023-09", "INT", "FLOAT", "STRING", "PATH", "CHUNK[INT]", "TASK_CHUNKING", "FEATURE_BUNDLE_1", "1-10", "{{Param.A}}", "{{Task.Param.A}}", "A", "A * B", "echo", ""),
  fc.bigInt({ min: -(1n << 64n), max: 1n << 64n }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const { tree } = fc.letrec<{ tree: TreeValue }>((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("tree"), { maxLength: 4 }), fc.dictionary(fc.constantFrom(...FIELD_NAMES), tie("tree"), { maxKeys: 5 })),
}));
const generatedTemplate = fc
  .tuple(fc.constantFrom("jobtemplate-2023-09", "environment-2023-09"), fc.dictionary(fc.constantFrom(...FIELD_NAMES), tree, { maxKeys: 6 }))
  .map(([version, rest]): TreeValue => ({ specificationVersion: version, ...rest }));

describe("template robustness", () => {
  const found = loadCorpus();
  const corpus = found.length > 0 ? found : SEED_TEMPLATES;
  const donors = corpus.map((t) => parseTree(t.text)).filter((t): t is TreeValue => t !== null && typeof t === "object");

  it("regenerates a case from its seed", () => {
    expect(generateCase(SEED, 42, corpus, donors)).toEqual(generateCase(SEED, 42, corpus, donors));
  });

  it(`answers ${CASES} mutated templates with a template or located errors`, () => {
    const failures: string[] = [];
    let slowest = { ms: 0, kind: "" };
    let valid = 0;
    let jobs = 0;
    for (let index = 0; index < CASES; index++) {
      const testCase = generateCase(SEED, index, corpus, donors);
      const outcome = runCase(testCase);
      failures.push(...describeFailure(`case ${index} from ${testCase.seedName}`, outcome));
      if (outcome.ms > slowest.ms) slowest = { ms: outcome.ms, kind: `case ${index}: ${outcome.kind}` };
      if (outcome.valid) valid++;
      if (outcome.jobCreated) jobs++;
    }
    console.info(`robustness: ${CASES} cases from ${corpus.length} templates, ${valid} valid, ${jobs} jobs; slowest ${slowest.ms.toFixed(0)} ms (${slowest.kind})`);
    expect(failures.slice(0, 10)).toEqual([]);
    // Some mutations keep templates valid, so job creation with hostile values is exercised too.
    expect(valid).toBeGreaterThan(CASES / 20);
    expect(jobs).toBeGreaterThan(0);
  });

  it(`answers ${GENERATED_RUNS} generated template-shaped documents`, () => {
    fc.assert(
      fc.property(generatedTemplate, fc.constantFrom("yaml" as const, "json" as const), (generated, format) => {
        const outcome = runCase({ text: writeTree(generated, format), format, kind: "fast-check", seedName: "fast-check", seed: 1 });
        expect(describeFailure("generated", outcome)).toEqual([]);
      }),
      { numRuns: GENERATED_RUNS, seed: SEED },
    );
  });

  it("counts a 16-parameter space of 1024 values each without materializing it", () => {
    const input = pathologicalInputs().find((p) => p.name === "16 parameters × 1024 values")!;
    const checked = checkTemplateText(input.text, input.format);
    expect(checked.errors).toEqual([]);
    const created = checked.template?.kind === "job" ? createJob({ template: checked.template.template }) : null;
    expect(created?.ok).toBe(true);
    const space = created?.ok ? created.job.steps[0]!.parameterSpace : null;
    expect(space?.count).toBe(1024 ** 16);
    const task = space?.at(Number.MAX_SAFE_INTEGER) ?? {};
    expect(Object.keys(task)).toHaveLength(16);
    expect(space?.contains(task)).toBe(true);
  });

  it.each(pathologicalInputs().map((input) => [input.name, input] as const))("pathological input: %s", (_name, input) => {
    const outcome = runCase({ ...input, kind: input.name, seedName: "pathological", seed: 0 }, "defaults");
    expect(describeFailure(input.name, outcome)).toEqual([]);
    if (input.expect === "error") expect(outcome.valid, "must be rejected").toBe(false);
  });
});
