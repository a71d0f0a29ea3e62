/**
 * `userInterface` hints of job parameters. Several of them are validation rules, not just hints:
 * the control must fit the parameter (allowedValues, objectType) and per-control fields such as
 * singleStepDelta, decimals and fileFilters only exist for the controls that use them.
 */
import type { FileFilter, JobParameterDefinition, JobParameterType, Path } from "../model";
import type { ObjectNode, SourceNode } from "../source-node";
import { child, expectList, expectObject, field, type ValidationContext } from "./context";
import { readEnum, readFloat, readInt, readString } from "./scalars";

const CONTROLS = {
  INT: ["SPIN_BOX", "DROPDOWN_LIST", "HIDDEN"],
  FLOAT: ["SPIN_BOX", "DROPDOWN_LIST", "HIDDEN"],
  STRING: ["LINE_EDIT", "MULTILINE_EDIT", "DROPDOWN_LIST", "CHECK_BOX", "HIDDEN"],
  PATH: ["CHOOSE_INPUT_FILE", "CHOOSE_OUTPUT_FILE", "CHOOSE_DIRECTORY", "DROPDOWN_LIST", "HIDDEN"],
  BOOL: ["CHECK_BOX", "HIDDEN"],
  RANGE_EXPR: ["LINE_EDIT", "HIDDEN"],
  "LIST[STRING]": ["LINE_EDIT_LIST", "HIDDEN"],
  "LIST[PATH]": ["CHOOSE_INPUT_FILE_LIST", "CHOOSE_OUTPUT_FILE_LIST", "CHOOSE_DIRECTORY_LIST", "HIDDEN"],
  "LIST[INT]": ["SPIN_BOX_LIST", "HIDDEN"],
  "LIST[FLOAT]": ["SPIN_BOX_LIST", "HIDDEN"],
  "LIST[BOOL]": ["CHECK_BOX_LIST", "HIDDEN"],
  // No form control is defined for nested lists: they are meant to be given programmatically (RFC 0007).
  "LIST[LIST[INT]]": ["HIDDEN"],
} as const satisfies Record<JobParameterType, readonly string[]>;

/** Every control some parameter type allows. */
export const UI_CONTROLS = [...new Set(Object.values(CONTROLS).flat())];

const LABELS = ["control", "label", "groupLabel"] as const;
const FILE_FILTERS = [...LABELS, "fileFilters", "fileFilterDefault"] as const;
const UI_FIELDS = {
  INT: [...LABELS, "singleStepDelta"],
  FLOAT: [...LABELS, "decimals", "singleStepDelta"],
  STRING: LABELS,
  PATH: FILE_FILTERS,
  BOOL: LABELS,
  RANGE_EXPR: LABELS,
  "LIST[STRING]": LABELS,
  "LIST[PATH]": FILE_FILTERS,
  "LIST[INT]": [...LABELS, "singleStepDelta"],
  "LIST[FLOAT]": [...LABELS, "decimals", "singleStepDelta"],
  "LIST[BOOL]": LABELS,
  "LIST[LIST[INT]]": LABELS,
} as const satisfies Record<JobParameterType, readonly string[]>;

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
 * from type, allowedValues, objectType and dataFlow (§2 "userInterface", §2.9–§2.16).
 */
export function effectiveControl(definition: JobParameterDefinition): string {
  const explicit = definition.userInterface?.control;
  if (explicit) return explicit;
  switch (definition.type) {
    case "INT":
    case "FLOAT":
      return definition.allowedValues ? "DROPDOWN_LIST" : "SPIN_BOX";
    case "STRING":
      return definition.allowedValues ? "DROPDOWN_LIST" : "LINE_EDIT";
    case "PATH":
      return definition.allowedValues ? "DROPDOWN_LIST" : pathChooser(definition);
    case "LIST[PATH]":
      return `${pathChooser(definition)}_LIST`;
    case "BOOL":
      return "CHECK_BOX";
    case "RANGE_EXPR":
      return "LINE_EDIT";
    case "LIST[STRING]":
      return "LINE_EDIT_LIST";
    case "LIST[INT]":
    case "LIST[FLOAT]":
      return "SPIN_BOX_LIST";
    case "LIST[BOOL]":
      return "CHECK_BOX_LIST";
    case "LIST[LIST[INT]]":
      return "HIDDEN";
  }
}

