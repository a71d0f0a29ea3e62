import { loadExprCorpus } from "./bench/expr-samples";
import { symbolsFor, referencedChains } from "./lib/openjd/testing/expr-corpus";
import { parseExpression } from "./lib/openjd/expr/parser";
import { evaluate } from "./lib/openjd/expr/evaluator";
import { standardLibrary } from "./lib/openjd/expr/functions";
const lib = standardLibrary("host");
const missing = new Map<string, number>(); const errs = new Map<string, number>();
for (const e of loadExprCorpus()) {
  const p = parseExpression(e.source); if (!p.ok) continue;
  const s = symbolsFor(e, p.expr);
  if (!s.concrete) { for (const c of referencedChains(p.expr)) { const k = c.slice(0,2).join("."); if (!e.symbols.has(c.slice(0,3).join(".")) && !e.symbols.has(c.slice(0,2).join(".")) && !e.symbols.has(c[0]!)) missing.set(k, (missing.get(k) ?? 0) + 1); } continue; }
  try { evaluate(p.expr, { library: lib, symbols: s.concrete, pathFormat: "POSIX", mapPath: v => v }); } catch (x) { const m = `${(x as any).kind}: ${(x as Error).message.slice(0, 70)}`; errs.set(m, (errs.get(m) ?? 0) + 1); }
}
console.log([...missing].sort((a,b)=>b[1]-a[1]).slice(0,25));
console.log([...errs].sort((a,b)=>b[1]-a[1]).slice(0,25));
