/**
 * The submission form a job template's parameterDefinitions describe (spec §2 `userInterface`,
 * digest §4.6): one field per parameter in template order, its control resolved exactly as
 * template validation resolves it, its label, description, default and constraints in words, and
 * the fields grouped into `groupLabel` sections. Values are kept as text while the artist types;
 * form-values.ts turns them into parameter values with lib/openjd's own checks.
 */
import type { FileFilter, FloatLiteral, JobParameterDefinition, JobParameterType } from "../model";
import { CHECK_BOX_PAIRS, effectiveControl, isCheckBoxPair } from "../validate/user-interface";

/** How a field is drawn. EXPR list controls all become a "one item per line" text box. */
export type FieldControl = "LINE_EDIT" | "MULTILINE_EDIT" | "DROPDOWN_LIST" | "CHECK_BOX" | "SPIN_BOX" | "CHOOSE_INPUT_FILE" | "CHOOSE_OUTPUT_FILE" | "CHOOSE_DIRECTORY" | "LIST" | "HIDDEN";

export interface SpinSettings {
  integer: boolean;
  /** INT: the step; FLOAT with decimals: the absolute step; FLOAT without: a fraction of the value (null: one order of magnitude below it). */
  step: string | null;
  decimals: number | null;
  min: string | null;
  max: string | null;
}

export interface FormField {
  name: string;
  type: JobParameterType;
  control: FieldControl;
  /** The control the template asked for (or its default), e.g. SPIN_BOX_LIST behind a LIST field. */
  templateControl: string;
  label: string;
  description: string | null;
  group: string | null;
  /** No default: the artist must give a value. */
  required: boolean;
  /** The default as the form shows it ("" without one); lists one item per line. */
  initial: string;
  /** DROPDOWN_LIST choices, as text. */
  options: string[];
  /** STRING CHECK_BOX: which of the two allowed values means checked. */
  checkBox: { on: string; off: string } | null;
  spin: SpinSettings | null;
  fileFilters: FileFilter[];
  fileFilterDefault: FileFilter | null;
  /** The constraints in words ("from -100 to 100", "at most 64 characters"), or null. */
  hint: string | null;
  definition: JobParameterDefinition;
}

export interface FormSection {
  /** The groupLabel; null for parameters outside any group. */
  label: string | null;
  fields: FormField[];
}

export interface ParameterForm {
  fields: FormField[];
  /** Visible fields only, in template order; a group sits where its first parameter is. */
  sections: FormSection[];
}

/** The first word of each CHECK_BOX pair means checked. */
const TRUE_WORDS: ReadonlySet<string> = new Set(CHECK_BOX_PAIRS.map(([on]) => on));

export function buildParameterForm(definitions: readonly JobParameterDefinition[]): ParameterForm {
  const fields = definitions.map(toField);
  const sections: FormSection[] = [];
  const groups = new Map<string, FormSection>();
  for (const field of fields) {
    if (field.control === "HIDDEN") continue;
    if (field.group === null) {
      const last = sections.at(-1);
      if (last && last.label === null) last.fields.push(field);
      else sections.push({ label: null, fields: [field] });
      continue;
    }
    const group = groups.get(field.group);
    if (group) group.fields.push(field);
    else {
      const section = { label: field.group, fields: [field] };
      groups.set(field.group, section);
      sections.push(section);
    }
  }
  return { fields, sections };
}

function toField(definition: JobParameterDefinition): FormField {
  const templateControl = effectiveControl(definition);
  const ui = definition.userInterface;
  const required = definition.default === undefined;
  const pathUi = definition.type === "PATH" || definition.type === "LIST[PATH]" ? definition.userInterface : undefined;
  return {
    name: definition.name,
    type: definition.type,
    // A hidden parameter without a default could never be submitted from a form: show it.
    control: templateControl === "HIDDEN" && required ? fallbackControl(definition) : formControl(templateControl),
    templateControl,
    label: ui?.label ?? definition.name,
    description: definition.description ?? null,
    group: ui?.groupLabel ?? null,
    required,
    initial: initialText(definition),
    options: "allowedValues" in definition && definition.allowedValues ? definition.allowedValues.map(valueText) : [],
    checkBox: checkBoxValues(definition),
    spin: spinSettings(definition),
    fileFilters: pathUi?.fileFilters ?? [],
    fileFilterDefault: pathUi?.fileFilterDefault ?? null,
    hint: constraintHint(definition),
    definition,
  };
}

function formControl(control: string): FieldControl {
  return control.endsWith("_LIST") && control !== "DROPDOWN_LIST" ? "LIST" : (control as FieldControl);
}

function fallbackControl(definition: JobParameterDefinition): FieldControl {
  const { userInterface: _dropped, ...rest } = definition;
  const control = effectiveControl(rest as JobParameterDefinition);
  // Only LIST[LIST[INT]] has no visible control; one inner list per line is the closest.
  return control === "HIDDEN" ? "LIST" : formControl(control);
}

function valueText(value: string | bigint | FloatLiteral | boolean): string {
  if (typeof value === "object") return value.text;
  return String(value);
}

function initialText(definition: JobParameterDefinition): string {
  const value = definition.default;
  if (value === undefined) return "";
  if (Array.isArray(value)) return value.map((item) => (Array.isArray(item) ? JSON.stringify(item.map(String)) : valueText(item))).join("\n");
  return valueText(value as string | bigint | FloatLiteral | boolean);
}

function checkBoxValues(definition: JobParameterDefinition): FormField["checkBox"] {
  if (definition.type === "BOOL") return { on: "true", off: "false" };
  if (definition.type !== "STRING" || !definition.allowedValues || !isCheckBoxPair(definition.allowedValues)) return null;
  const [a, b] = definition.allowedValues as [string, string];
  return TRUE_WORDS.has(a.toLowerCase()) ? { on: a, off: b } : { on: b, off: a };
}

function spinSettings(definition: JobParameterDefinition): SpinSettings | null {
  if (definition.type === "INT") {
    const step = definition.userInterface?.singleStepDelta;
    return { integer: true, step: step === undefined ? "1" : step.toString(), decimals: 0, min: definition.minValue?.toString() ?? null, max: definition.maxValue?.toString() ?? null };
  }
  if (definition.type === "FLOAT") {
    const ui = definition.userInterface;
    const decimals = ui?.decimals ?? null;
    const step = ui?.singleStepDelta !== undefined ? String(ui.singleStepDelta) : decimals !== null ? String(10 ** -decimals) : null;
    return { integer: false, step, decimals, min: definition.minValue?.text ?? null, max: definition.maxValue?.text ?? null };
  }
  return null;
}

function range(min: string | undefined, max: string | undefined, unit = ""): string | null {
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  return null;
}

function constraintHint(definition: JobParameterDefinition): string | null {
  switch (definition.type) {
    case "INT":
      return range(definition.minValue?.toString(), definition.maxValue?.toString());
    case "FLOAT":
      return range(definition.minValue?.text, definition.maxValue?.text);
    case "STRING":
    case "PATH":
    case "RANGE_EXPR":
      return range(definition.minLength?.toString(), definition.maxLength?.toString(), " characters");
    case "BOOL":
      return null;
    default: {
      const count = range(definition.minLength?.toString(), definition.maxLength?.toString(), " items");
      return count ? `one item per line, ${count}` : "one item per line";
    }
  }
}
