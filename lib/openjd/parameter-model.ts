/**
 * Job parameter definitions of the template model (spec §2, EXPR §2.9–§2.16), as validation
 * produces them. Re-exported by `model.ts`; import them from there.
 */
import type { Path } from "./model";

/** Job parameter types of the base specification (§2.1–§2.4). */
export const BASE_JOB_PARAMETER_TYPES = ["INT", "FLOAT", "STRING", "PATH"] as const;
/** Job parameter types that only exist with the EXPR extension (§2.9–§2.16), in their canonical spelling. */
export const EXPR_JOB_PARAMETER_TYPES = ["BOOL", "RANGE_EXPR", "LIST[STRING]", "LIST[PATH]", "LIST[INT]", "LIST[FLOAT]", "LIST[BOOL]", "LIST[LIST[INT]]"] as const;
export const JOB_PARAMETER_TYPES = [...BASE_JOB_PARAMETER_TYPES, ...EXPR_JOB_PARAMETER_TYPES] as const;
export type JobParameterType = (typeof JOB_PARAMETER_TYPES)[number];
export type ListParameterType = Extract<JobParameterType, `LIST[${string}]`>;

export const TASK_PARAMETER_TYPES = ["INT", "FLOAT", "STRING", "PATH", "CHUNK[INT]"] as const;
export type TaskParameterTypeName = (typeof TASK_PARAMETER_TYPES)[number];

/** A float as written: the number for comparisons, the text for pass-through ("1.50" stays "1.50"). */
export interface FloatLiteral {
  value: number;
  text: string;
}

export interface UserInterfaceBase {
  control?: string;
  label?: string;
  groupLabel?: string;
}

interface ParameterBase {
  name: string;
  description?: string;
  path: Path;
}

export interface IntParameterDefinition extends ParameterBase {
  type: "INT";
  default?: bigint;
  allowedValues?: bigint[];
  minValue?: bigint;
  maxValue?: bigint;
  userInterface?: UserInterfaceBase & { control?: "SPIN_BOX" | "DROPDOWN_LIST" | "HIDDEN"; singleStepDelta?: bigint };
}

export interface FloatParameterDefinition extends ParameterBase {
  type: "FLOAT";
  default?: FloatLiteral;
  allowedValues?: FloatLiteral[];
  minValue?: FloatLiteral;
  maxValue?: FloatLiteral;
  userInterface?: UserInterfaceBase & {
    control?: "SPIN_BOX" | "DROPDOWN_LIST" | "HIDDEN";
    decimals?: number;
    singleStepDelta?: number;
  };
}

export interface StringParameterDefinition extends ParameterBase {
  type: "STRING";
  default?: string;
  allowedValues?: string[];
  minLength?: number;
  maxLength?: number;
  userInterface?: UserInterfaceBase & {
    control?: "LINE_EDIT" | "MULTILINE_EDIT" | "DROPDOWN_LIST" | "CHECK_BOX" | "HIDDEN";
  };
}

export interface FileFilter {
  label: string;
  patterns: string[];
}

export type PathObjectType = "FILE" | "DIRECTORY";
export type PathDataFlow = "NONE" | "IN" | "OUT" | "INOUT";

export interface PathParameterDefinition extends ParameterBase {
  type: "PATH";
  objectType?: PathObjectType;
  dataFlow?: PathDataFlow;
  default?: string;
  allowedValues?: string[];
  minLength?: number;
  maxLength?: number;
  userInterface?: UserInterfaceBase & {
    control?: "CHOOSE_INPUT_FILE" | "CHOOSE_OUTPUT_FILE" | "CHOOSE_DIRECTORY" | "DROPDOWN_LIST" | "HIDDEN";
    fileFilters?: FileFilter[];
    fileFilterDefault?: FileFilter;
  };
}

export interface BoolParameterDefinition extends ParameterBase {
  type: "BOOL";
  default?: boolean;
  userInterface?: UserInterfaceBase & { control?: "CHECK_BOX" | "HIDDEN" };
}

