/** Resolving template-scope format strings at job creation, with the checks the spec applies afterwards. */
import { FormatResolutionError, resolveFormatString, type FormatString } from "../format-string";
import type { FloatLiteral, NumberField } from "../model";
import { parseFloatText, parseIntText, type Parsed } from "../numbers";

export type Symbols = ReadonlyMap<string, string>;

export function resolveText(format: FormatString, symbols: Symbols): Parsed<string> {
  try {
    return { ok: true, value: resolveFormatString(format, symbols) };
  } catch (error) {
    if (error instanceof FormatResolutionError) return { ok: false, message: error.message };
    throw error;
  }
}

export function resolveIntField(field: NumberField<bigint>, symbols: Symbols): Parsed<bigint> {
  if (field.kind === "literal") return { ok: true, value: field.value };
  const text = resolveText(field.format, symbols);
  if (!text.ok) return text;
  const parsed = parseIntText(text.value);
  return parsed.ok ? parsed : { ok: false, message: `'${field.format.raw}' resolved to ${parsed.message}` };
}

export function resolveFloatField(field: NumberField<FloatLiteral>, symbols: Symbols): Parsed<FloatLiteral> {
  if (field.kind === "literal") return { ok: true, value: field.value };
  const text = resolveText(field.format, symbols);
  if (!text.ok) return text;
  const parsed = parseFloatText(text.value);
  return parsed.ok ? parsed : { ok: false, message: `'${field.format.raw}' resolved to ${parsed.message}` };
}
