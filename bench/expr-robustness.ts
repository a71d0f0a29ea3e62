/**
 * The full EXPR robustness run (`npm run test:robustness:expr [-- --cases N --seed S]`): 12,000
 * generated, mutated, token-soup and format-string cases by default, plus every pathological
 * input, each parsed, evaluated with concrete symbols and type-checked with unresolved ones.
 * Fails (exit 1) on any escaped exception, broken error invariant, case slower than 1 s, or
 * pathological input that ended other than honestly. Failing inputs are saved under
 * bench/results/ so they can be replayed.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { standardLibrary } from "../lib/openjd";
import { BUILT_IN_EXPRESSIONS, caseFailures, type ExprCase, generateExprCase, pathologicalExpressions, runExprCase, runPathological } from "../lib/openjd/testing";
import { REPO_ROOT, samplesDir } from "./corpus";
import { loadExprCorpus } from "./expr-samples";
import { numberFlag } from "./number-flag";

const SLOW_MS = 1000;
const SAVED_FAILURES = 10;
const args = process.argv.slice(2);
const cases = numberFlag(args, "--cases", 12_000);
const seed = numberFlag(args, "--seed", 1);
const resultsDir = join(REPO_ROOT, "bench", "results");
const libraries = { template: standardLibrary("template"), host: standardLibrary("host") };

const loaded = [...new Set(loadExprCorpus().map((e) => e.source))];
const corpus = loaded.length > 0 ? loaded : [...BUILT_IN_EXPRESSIONS];
const functions = libraries.template.names().filter((n) => !n.startsWith("__")).length;
console.log(`expr robustness: ${cases} cases, seed ${seed}, ${corpus.length} corpus expressions${loaded.length === 0 ? ` (built-in; none at ${samplesDir()})` : ""}, ${functions} library functions`);

const failures: string[] = [];
const tally = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
const families = new Map<string, number>();
const evaluated = new Map<string, number>();
const checked = new Map<string, number>();
const disagreements: string[] = [];
const called = new Set<string>();
let saved = 0;
let exceptions = 0;
let parsed = 0;
let slowest = { ms: 0, label: "" };
let overLimit = 0;

function save(label: string, source: string, lines: string[]): void {
  if (saved >= SAVED_FAILURES) return;
  saved++;
  mkdirSync(resultsDir, { recursive: true });
  const base = join(resultsDir, `expr-robustness-${label.replace(/[^\w.-]+/g, "_")}`);
  writeFileSync(`${base}.expr`, source);
  writeFileSync(`${base}.txt`, `${lines.join("\n")}\n`);
}

function record(label: string, testCase: Pick<ExprCase, "kind" | "source">, outcome: ReturnType<typeof runExprCase>): string[] {
  if (outcome.ms > slowest.ms) slowest = { ms: outcome.ms, label: `${label} (${outcome.kind})` };
  if (outcome.ms > SLOW_MS) overLimit++;
  if (outcome.exception) exceptions++;
  const found = caseFailures(label, outcome, SLOW_MS);
  if (found.length > 0) save(label, testCase.source, found);
  failures.push(...found);
  return found;
}

const started = performance.now();
for (let index = 0; index < cases; index++) {
  const testCase = generateExprCase(seed, index, corpus, libraries);
  const outcome = runExprCase(testCase, libraries);
  record(`seed ${seed} case ${index}`, testCase, outcome);
  tally(families, testCase.kind.replace(/\(.*/, "") + (testCase.format && !testCase.kind.startsWith("format") ? "(format)" : ""));
  tally(evaluated, outcome.evaluated);
  tally(checked, outcome.checked);
  if (outcome.parsed) parsed++;
  for (const match of testCase.source.matchAll(/\.?([A-Za-z_]\w*)\s*\(?/g)) called.add(match[1] as string);
  // Informational: the checker rejects (type) what concrete evaluation accepted.
  if (outcome.evaluated === "ok" && outcome.checked === "type" && disagreements.length < 1000) disagreements.push(testCase.source);
  if ((index + 1) % 2000 === 0 || index + 1 === cases) {
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`  ${index + 1}/${cases} cases, ${exceptions} exceptions, ${failures.length} failures, slowest ${slowest.ms.toFixed(0)} ms, ${elapsed} s`);
  }
}

