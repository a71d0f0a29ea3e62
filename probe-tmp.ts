import { parseExpression } from "./lib/openjd/expr/parser";
import { evaluateWithMetrics } from "./lib/openjd/expr/evaluator";
import { standardLibrary } from "./lib/openjd/expr/functions";
import { ExprError } from "./lib/openjd/expr/errors";
import { toText } from "./lib/openjd/expr/values";
const lib = standardLibrary("template");
for (const s of process.argv.slice(2)) {
  const t = performance.now();
  let out: string;
  try {
    const p = parseExpression(s);
    if (!p.ok) out = "syntax: " + p.error.message;
    else { const r = evaluateWithMetrics(p.expr, { library: lib, symbols: new Map(), pathFormat: "POSIX" }); out = `ok ops=${r.operations} mem=${r.memoryBytes}: ` + toText(r.value).slice(0, 60); }
  } catch (e) { out = e instanceof ExprError ? `${e.kind}: ${e.message}` : `BUG ${(e as Error).stack?.slice(0,300)}`; }
  console.log(s.slice(0, 60), "=>", out.slice(0, 200), (performance.now()-t).toFixed(0), "ms");
}
