/** Comparison, containment and logical `not` (spec digest §14.4: equality never errors; ordering of incompatible types does). */
import { compareValues, valuesEqual } from "../compare";
import { typeError } from "../errors";
import type { FunctionLibrary } from "../library";
import { boolValue, elementsOf, type ExprValue } from "../values";
import { text } from "./args";

type Bool = Extract<ExprValue, { kind: "bool" }>;

export function registerComparison(lib: FunctionLibrary): void {
  lib
    .define("__eq__", "(any, any) -> bool", ([a, b]) => boolValue(valuesEqual(a!, b!)))
    .define("__ne__", "(any, any) -> bool", ([a, b]) => boolValue(!valuesEqual(a!, b!)))
    .define("__not__", "(bool) -> bool", ([a]) => boolValue(!(a as Bool).value));
  const orderable = ["(int, int)", "(float, float)", "(string, string)", "(bool, bool)", "(list[any], list[any])", "(range_expr, range_expr)"];
  const order: Array<[string, (c: number) => boolean]> = [
    ["__lt__", (c) => c < 0],
    ["__le__", (c) => c <= 0],
    ["__gt__", (c) => c > 0],
    ["__ge__", (c) => c >= 0],
  ];
  for (const [name, test] of order) {
    for (const params of orderable) lib.define(name, `${params} -> bool`, ([a, b]) => boolValue(test(compareValues(a!, b!))));
  }
  lib
    .define("__contains__", "(list[T], T) -> bool", ([list, item], ctx) => {
      const items = elementsOf(list!);
      ctx.charge(items.length);
      return boolValue(items.some((v) => valuesEqual(v, item!)));
    })
    .define("__contains__", "(range_expr, int) -> bool", ([range, item]) => {
      const r = range as ExprValue;
      const i = item as ExprValue;
      if (r.kind !== "range_expr" || i.kind !== "int") throw typeError("'in' needs a range and an int");
      return boolValue(r.value.indexOf(i.value) >= 0n);
    })
    .define("__contains__", "(string, string) -> bool", ([s, part]) => boolValue(text(s).includes(text(part))));
}
