/**
 * `npm run bench:expr [-- --rounds R --warmup W]`: throughput of the EXPR front end over the
 * corpus of every `{{ … }}` and `let` expression in the samples and the EXPR / WRAP_ACTIONS
 * conformance folders (a built-in list when they are absent). Modes: parse only; parse + type
 * check (unresolved symbols for what each expression references, `any` when unknown); parse +
 * evaluate with sample values (expressions that fail to evaluate are skipped and counted). A
 * baseline in the same run (JSON.parse of the same strings as JSON, and the bare tokenizer)
 * gives ratios that hold across machines. The last line is one JSON object with the figures.
 */
import { evaluate, evaluateWithMetrics, ExprError, type ExprValue, parseExpression, standardLibrary, tokenize } from "../lib/openjd";
import { BUILT_IN_EXPRESSIONS, concreteSymbols, type CorpusExpression, symbolsFor } from "../lib/openjd/testing";
import { samplesDir } from "./corpus";
import { loadExprCorpus } from "./expr-samples";
import { numberFlag } from "./number-flag";

const args = process.argv.slice(2);
const rounds = numberFlag(args, "--rounds", 50);
const warmup = numberFlag(args, "--warmup", 3);
const library = standardLibrary("host");
const mapPath = (value: string): string => value;

const loaded = loadExprCorpus();
const builtIn: CorpusExpression[] = BUILT_IN_EXPRESSIONS.map((source) => ({
  source,
  origin: "built-in",
  symbols: new Map([...concreteSymbols()].map(([name, value]) => [name, { type: { code: "any" }, value }])),
  lets: [],
}));
const corpus = loaded.length > 0 ? loaded : builtIn;

interface Prepared {
  source: string;
  json: string;
  check: Map<string, ExprValue>;
  concrete: Map<string, ExprValue> | null;
}

/**
 * Operations one evaluation needs (Infinity when it runs out of budget). Conformance cases that
 * test the budget itself (`range(117600)` of 10,000-character strings) need ~10^7 operations
 * and seconds each: they would swamp the figures, so they are counted and left out.
 */
const HEAVY_OPERATIONS = 100_000;
function operations(source: string, symbols: Map<string, ExprValue>): number {
  const parsed = parseExpression(source);
  if (!parsed.ok) return 0;
  try {
    return evaluateWithMetrics(parsed.expr, { library, symbols, pathFormat: "POSIX", mapPath }).operations;
  } catch (error) {
    return error instanceof ExprError && error.kind === "limit" ? Infinity : 0;
  }
}

let unparsable = 0;
let heavy = 0;
const prepared: Prepared[] = [];
for (const entry of corpus) {
  const parsed = parseExpression(entry.source);
  if (!parsed.ok) {
    unparsable++;
    continue;
  }
  const { check, concrete } = symbolsFor(entry, parsed.expr);
  if (Math.max(operations(entry.source, check), concrete ? operations(entry.source, concrete) : 0) > HEAVY_OPERATIONS) {
    heavy++;
    continue;
  }
  prepared.push({ source: entry.source, json: JSON.stringify(entry.source), check, concrete });
}

const evaluates = (item: Prepared): boolean => {
  if (item.concrete === null) return false;
  const parsed = parseExpression(item.source);
  if (!parsed.ok) return false;
  try {
    evaluate(parsed.expr, { library, symbols: item.concrete, pathFormat: "POSIX", mapPath });
    return true;
  } catch {
    return false;
  }
};
const evaluable = prepared.filter(evaluates);
let checkFailures = 0;

const modes: Record<string, { items: readonly Prepared[]; run: (item: Prepared) => void }> = {
  baseline: { items: prepared, run: (item) => JSON.parse(item.json) },
  tokenize: { items: prepared, run: (item) => tokenize(item.source) },
  parse: { items: prepared, run: (item) => parseExpression(item.source) },
  check: {
    items: prepared,
    run: (item) => {
      const parsed = parseExpression(item.source);
      if (!parsed.ok) return;
      try {
        evaluate(parsed.expr, { library, symbols: item.check, pathFormat: "POSIX", mapPath });
      } catch {
        checkFailures++; // invalid conformance templates hold expressions that must not check
      }
    },
  },
  evaluate: {
    items: evaluable,
    run: (item) => {
      const parsed = parseExpression(item.source);
      if (parsed.ok) evaluate(parsed.expr, { library, symbols: item.concrete as Map<string, ExprValue>, pathFormat: "POSIX", mapPath });
    },
  },
};

/** Expressions per second of one mode: the median of `rounds` timed passes after `warmup` untimed ones. */
function measure(name: string): number {
  const { items, run } = modes[name]!;
  if (items.length === 0) return 0;
  const times: number[] = [];
  for (let round = 0; round < warmup + rounds; round++) {
    const start = performance.now();
    for (const item of items) run(item);
    if (round >= warmup) times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  return items.length / (median / 1000);
}

const origin = loaded.length > 0 ? samplesDir() : "built-in list (samples not found)";
console.log(
  `expr bench: ${prepared.length} expressions from ${origin} (${heavy} budget tests of over ${HEAVY_OPERATIONS} operations left out); ${evaluable.length} evaluate with sample values; ${rounds} rounds after ${warmup} warm-up`,
);
const started = performance.now();
const perSecond: Record<string, number> = {};
for (const name of Object.keys(modes)) perSecond[name] = measure(name);
checkFailures = Math.round(checkFailures / (rounds + warmup));
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
const ratio = (slow: number, fast: number) => (slow > 0 ? Number((fast / slow).toFixed(2)) : null);
console.log(`  baseline (JSON.parse)   ${fmt(perSecond.baseline!)} expressions/s`);
console.log(`  tokenize only           ${fmt(perSecond.tokenize!)} expressions/s`);
console.log(`  parse                   ${fmt(perSecond.parse!)} expressions/s (${ratio(perSecond.parse!, perSecond.baseline!)}× the baseline's time)`);
console.log(`  parse + type check      ${fmt(perSecond.check!)} expressions/s (${ratio(perSecond.check!, perSecond.parse!)}× parse time; ${checkFailures} do not check)`);
console.log(`  parse + evaluate        ${fmt(perSecond.evaluate!)} expressions/s over ${evaluable.length} (${prepared.length - evaluable.length} skipped: unknown symbol or evaluation error)`);
console.log(
  JSON.stringify({
    expressions: prepared.length,
    unparsable,
    heavyExcluded: heavy,
    rounds,
    warmup,
    parsePerSecond: Math.round(perSecond.parse!),
    checkPerSecond: Math.round(perSecond.check!),
    evaluatePerSecond: Math.round(perSecond.evaluate!),
    evaluated: evaluable.length,
    skipped: prepared.length - evaluable.length,
    checkFailures,
    baselinePerSecond: Math.round(perSecond.baseline!),
    tokenizePerSecond: Math.round(perSecond.tokenize!),
    ratioParseToBaseline: ratio(perSecond.parse!, perSecond.baseline!),
    ratioCheckToParse: ratio(perSecond.check!, perSecond.parse!),
    ratioEvaluateToParse: ratio(perSecond.evaluate!, perSecond.parse!),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  }),
);