export interface RangeExprParameterDefinition extends ParameterBase {
  type: "RANGE_EXPR";
  /** As written; it parses as an IntRangeExpr. */
  default?: string;
  /** Lengths of the expression text as written (code points); values longer than 1024 are refused when maxLength is absent. */
  minLength?: number;
  maxLength?: number;
  userInterface?: UserInterfaceBase & { control?: "LINE_EDIT" | "HIDDEN" };
}

/** `item:` of LIST[STRING] and LIST[PATH]: constraints on each string. */
export interface StringItemConstraints {
  allowedValues?: string[];
  minLength?: number;
  maxLength?: number;
}

/** `item:` of LIST[INT], and `item.item:` of LIST[LIST[INT]]. */
export interface IntItemConstraints {
  allowedValues?: bigint[];
  minValue?: bigint;
  maxValue?: bigint;
}

export interface FloatItemConstraints {
  allowedValues?: FloatLiteral[];
  minValue?: FloatLiteral;
  maxValue?: FloatLiteral;
}

/** `item:` of LIST[LIST[INT]]: lengths of each inner list and constraints on its integers. */
export interface IntListItemConstraints {
  minLength?: number;
  maxLength?: number;
  item?: IntItemConstraints;
}

/** List-level `minLength`/`maxLength` count items. */
interface ListParameterBase extends ParameterBase {
  minLength?: number;
  maxLength?: number;
}

export interface ListStringParameterDefinition extends ListParameterBase {
  type: "LIST[STRING]";
  default?: string[];
  item?: StringItemConstraints;
  userInterface?: UserInterfaceBase & { control?: "LINE_EDIT_LIST" | "HIDDEN" };
}

export interface ListPathParameterDefinition extends ListParameterBase {
  type: "LIST[PATH]";
  objectType?: PathObjectType;
  dataFlow?: PathDataFlow;
  default?: string[];
  item?: StringItemConstraints;
  userInterface?: UserInterfaceBase & {
    control?: "CHOOSE_INPUT_FILE_LIST" | "CHOOSE_OUTPUT_FILE_LIST" | "CHOOSE_DIRECTORY_LIST" | "HIDDEN";
    fileFilters?: FileFilter[];
    fileFilterDefault?: FileFilter;
  };
}

export interface ListIntParameterDefinition extends ListParameterBase {
  type: "LIST[INT]";
  default?: bigint[];
  item?: IntItemConstraints;
  userInterface?: UserInterfaceBase & { control?: "SPIN_BOX_LIST" | "HIDDEN"; singleStepDelta?: bigint };
}

export interface ListFloatParameterDefinition extends ListParameterBase {
  type: "LIST[FLOAT]";
  default?: FloatLiteral[];
  item?: FloatItemConstraints;
  userInterface?: UserInterfaceBase & { control?: "SPIN_BOX_LIST" | "HIDDEN"; decimals?: number; singleStepDelta?: number };
}

export interface ListBoolParameterDefinition extends ListParameterBase {
  type: "LIST[BOOL]";
  default?: boolean[];
  userInterface?: UserInterfaceBase & { control?: "CHECK_BOX_LIST" | "HIDDEN" };
}

export interface ListListIntParameterDefinition extends ListParameterBase {
  type: "LIST[LIST[INT]]";
  default?: bigint[][];
  item?: IntListItemConstraints;
  userInterface?: UserInterfaceBase & { control?: "HIDDEN" };
}

export type ListParameterDefinition =
  ListStringParameterDefinition | ListPathParameterDefinition | ListIntParameterDefinition | ListFloatParameterDefinition | ListBoolParameterDefinition | ListListIntParameterDefinition;

export type JobParameterDefinition =
  IntParameterDefinition | FloatParameterDefinition | StringParameterDefinition | PathParameterDefinition | BoolParameterDefinition | RangeExprParameterDefinition | ListParameterDefinition;
