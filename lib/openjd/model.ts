/**
 * The typed OpenJD template model (revision 2023-09) that validation produces. Every object
 * remembers the path it came from so that later stages (job creation, the Session runtime) can
 * report located errors against the original template.
 */
import type { PathSegment } from "./errors";
import type { ExtensionName } from "./extensions";
import type { FormatString } from "./format-string";

export type Path = readonly PathSegment[];

export const JOB_PARAMETER_TYPES = ["INT", "FLOAT", "STRING", "PATH"] as const;
export type JobParameterType = (typeof JOB_PARAMETER_TYPES)[number];

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

export type JobParameterDefinition =
  | IntParameterDefinition
  | FloatParameterDefinition
  | StringParameterDefinition
  | PathParameterDefinition;

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

export interface EnvironmentScript {
  actions: { onEnter?: Action; onExit?: Action };
  embeddedFiles: EmbeddedFile[];
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
  | { kind: "list"; items: Array<{ format: FormatString; literal: "int" | "float" | "string"; path: Path }> }
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
