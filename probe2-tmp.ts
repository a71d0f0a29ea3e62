import { standardLibrary } from "./lib/openjd/expr/functions";
import { generateExprCase, runExprCase } from "./lib/openjd/testing/expr-case";
import { loadExprCorpus } from "./bench/expr-samples";
const libraries = { template: standardLibrary("template"), host: standardLibrary("host") };
const corpus = [...new Set(loadExprCorpus().map((e) => e.source))];
const [seed, index] = process.argv.slice(2).map(Number);
const c = generateExprCase(seed!, index!, corpus, libraries);
console.log(JSON.stringify(c).slice(0, 1500));
const o = runExprCase(c, libraries); console.log(o.ms, o.evaluated, o.checked);
