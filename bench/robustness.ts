/**
 * The full robustness run (`npm run test:robustness [-- --cases N --seed S]`): 12,000 mutated
 * templates by default plus every pathological input go through `checkTemplateText` and, when
 * still valid, `createJob`. Fails (exit 1) on any escaped exception, broken result invariant,
 * pathological input that was accepted, or case slower than 1 s. Inputs that threw are saved
 * under bench/results/ so they can be replayed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type CaseOutcome, generateCase, parseTree, pathologicalInputs, runCase, SEED_TEMPLATES, type TreeValue } from "../lib/openjd/testing";
import { loadCorpus, REPO_ROOT, samplesDir } from "./corpus";
import { numberFlag } from "./number-flag";

const SLOW_MS = 1000;
const SAVED_FAILURES = 5;
const args = process.argv.slice(2);
const cases = numberFlag(args, "--cases", 12_000);
const seed = numberFlag(args, "--seed", 1);
const resultsDir = join(REPO_ROOT, "bench", "results");

const loaded = loadCorpus();
const corpus = loaded.length > 0 ? loaded : SEED_TEMPLATES;
const donors = corpus.map((t) => parseTree(t.text)).filter((t): t is TreeValue => t !== null && typeof t === "object");
console.log(`robustness: ${cases} cases, seed ${seed}, ${corpus.length} corpus templates${loaded.length === 0 ? ` (built-in; none at ${samplesDir()})` : ""}`);

const failures: string[] = [];
let saved = 0;
let slowest = { ms: 0, kind: "" };
let overLimit = 0;
let exceptions = 0;
let valid = 0;
let jobs = 0;

function record(label: string, outcome: CaseOutcome, input: { text: string; format: string }): void {
  if (outcome.ms > slowest.ms) slowest = { ms: outcome.ms, kind: `${label} (${outcome.kind})` };
  if (outcome.ms > SLOW_MS) {
    overLimit++;
    failures.push(`${label}: ${outcome.ms.toFixed(0)} ms (${outcome.kind})`);
  }
  if (outcome.valid) valid++;
  if (outcome.jobCreated) jobs++;
  for (const problem of outcome.problems) failures.push(`${label}: ${problem} (${outcome.kind})`);
  if (outcome.exception) {
    exceptions++;
    const error = outcome.exception.error;
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    failures.push(`${label}: ${outcome.exception.stage} threw ${text.split("\n")[0]} (${outcome.kind})`);
    if (saved < SAVED_FAILURES) {
      saved++;
      mkdirSync(resultsDir, { recursive: true });
      const base = join(resultsDir, `robustness-${label.replace(/[^\w.-]+/g, "_")}`);
      writeFileSync(`${base}.${input.format}`, input.text);
      writeFileSync(`${base}.txt`, `${outcome.exception.stage} threw on ${outcome.kind} (replay: npx loom check ${base}.${input.format})\n${text}\n`);
    }
  }
}

const started = performance.now();
for (let index = 0; index < cases; index++) {
  const testCase = generateCase(seed, index, corpus, donors);
  record(`seed ${seed} case ${index}`, runCase(testCase), testCase);
  if ((index + 1) % 1000 === 0 || index + 1 === cases) {
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`  ${index + 1}/${cases} cases, ${exceptions} exceptions, ${failures.length} failures, slowest ${slowest.ms.toFixed(0)} ms, ${elapsed} s`);
  }
}

const pathological = pathologicalInputs();
for (const input of pathological) {
  const outcome = runCase({ ...input, kind: `expected: ${input.expect}`, seedName: "pathological", seed: 0 }, "defaults");
  record(`pathological "${input.name}"`, outcome, input);
  if (input.expect === "error" && outcome.valid) failures.push(`pathological "${input.name}" was accepted as a valid template`);
}

const total = cases + pathological.length;
console.log(`\ncases: ${total} (${cases} mutated, ${pathological.length} pathological), ${valid} still valid, ${jobs} jobs created`);
console.log(`uncaught exceptions: ${exceptions}${saved > 0 ? ` (first ${saved} saved under bench/results/)` : ""}`);
console.log(`slowest case: ${slowest.ms.toFixed(1)} ms (${slowest.kind})`);
console.log(`cases over ${SLOW_MS} ms: ${overLimit}`);
for (const failure of failures.slice(0, 20)) console.log(`  FAIL ${failure}`);
if (failures.length > 20) console.log(`  … and ${failures.length - 20} more`);
console.log(
  JSON.stringify({
    cases: total,
    seed,
    uncaughtExceptions: exceptions,
    failures: failures.length,
    slowestMs: Number(slowest.ms.toFixed(1)),
    slowestKind: slowest.kind,
    casesOver1s: overLimit,
    valid,
    jobsCreated: jobs,
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  }),
);
process.exit(failures.length === 0 ? 0 : 1);
