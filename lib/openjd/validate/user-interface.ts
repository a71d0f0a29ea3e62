/**
 * `userInterface` hints of job parameters. Several of them are validation rules, not just hints:
 * the control must fit the parameter (allowedValues, objectType) and per-control fields such as
 * singleStepDelta, decimals and fileFilters only exist for the controls that use them.
 */
import type { FileFilter, JobParameterDefinition, Path } from "../model";
import type { ObjectNode, SourceNode } from "../source-node";
import { child, expectList, expectObject, field, type ValidationContext } from "./context";
import { readEnum, readFloat, readInt, readString } from "./scalars";

const CONTROLS = {
  INT: ["SPIN_BOX", "DROPDOWN_LIST", "HIDDEN"],
  FLOAT: ["SPIN_BOX", "DROPDOWN_LIST", "HIDDEN"],
  STRING: ["LINE_EDIT", "MULTILINE_EDIT", "DROPDOWN_LIST", "CHECK_BOX", "HIDDEN"],
  PATH: ["CHOOSE_INPUT_FILE", "CHOOSE_OUTPUT_FILE", "CHOOSE_DIRECTORY", "DROPDOWN_LIST", "HIDDEN"],
} as const;

const UI_FIELDS = {
  INT: ["control", "label", "groupLabel", "singleStepDelta"],
  FLOAT: ["control", "label", "groupLabel", "decimals", "singleStepDelta"],
  STRING: ["control", "label", "groupLabel"],
  PATH: ["control", "label", "groupLabel", "fileFilters", "fileFilterDefault"],
} as const;

/** Controls that take free input and therefore cannot be combined with allowedValues. */
const FREE_INPUT = new Set(["LINE_EDIT", "MULTILINE_EDIT", "SPIN_BOX", "CHOOSE_INPUT_FILE", "CHOOSE_OUTPUT_FILE", "CHOOSE_DIRECTORY"]);

export const CHECK_BOX_PAIRS = [
  ["true", "false"],
  ["yes", "no"],
  ["on", "off"],
  ["1", "0"],
] as const;

const LABEL = { min: 1, max: 64, control: "all" } as const;

/**
 * The control a form shows for a parameter: the explicit one, or the default the spec derives
 * from type, allowedValues, objectType and dataFlow (§2, "userInterface").
 */
export function effectiveControl(definition: JobParameterDefinition): string {
  const explicit = definition.userInterface?.control;
  if (explicit) return explicit;
  if (definition.allowedValues !== undefined) return "DROPDOWN_LIST";
  switch (definition.type) {
    case "INT":
    case "FLOAT":
      return "SPIN_BOX";
    case "STRING":
      return "LINE_EDIT";
    case "PATH":
      if (definition.objectType === "FILE") return definition.dataFlow === "OUT" ? "CHOOSE_OUTPUT_FILE" : "CHOOSE_INPUT_FILE";
      return "CHOOSE_DIRECTORY";
  }
}

export function isCheckBoxPair(values: readonly string[]): boolean {
  if (values.length !== 2) return false;
  const lower = values.map((v) => v.toLowerCase()).sort();
  return CHECK_BOX_PAIRS.some((pair) => {
    const sorted = [...pair].sort();
    return sorted[0] === lower[0] && sorted[1] === lower[1];
  });
}

/** Validates the userInterface block and stores the typed hints on the definition. */
export function checkUserInterface(ctx: ValidationContext, node: SourceNode, path: Path, definition: JobParameterDefinition): void {
  const ui = expectObject(ctx, node, path, { optional: UI_FIELDS[definition.type] });
  if (!ui) return;
  const hints: Record<string, unknown> = {};
  const controlNode = field(ui, "control");
  if (controlNode !== undefined) {
    const control = readEnum(ctx, controlNode, child(path, "control"), CONTROLS[definition.type]);
    if (control !== null) hints.control = control;
  }
  for (const key of ["label", "groupLabel"] as const) {
    const n = field(ui, key);
    if (n !== undefined) hints[key] = readString(ctx, n, child(path, key), LABEL) ?? undefined;
  }
  definition.userInterface = hints as NonNullable<JobParameterDefinition["userInterface"]>;
  const control = effectiveControl(definition);
  const allowed = definition.allowedValues as unknown[] | undefined;
  if (FREE_INPUT.has(control) && allowed !== undefined) {
    ctx.error(child(path, "control"), `control ${control} cannot be used with allowedValues (use DROPDOWN_LIST)`);
  }
  if (control === "DROPDOWN_LIST" && allowed === undefined) {
    ctx.error(child(path, "control"), "control DROPDOWN_LIST requires allowedValues");
  }
  if (control === "CHECK_BOX" && (allowed === undefined || !isCheckBoxPair(allowed as string[]))) {
    ctx.error(
      child(path, "control"),
      "control CHECK_BOX requires allowedValues to be exactly one of the pairs true/false, yes/no, on/off, 1/0 (any case and order)",
    );
  }
  if (definition.type === "PATH") checkPathHints(ctx, ui, path, definition, control, hints);
  if (definition.type === "INT" || definition.type === "FLOAT") checkNumberHints(ctx, ui, path, definition, control, hints);
}

