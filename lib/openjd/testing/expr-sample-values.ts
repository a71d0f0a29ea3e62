/**
 * Concrete EXPR values for OpenJD parameter types: from a template's default or supplied value
 * when it has one of the right shape, else a plausible sample, so corpus expressions can be
 * evaluated as well as type-checked.
 */
import { IntRangeExpr } from "../range-expr";
import { boolValue, floatValue, intValue, makeList, pathValue, stringValue, type ExprValue } from "../expr/values";

type Data = null | boolean | number | string | Data[] | { [key: string]: Data };

const SAMPLE_TEXT: Readonly<Record<string, string>> = {
  INT: "3",
  FLOAT: "1.5",
  STRING: "sample",
  PATH: "/tmp/loom/sample.txt",
  BOOL: "true",
  RANGE_EXPR: "1-3",
  "CHUNK[INT]": "1-3",
};

/** A value of the parameter type (`raw` gives RawParam's form: paths as strings). */
export function sampleValue(type: string, text?: string, raw = false): ExprValue {
  const list = /^LIST\[(.*)\]$/.exec(type);
  if (list) {
    const item = sampleValue(list[1] as string, undefined, raw);
    return item.kind === "list" && item.items.some((i) => i.kind === "list") ? stringValue("sample") : makeList([item, item]);
  }
  return valueFromData(type, text ?? SAMPLE_TEXT[type] ?? "sample", raw) ?? stringValue("sample");
}

/** The value `data` (YAML/JSON) has as a parameter of `type`, or null when it does not fit. */
export function valueFromData(type: string, data: Data | undefined, raw = false): ExprValue | null {
  if (data === null || data === undefined) return null;
  try {
    const list = /^LIST\[(.*)\]$/.exec(type);
    if (list) {
      if (!Array.isArray(data)) return null;
      const items = data.map((item) => valueFromData(list[1] as string, item, raw));
      return items.every((i) => i !== null) ? makeList(items as ExprValue[]) : null;
    }
    const text = typeof data === "object" ? null : String(data);
    if (text === null || text.includes("{{")) return null;
    switch (type) {
      case "INT":
        return /^[-+]?\d+$/.test(text.trim()) ? intValue(BigInt(text.trim())) : null;
      case "FLOAT":
        return Number.isFinite(Number(text)) && text.trim() !== "" ? floatValue(Number(text), text.trim()) : null;
      case "BOOL":
        return typeof data === "boolean" ? boolValue(data) : /^(true|false)$/i.test(text) ? boolValue(/^true$/i.test(text)) : null;
      case "PATH":
        return raw ? stringValue(text) : pathValue(text, "POSIX");
      case "RANGE_EXPR":
      case "CHUNK[INT]": {
        const parsed = IntRangeExpr.tryParse(text);
        return parsed.ok ? { kind: "range_expr", value: parsed.value } : null;
      }
      default:
        return stringValue(text);
    }
  } catch {
    return null; // an out-of-range default is the template's problem, not the benchmark's
  }
}
