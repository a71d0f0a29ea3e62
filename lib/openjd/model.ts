/**
 * The typed OpenJD template model (revision 2023-09) that validation produces. Every object
 * remembers the path it came from so that later stages (job creation, the Session runtime) can
 * report located errors against the original template.
 */
import type { PathSegment } from "./errors";
import type { ExtensionName } from "./extensions";
import type { Expr } from "./expr/ast";
import type { FormatString } from "./format-string";

export type Path = readonly PathSegment[];

/** Job parameter types of the base specification (§2.1–§2.4). */
export const BASE_JOB_PARAMETER_TYPES = ["INT", "FLOAT", "STRING", "PATH"] as const;
/** Job parameter types that only exist with the EXPR extension (§2.9–§2.16), in their canonical spelling. */
export const EXPR_JOB_PARAMETER_TYPES = [
  "BOOL",
  "RANGE_EXPR",
  "LIST[STRING]",
  "LIST[PATH]",
  "LIST[INT]",
  "LIST[FLOAT]",
  "LIST[BOOL]",
  "LIST[LIST[INT]]",
] as const;
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
  | ListStringParameterDefinition
  | ListPathParameterDefinition
  | ListIntParameterDefinition
  | ListFloatParameterDefinition
  | ListBoolParameterDefinition
  | ListListIntParameterDefinition;

export type JobParameterDefinition =
  | IntParameterDefinition
  | FloatParameterDefinition
  | StringParameterDefinition
  | PathParameterDefinition
  | BoolParameterDefinition
  | RangeExprParameterDefinition
  | ListParameterDefinition;

/** A numeric field that FEATURE_BUNDLE_1 / TASK_CHUNKING also allow as a format string. */
export type NumberField<T> = { kind: "literal"; value: T; path: Path } | { kind: "format"; format: FormatString; path: Path };

export type CancelationMode = "TERMINATE" | "NOTIFY_THEN_TERMINATE";

export interface CancelationMethod {
  mode: CancelationMode;
  notifyPeriodInSeconds?: NumberField<bigint>;
}

export interface Action {
  command: FormatString;
  args?: FormatString[];
  timeout?: NumberField<bigint>;
  cancelation?: CancelationMethod;
  path: Path;
}

export type EndOfLine = "AUTO" | "LF" | "CRLF";

export interface EmbeddedFile {
  name: string;
  type: "TEXT";
  filename?: string;
  runnable: boolean;
  data: FormatString;
  endOfLine?: EndOfLine;
  path: Path;
}

/** An EXPR `let` binding: `name = expression`, evaluated in order (spec digest §5.4). */
export interface LetBinding {
  name: string;
  expr: Expr;
  /** The whole `name = expression` text as written. */
  source: string;
  path: Path;
}

export interface EnvironmentScript {
  actions: { onEnter?: Action; onExit?: Action };
  embeddedFiles: EmbeddedFile[];
  let?: LetBinding[];
}

export interface Environment {
  name: string;
  description?: string;
  script?: EnvironmentScript;
  /** Ordered: variables are applied in the order written. */
  variables?: Array<{ name: string; value: FormatString }>;
  path: Path;
}

export interface StepScript {
  actions: { onRun: Action };
  embeddedFiles: EmbeddedFile[];
  /** Evaluated on the worker once per task, before the actions run. */
  let?: LetBinding[];
}

export const SIMPLE_ACTION_KINDS = ["bash", "cmd", "node", "powershell", "python"] as const;
export type SimpleActionKind = (typeof SIMPLE_ACTION_KINDS)[number];

export interface AmountRequirementTemplate {
  name: FormatString;
  min?: NumberField<FloatLiteral>;
  max?: NumberField<FloatLiteral>;
  path: Path;
}

export interface AttributeRequirementTemplate {
  name: FormatString;
  anyOf?: FormatString[];
  allOf?: FormatString[];
  path: Path;
}

export interface HostRequirementsTemplate {
  amounts: AmountRequirementTemplate[];
  attributes: AttributeRequirementTemplate[];
  path: Path;
}

export type RangeConstraintName = "CONTIGUOUS" | "NONCONTIGUOUS";

export interface ChunksDefinition {
  defaultTaskCount: NumberField<bigint>;
  targetRuntimeSeconds?: NumberField<bigint>;
  rangeConstraint: RangeConstraintName;
}

/** A task parameter range: a list of items (literals or format strings) or one range-expression string. */
export type TaskParameterRange =
  | { kind: "list"; items: Array<{ format: FormatString; literal: "int" | "float" | "string"; path: Path }>; path: Path }
  | { kind: "expression"; format: FormatString; path: Path };

export interface TaskParameterDefinition {
  name: string;
  type: TaskParameterTypeName;
  range: TaskParameterRange;
  chunks?: ChunksDefinition;
  path: Path;
}

export interface ParameterSpaceDefinition {
  taskParameterDefinitions: TaskParameterDefinition[];
  combination?: string;
  path: Path;
}

export interface StepTemplate {
  name: string;
  /** Step-level `let` bindings, evaluated once at job creation. */
  let?: LetBinding[];
  description?: string;
  dependencies: string[];
  stepEnvironments: Environment[];
  hostRequirements?: HostRequirementsTemplate;
  parameterSpace?: ParameterSpaceDefinition;
  /** For a FEATURE_BUNDLE_1 simple action this is the desugared script (an embedded file + onRun). */
  script: StepScript;
  simpleAction?: SimpleActionKind;
  path: Path;
}

export interface JobTemplate {
  specificationVersion: "jobtemplate-2023-09";
  extensions: ExtensionName[];
  name: FormatString;
  description?: string;
  parameterDefinitions: JobParameterDefinition[];
  jobEnvironments: Environment[];
  steps: StepTemplate[];
}

export interface EnvironmentTemplate {
  specificationVersion: "environment-2023-09";
  extensions: ExtensionName[];
  parameterDefinitions: JobParameterDefinition[];
  environment: Environment;
}

export type Template = { kind: "job"; template: JobTemplate } | { kind: "environment"; template: EnvironmentTemplate };