function checkPathHints(
  ctx: ValidationContext,
  ui: ObjectNode,
  path: Path,
  definition: JobParameterDefinition & { type: "PATH" },
  control: string,
  hints: Record<string, unknown>,
): void {
  if (control === "CHOOSE_DIRECTORY" && definition.objectType === "FILE") {
    ctx.error(child(path, "control"), "control CHOOSE_DIRECTORY cannot be used with objectType FILE");
  }
  if ((control === "CHOOSE_INPUT_FILE" || control === "CHOOSE_OUTPUT_FILE") && definition.objectType === "DIRECTORY") {
    ctx.error(child(path, "control"), `control ${control} cannot be used with objectType DIRECTORY`);
  }
  const filtersNode = field(ui, "fileFilters");
  const defaultNode = field(ui, "fileFilterDefault");
  // Spec §2.2: file filters "can be provided when the control is CHOOSE_INPUT_FILE or
  // CHOOSE_OUTPUT_FILE", so like singleStepDelta and decimals they are refused elsewhere.
  if ((filtersNode !== undefined || defaultNode !== undefined) && control !== "CHOOSE_INPUT_FILE" && control !== "CHOOSE_OUTPUT_FILE") {
    ctx.error(
      child(path, filtersNode !== undefined ? "fileFilters" : "fileFilterDefault"),
      `file filters only apply to the file choosers (CHOOSE_INPUT_FILE, CHOOSE_OUTPUT_FILE), not to ${control === "CHOOSE_DIRECTORY" ? "a directory" : control}`,
    );
  }
  if (filtersNode !== undefined) {
    const items = expectList(ctx, filtersNode, child(path, "fileFilters"), { max: 20 });
    if (items) {
      hints.fileFilters = items
        .map((item, i) => readFileFilter(ctx, item, child(child(path, "fileFilters"), i)))
        .filter((f): f is FileFilter => f !== null);
    }
  }
  if (defaultNode !== undefined) hints.fileFilterDefault = readFileFilter(ctx, defaultNode, child(path, "fileFilterDefault")) ?? undefined;
}

/** `*`, `*.*`, or `*.` followed by extension characters (spec §2.2 `<FileDialogFilterPatternStringValue>`). */
const FILTER_PATTERN = /^(\*|\*\.\*|\*\.[^\u0000-\u001F\u007F-\u009F\\/*?[\]#%&{}<>$!'":@`|=]+)$/;

function readFileFilter(ctx: ValidationContext, node: SourceNode, path: Path): FileFilter | null {
  const filter = expectObject(ctx, node, path, { required: ["label", "patterns"] });
  if (!filter) return null;
  const labelNode = field(filter, "label");
  const label = labelNode === undefined ? null : readString(ctx, labelNode, child(path, "label"), LABEL);
  const patternsNode = field(filter, "patterns");
  const patterns: string[] = [];
  if (patternsNode !== undefined) {
    const items = expectList(ctx, patternsNode, child(path, "patterns"), { max: 20 });
    items?.forEach((item, i) => {
      const p = child(child(path, "patterns"), i);
      const pattern = readString(ctx, item, p, { min: 1, max: 20 });
      if (pattern === null) return;
      if (!FILTER_PATTERN.test(pattern)) {
        ctx.error(p, `file filter pattern '${pattern}' must be '*', '*.*' or '*.<extension>' (no paths, wildcards or special characters in the extension)`);
      } else patterns.push(pattern);
    });
  }
  return label === null ? null : { label, patterns };
}

function checkNumberHints(
  ctx: ValidationContext,
  ui: ObjectNode,
  path: Path,
  definition: JobParameterDefinition & { type: "INT" | "FLOAT" },
  control: string,
  hints: Record<string, unknown>,
): void {
  const deltaNode = field(ui, "singleStepDelta");
  if (deltaNode !== undefined) {
    const p = child(path, "singleStepDelta");
    if (control !== "SPIN_BOX") ctx.error(p, `singleStepDelta only applies to the SPIN_BOX control, not ${control}`);
    if (definition.type === "INT") {
      const delta = readInt(ctx, deltaNode, p, false);
      if (delta !== null && delta <= 0n) ctx.error(p, "singleStepDelta must be greater than zero");
      else if (delta !== null) hints.singleStepDelta = delta;
    } else {
      const delta = readFloat(ctx, deltaNode, p, false);
      if (delta !== null && delta.value <= 0) ctx.error(p, "singleStepDelta must be greater than zero");
      else if (delta !== null) hints.singleStepDelta = delta.value;
    }
  }
  const decimalsNode = field(ui, "decimals");
  if (decimalsNode !== undefined) {
    const p = child(path, "decimals");
    if (control !== "SPIN_BOX") ctx.error(p, `decimals only applies to the SPIN_BOX control, not ${control}`);
    const decimals = readInt(ctx, decimalsNode, p, false);
    if (decimals !== null && decimals < 0n) ctx.error(p, "decimals must be zero or greater");
    else if (decimals !== null) hints.decimals = Number(decimals);
  }
}
