import { standardLibrary } from "./lib/openjd/expr/functions";
import { generateExprCase } from "./lib/openjd/testing/expr-case";
import { parseExpression } from "./lib/openjd/expr/parser";
import { evaluate } from "./lib/openjd/expr/evaluator";
import { concreteSymbols, unresolvedSymbols } from "./lib/openjd/testing/expr-symbols";
import { ExprError } from "./lib/openjd/expr/errors";
const libraries = { template: standardLibrary("template"), host: standardLibrary("host") };
let shown = 0;
const msgs = new Map<string, string>();
for (let i = 0; i < 12000 && shown < 400; i++) {
  const c = generateExprCase(1, i, [], libraries);
  if (c.format) continue;
  const p = parseExpression(c.source); if (!p.ok) continue;
  const lib = c.host ? libraries.host : libraries.template;
  try { evaluate(p.expr, { library: lib, symbols: concreteSymbols(), pathFormat: "POSIX", mapPath: v => v }); } catch { continue; }
  try { evaluate(p.expr, { library: lib, symbols: unresolvedSymbols(), pathFormat: "POSIX", mapPath: v => v }); } catch (e) {
    if (e instanceof ExprError && e.kind === "type") { const key = e.message.replace(/\(.*?\)/g, "()").slice(0, 60); if (!msgs.has(key) || msgs.get(key)!.length > c.source.length) msgs.set(key, c.source + "   ==> " + e.message.slice(0, 150) + " @" + c.source.slice(e.span!.start, e.span!.end).slice(0, 80)); shown++; }
  }
}
for (const v of msgs.values()) console.log(v.slice(0, 500), "\n");
