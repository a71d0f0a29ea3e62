"use client";

import type { FormValues, ParameterForm } from "@/lib/openjd";
import { ParameterField } from "./parameter-field";

interface Props {
  form: ParameterForm;
  values: FormValues;
  /** Errors to show now (fields the artist touched, or all after a preview). */
  errors: Readonly<Record<string, string>>;
  onChange: (name: string, value: string) => void;
}

/** The generated parameter form: groupLabel sections as fieldsets, hidden parameters listed with the defaults they submit. */
export function ParameterFields({ form, values, errors, onChange }: Props) {
  const hidden = form.fields.filter((f) => f.control === "HIDDEN");
  if (form.fields.length === 0) return <p className="muted">This template has no parameters.</p>;
  return (
    <div className="param-sections">
      {form.sections.map((section, i) => {
        const fields = section.fields.map((field) => (
          <ParameterField key={field.name} field={field} value={values[field.name] ?? field.initial} error={errors[field.name] ?? null} onChange={(v) => onChange(field.name, v)} />
        ));
        return section.label === null ? (
          <div key={`ungrouped-${i}`} className="param-group">
            {fields}
          </div>
        ) : (
          <fieldset key={section.label} className="param-group">
            <legend>{section.label}</legend>
            {fields}
          </fieldset>
        );
      })}
      {hidden.length > 0 ? (
        <details className="param-hidden">
          <summary>
            {hidden.length} hidden parameter{hidden.length === 1 ? "" : "s"} (submitted with their defaults)
          </summary>
          <ul>
            {hidden.map((f) => (
              <li key={f.name}>
                <code>{f.name}</code> = <code>{f.initial}</code>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
