import { parseExpression } from "./lib/openjd/expr/parser";
import { evaluate } from "./lib/openjd/expr/evaluator";
import { standardLibrary } from "./lib/openjd/expr/functions";
import { ExprError } from "./lib/openjd/expr/errors";
import { toText } from "./lib/openjd/expr/values";
import { concreteSymbols, unresolvedSymbols } from "./lib/openjd/testing/expr-symbols";
const lib = standardLibrary("host");
for (const s of process.argv.slice(2)) for (const symbols of [concreteSymbols(), unresolvedSymbols()]) {
  const t = performance.now(); let out: string;
  try { const p = parseExpression(s); if (!p.ok) out = "syntax: " + p.error.message; else out = "ok: " + toText(evaluate(p.expr, { library: lib, symbols, pathFormat: "POSIX", mapPath: (v) => v })).slice(0, 80); }
  catch (e) { out = e instanceof ExprError ? `${e.kind}: ${e.message}` : `BUG ${(e as Error).stack?.split("\n").slice(0,3).join(" | ")}`; }
  console.log(s.slice(0, 60), "=>", out.slice(0, 300), (performance.now()-t).toFixed(0), "ms");
}
