/** Test support: parameter definitions as template validation produces them from a YAML list. */
import type { JobParameterDefinition } from "../model";
import { checkTemplateText } from "../template";
import { buildParameterForm, type FormField } from "./parameter-form";

export function definitions(yaml: string, extensions = ""): JobParameterDefinition[] {
  const text = `specificationVersion: jobtemplate-2023-09\n${extensions}name: J\nparameterDefinitions:\n${yaml}\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n`;
  const checked = checkTemplateText(text, "yaml", "job");
  if (checked.template?.kind !== "job") throw new Error(checked.errors.map((e) => `${e.path}: ${e.message}`).join("\n"));
  return checked.template.template.parameterDefinitions ?? [];
}

/** The form field of the first parameter in a YAML list. */
export function field(yaml: string, extensions = ""): FormField {
  return buildParameterForm(definitions(yaml, extensions)).fields[0]!;
}
