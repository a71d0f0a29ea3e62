/**
 * Values saved with a library template (a job bundle's parameter_values) as the form's text:
 * the inverse of lib/openjd/form's fieldInput, a list one item per line and a LIST[LIST[INT]]
 * item as JSON.
 */
import type { ParameterForm } from "@/lib/openjd";

export function savedValues(form: ParameterForm, saved: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of form.fields) {
    const value = saved?.[field.name];
    if (value === undefined || value === null) continue;
    out[field.name] = Array.isArray(value) ? value.map((v) => (Array.isArray(v) ? JSON.stringify(v) : String(v))).join("\n") : String(value);
  }
  return out;
}
