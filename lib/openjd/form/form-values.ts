/**
 * Form text → submitted parameter values, and the problem of each field as the artist types.
 * The checks are lib/openjd's own (coerceParameterValue: int64, numeric bounds compared as
 * numbers, lengths in code points, allowedValues, EXPR list rules), so the form refuses exactly
 * what job creation on the server would refuse.
 */
import { coerceParameterValue, type ParameterInput } from "../job/parameter-values";
import type { FormField, ParameterForm } from "./parameter-form";

export type FormValues = Readonly<Record<string, string>>;

export function initialValues(form: ParameterForm): Record<string, string> {
  return Object.fromEntries(form.fields.map((f) => [f.name, f.initial]));
}

/**
 * What a field submits, or undefined when the template's default applies. An unchanged default
 * is left out on purpose: a PATH default is joined with the template's folder, a submitted value
 * with the submitter's, so sending the default back would change its meaning.
 */
export function fieldInput(field: FormField, text: string): ParameterInput | undefined {
  if (!field.required && text === field.initial) return undefined;
  if (field.control === "HIDDEN") return undefined;
  if (!field.type.startsWith("LIST[")) return text;
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (field.type !== "LIST[LIST[INT]]") return lines;
  return lines.map((line) => {
    try {
      const parsed: unknown = JSON.parse(line);
      return Array.isArray(parsed) ? parsed.map(String) : line;
    } catch {
      return line;
    }
  });
}

/** The parameter values to submit: only what differs from the defaults (and every required value). */
export function parameterInputs(form: ParameterForm, values: FormValues): Record<string, ParameterInput> {
  const out: Record<string, ParameterInput> = {};
  for (const field of form.fields) {
    const input = fieldInput(field, values[field.name] ?? field.initial);
    if (input !== undefined) out[field.name] = input;
  }
  return out;
}

/** null when the field's text is acceptable, else why not. */
export function fieldError(field: FormField, text: string): string | null {
  // A form cannot tell "left empty" from "wants the empty string"; a parameter without a default asks for a value.
  if (field.required && text.trim() === "" && field.type !== "LIST[STRING]" && field.type !== "LIST[PATH]") {
    return "a value is required (this parameter has no default)";
  }
  const input = fieldInput(field, text);
  if (input === undefined) return null;
  // No working folder: a path is checked as written (the server joins relative ones with its own).
  const checked = coerceParameterValue(field.definition, input, { flavor: "posix" });
  return checked.ok ? null : checked.message;
}

export function fieldErrors(form: ParameterForm, values: FormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of form.fields) {
    const problem = fieldError(field, values[field.name] ?? field.initial);
    if (problem !== null) errors[field.name] = problem;
  }
  return errors;
}