function pathChooser(definition: { objectType?: "FILE" | "DIRECTORY"; dataFlow?: string }): string {
  if (definition.objectType === "FILE") return definition.dataFlow === "OUT" ? "CHOOSE_OUTPUT_FILE" : "CHOOSE_INPUT_FILE";
  return "CHOOSE_DIRECTORY";
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
  // Only the base types have allowedValues; the controls of the EXPR types depend on the type alone.
  if (definition.type === "INT" || definition.type === "FLOAT" || definition.type === "STRING" || definition.type === "PATH") {
    const allowed = definition.allowedValues as unknown[] | undefined;
    if (FREE_INPUT.has(control) && allowed !== undefined) {
      ctx.error(child(path, "control"), `control ${control} cannot be used with allowedValues (use DROPDOWN_LIST)`);
    }
    if (control === "DROPDOWN_LIST" && allowed === undefined) {
      ctx.error(child(path, "control"), "control DROPDOWN_LIST requires allowedValues");
    }
    if (definition.type === "STRING" && control === "CHECK_BOX" && (allowed === undefined || !isCheckBoxPair(allowed as string[]))) {
      ctx.error(child(path, "control"), "control CHECK_BOX requires allowedValues to be exactly one of the pairs true/false, yes/no, on/off, 1/0 (any case and order)");
    }
  }
  if (definition.type === "PATH" || definition.type === "LIST[PATH]") checkPathHints(ctx, ui, path, definition, control, hints);
  if (definition.type === "INT" || definition.type === "FLOAT" || definition.type === "LIST[INT]" || definition.type === "LIST[FLOAT]") {
    checkNumberHints(ctx, ui, path, definition, control, hints);
  }
}

function checkPathHints(
  ctx: ValidationContext,
  ui: ObjectNode,
  path: Path,
  definition: JobParameterDefinition & { type: "PATH" | "LIST[PATH]" },
  control: string,
  hints: Record<string, unknown>,
): void {
  // LIST[PATH] has the same choosers, each for a list of paths (§2.12).
  const list = definition.type === "LIST[PATH]" ? "_LIST" : "";
  const [input, output, directory] = [`CHOOSE_INPUT_FILE${list}`, `CHOOSE_OUTPUT_FILE${list}`, `CHOOSE_DIRECTORY${list}`];
  if (control === directory && definition.objectType === "FILE") {
    ctx.error(child(path, "control"), `control ${directory} cannot be used with objectType FILE`);
  }
  if ((control === input || control === output) && definition.objectType === "DIRECTORY") {
    ctx.error(child(path, "control"), `control ${control} cannot be used with objectType DIRECTORY`);
  }
  const filtersNode = field(ui, "fileFilters");
  const defaultNode = field(ui, "fileFilterDefault");
  // Spec §2.2: file filters "can be provided when the control is CHOOSE_INPUT_FILE or
  // CHOOSE_OUTPUT_FILE", so like singleStepDelta and decimals they are refused elsewhere.
  if ((filtersNode !== undefined || defaultNode !== undefined) && control !== input && control !== output) {
    ctx.error(
      child(path, filtersNode !== undefined ? "fileFilters" : "fileFilterDefault"),
      `file filters only apply to the file choosers (${input}, ${output}), not to ${control === directory ? "a directory" : control}`,
    );
  }
  if (filtersNode !== undefined) {
    const items = expectList(ctx, filtersNode, child(path, "fileFilters"), { max: 20 });
    if (items) {
      hints.fileFilters = items.map((item, i) => readFileFilter(ctx, item, child(child(path, "fileFilters"), i))).filter((f): f is FileFilter => f !== null);
    }
  }
  if (defaultNode !== undefined) hints.fileFilterDefault = readFileFilter(ctx, defaultNode, child(path, "fileFilterDefault")) ?? undefined;
}

/** `*`, `*.*`, or `*.` followed by extension characters (spec §2.2 `<FileDialogFilterPatternStringValue>`). */
// eslint-disable-next-line no-control-regex -- the spec excludes control characters
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
  definition: JobParameterDefinition & { type: "INT" | "FLOAT" | "LIST[INT]" | "LIST[FLOAT]" },
  control: string,
  hints: Record<string, unknown>,
): void {
  const spinBox = definition.type.startsWith("LIST[") ? "SPIN_BOX_LIST" : "SPIN_BOX";
  const deltaNode = field(ui, "singleStepDelta");
  if (deltaNode !== undefined) {
    const p = child(path, "singleStepDelta");
    if (control !== spinBox) ctx.error(p, `singleStepDelta only applies to the ${spinBox} control, not ${control}`);
    if (definition.type === "INT" || definition.type === "LIST[INT]") {
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
    if (control !== spinBox) ctx.error(p, `decimals only applies to the ${spinBox} control, not ${control}`);
    const decimals = readInt(ctx, decimalsNode, p, false);
    if (decimals !== null && decimals < 0n) ctx.error(p, "decimals must be zero or greater");
    else if (decimals !== null) hints.decimals = Number(decimals);
  }
}