const pathological = pathologicalExpressions();
const observed: string[] = [];
let skipped = 0;
for (const input of pathological) {
  const result = runPathological(input, libraries);
  if (result.skipped) {
    skipped++;
    observed.push(`  skipped  ${input.name} (needs ${input.requires?.join(", ")})`);
    continue;
  }
  const label = `pathological "${input.name}"`;
  const found = record(label, { kind: input.name, source: input.source }, result.outcome);
  const outcomeText = result.observed === result.outcome.checked ? result.observed : `${result.observed}/check ${result.outcome.checked}`;
  if (!result.expected) {
    failures.push(`${label}: ended in ${outcomeText}, expected ${input.expect.join(" or ")}`);
    if (found.length === 0) save(label, input.source, [`ended in ${outcomeText}, expected ${input.expect.join(" or ")}`]);
  }
  observed.push(`  ${result.expected ? "ok      " : "WRONG   "} ${input.name}: ${outcomeText} in ${result.outcome.ms.toFixed(1)} ms`);
}

const seconds = (performance.now() - started) / 1000;
const histogram = (map: Map<string, number>) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
console.log(`\ncases: ${cases} (${histogram(families)}), ${parsed} parsed`);
const publicNames = libraries.host.names().flatMap((n) => (n.startsWith("__property_") ? [n.slice(11, -2)] : n.startsWith("__") ? [] : [n]));
const uncalled = publicNames.filter((n) => !called.has(n));
console.log(`library functions and properties used: ${publicNames.length - uncalled.length} of ${publicNames.length}${uncalled.length > 0 ? ` (not: ${uncalled.join(", ")})` : ""}`);
console.log(`evaluation: ${histogram(evaluated)}`);
console.log(`type check: ${histogram(checked)}`);
console.log(
  `checker rejected (type) what evaluation accepted: ${disagreements.length}${
    disagreements.length > 0
      ? `, e.g. ${disagreements
          .slice(0, 3)
          .map((s) => JSON.stringify(s.slice(0, 100)))
          .join("; ")}`
      : ""
  }`,
);
console.log(`pathological inputs: ${pathological.length} (${skipped} skipped until their functions exist)`);
for (const line of observed) console.log(line);
console.log(`uncaught exceptions: ${exceptions}${saved > 0 ? ` (first ${saved} failing inputs saved under bench/results/)` : ""}`);
console.log(`slowest case: ${slowest.ms.toFixed(1)} ms (${slowest.label})`);
console.log(`cases over ${SLOW_MS} ms: ${overLimit}`);
for (const failure of failures.slice(0, 20)) console.log(`  FAIL ${failure.slice(0, 400)}`);
if (failures.length > 20) console.log(`  … and ${failures.length - 20} more`);
console.log(
  JSON.stringify({
    cases: cases + pathological.length - skipped,
    generated: cases,
    pathological: pathological.length - skipped,
    pathologicalSkipped: skipped,
    seed,
    parsed,
    evaluatedOk: evaluated.get("ok") ?? 0,
    checkedOk: checked.get("ok") ?? 0,
    uncaughtExceptions: exceptions,
    failures: failures.length,
    slowestMs: Number(slowest.ms.toFixed(1)),
    casesOver1s: overLimit,
    checkerDisagreements: disagreements.length,
    functionsUsed: publicNames.length - uncalled.length,
    functionsInLibrary: publicNames.length,
    seconds: Number(seconds.toFixed(1)),
  }),
);
process.exit(failures.length === 0 ? 0 : 1);
