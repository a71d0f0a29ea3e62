/** General functions (spec digest §14.5): len, bool, string, int, float, list, range_expr, fail. */
import { FLOAT_TEXT } from "../../numbers";
import { IntRangeExpr } from "../../range-expr";
import { ExprError, valueError } from "../errors";
import type { FunctionLibrary } from "../library";
import { INT } from "../types";
import { FALSE, TRUE, boolValue, elementsOf, floatValue, intValue, makeList, stringValue, toText } from "../values";
import { asList, int, num, text, type Range } from "./args";
import { codePointCount } from "./python-text";

const TRUE_WORDS = new Set(["1", "true", "on", "yes"]);
const FALSE_WORDS = new Set(["0", "false", "off", "no"]);
/** int() also takes Python's digit separators ("1_000"), which INT values do not. */
const INT_TEXT = /^\s*[-+]?[0-9](_?[0-9])*\s*$/;

export function registerGeneral(lib: FunctionLibrary): void {
  lib
    .define("len", "(list[any]) -> int", ([v]) => intValue(BigInt(asList(v).items.length)))
    .define("len", "(string) -> int", ([v]) => intValue(BigInt(codePointCount(text(v!)))))
    .define("len", "(path) -> int", ([v]) => intValue(BigInt(codePointCount(text(v!)))))
    .define("len", "(range_expr) -> int", ([v]) => intValue((v as Range).value.size));

  lib
    .define("bool", "(bool) -> bool", ([v]) => v!)
    .define("bool", "(nulltype) -> bool", () => FALSE)
    .define("bool", "(int) -> bool", ([v]) => boolValue(int(v) !== 0n))
    .define("bool", "(float) -> bool", ([v]) => boolValue(num(v) !== 0))
    .define("bool", "(string) -> bool", ([v]) => {
      const word = text(v!).trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return TRUE;
      if (FALSE_WORDS.has(word)) return FALSE;
      throw valueError(`'${text(v!)}' is not a boolean (use true/false, yes/no, on/off or 1/0)`);
    });

  lib.define("string", "(any) -> string", ([v]) => stringValue(toText(v!)));

  lib
    .define("int", "(int) -> int", ([v]) => v!)
    .define("int", "(float) -> int", ([v]) => {
      const x = num(v);
      if (!Number.isInteger(x)) throw valueError(`${toText(v!)} is not a whole number; use round(), floor() or ceil()`);
      return intValue(BigInt(x));
    })
    .define("int", "(string) -> int", ([v]) => {
      if (!INT_TEXT.test(text(v!))) throw valueError(`'${text(v!)}' is not an integer`);
      return intValue(BigInt(text(v!).trim().replace(/_/g, "")));
    });

  lib
    .define("float", "(float) -> float", ([v]) => v!)
    .define("float", "(int) -> float", ([v]) => floatValue(Number(int(v))))
    .define("float", "(string) -> float", ([v]) => {
      if (!FLOAT_TEXT.test(text(v!))) throw valueError(`'${text(v!)}' is not a number`);
      return floatValue(Number(text(v!).trim()));
    });

  lib.define("list", "(range_expr) -> list[int]", ([v], ctx) => {
    const items = elementsOf(v!);
    ctx.charge(items.length);
    return makeList(items, INT);
  });

  lib
    .define("range_expr", "(string) -> range_expr", ([v]) => {
      const parsed = IntRangeExpr.tryParse(text(v!));
      if (!parsed.ok) throw valueError(`'${text(v!)}' is not a range expression: ${parsed.message}`);
      return { kind: "range_expr", value: parsed.value };
    })
    .define("range_expr", "(list[int]) -> range_expr", ([v]) => {
      const items = asList(v).items;
      if (items.length === 0) throw valueError("range_expr() of an empty list: a range expression needs at least one value");
      return { kind: "range_expr", value: IntRangeExpr.fromValues(items.map(int)) };
    });

  lib.define("fail", "(string) -> noreturn", ([v]) => {
    throw new ExprError("failed", text(v!));
  });
}
