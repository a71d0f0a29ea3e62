/**
 * `npm run bench:model [-- --rounds R]`: validation throughput of `checkTemplateText` over every
 * template of the corpus (samples plus the job and environment templates of all conformance
 * folders), against raw `yaml` parseDocument of the same texts as the baseline. Baseline and
 * model passes alternate within each round (and swap order every round) so machine noise hits
 * both; figures are medians over the rounds. The last line is one JSON object.
 */
import { parseDocument } from "yaml";
import { checkTemplateText } from "../lib/openjd";
import { SEED_TEMPLATES } from "../lib/openjd/testing";
import { loadCorpus, samplesDir } from "./corpus";
import { interleavedRounds, median } from "./interleaved-rounds";
import { numberFlag } from "./number-flag";

const args = process.argv.slice(2);
const rounds = numberFlag(args, "--rounds", 15);
const warmupRounds = numberFlag(args, "--warmup", 3);
/** Each timed pass repeats the corpus until the baseline pass takes about this long. */
const targetPassMs = numberFlag(args, "--pass-ms", 150);

const found = loadCorpus();
// Without the samples the figures come from the four built-in templates: still a ratio, but
// not comparable with runs over the corpus, so the JSON says which one was measured.
const corpus = found.length > 0 ? found : SEED_TEMPLATES;
const corpusName = found.length > 0 ? samplesDir() : "built-in seed templates";
const bytes = corpus.reduce((sum, t) => sum + t.text.length, 0);
/** Results are kept in a sum so that no pass could be optimized away. */
let sink = 0;

function baselinePass(repeats: number): number {
  const start = performance.now();
  for (let r = 0; r < repeats; r++) for (const t of corpus) sink += parseDocument(t.text).errors.length;
  return performance.now() - start;
}

function modelPass(repeats: number): number {
  const start = performance.now();
  for (let r = 0; r < repeats; r++) for (const t of corpus) sink += checkTemplateText(t.text, t.format).errors.length;
  return performance.now() - start;
}

console.log(`bench:model: ${corpus.length} templates (${(bytes / 1024).toFixed(0)} KiB) from ${corpusName}`);
for (let i = 0; i < warmupRounds; i++) {
  baselinePass(1);
  modelPass(1);
}
const repeats = Math.max(1, Math.round(targetPassMs / Math.max(baselinePass(1), 0.01)));
console.log(`warm-up: ${warmupRounds} rounds; each timed pass validates the corpus ${repeats}× (${repeats * corpus.length} templates)`);

const { baseline: baselineMs, measured: modelMs } = await interleavedRounds(
  { rounds },
  () => baselinePass(repeats),
  () => modelPass(repeats),
  (round, baseline, model) =>
    console.log(`  round ${String(round + 1).padStart(2)}: parseDocument ${baseline.toFixed(1)} ms, checkTemplateText ${model.toFixed(1)} ms, ratio ${(model / baseline).toFixed(2)}`),
);
const ratios = modelMs.map((model, i) => model / baselineMs[i]!);

const perPass = repeats * corpus.length;
const baselineTemplatesPerSecond = Math.round(perPass / (median(baselineMs) / 1000));
const modelTemplatesPerSecond = Math.round(perPass / (median(modelMs) / 1000));
const ratioToYamlParse = Number(median(ratios).toFixed(3));
console.log(`baseline (yaml parseDocument): ${baselineTemplatesPerSecond} templates/s`);
console.log(`model (checkTemplateText):     ${modelTemplatesPerSecond} templates/s`);
console.log(`ratio model/baseline (time):   ${ratioToYamlParse} (median of per-round ratios; ${sink} errors seen)`);
console.log(
  JSON.stringify({
    templates: corpus.length,
    corpus: found.length > 0 ? "conformance+samples" : "built-in",
    rounds,
    repeatsPerRound: repeats,
    baselineTemplatesPerSecond,
    modelTemplatesPerSecond,
    ratioToYamlParse,
  }),
);
