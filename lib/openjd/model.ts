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

/** Job parameter definitions live in their own module; they are part of the model. */
export * from "./parameter-model";
import type { FloatLiteral, JobParameterDefinition, TaskParameterTypeName } from "./parameter-model";

/** A numeric field that FEATURE_BUNDLE_1 / TASK_CHUNKING also allow as a format string. */
export type NumberField<T> = { kind: "literal"; value: T; path: Path } | { kind: "format"; format: FormatString; path: Path };

export type CancelationMode = "TERMINATE" | "NOTIFY_THEN_TERMINATE";
/** Upper bound of `notifyPeriodInSeconds` (spec §5.3.2). */
export const MAX_NOTIFY_PERIOD = 600;

/**
 * A cancelation `mode` as written: one of the two names, or (FEATURE_BUNDLE_1) a format string
 * that resolves to one — or, as a whole-field expression, to null, which drops the whole
 * cancelation object. Literal modes stay plain strings so `mode === "TERMINATE"` reads as before.
 */
export type CancelationModeField = CancelationMode | { kind: "format"; format: FormatString; path: Path };

export interface CancelationMethod {
  mode: CancelationModeField;
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

/** WRAP_ACTIONS hooks: each runs in place of an inner environment's onEnter / a task's onRun / an inner onExit. */
export const WRAP_HOOKS = ["onWrapEnvEnter", "onWrapTaskRun", "onWrapEnvExit"] as const;
export type WrapHook = (typeof WRAP_HOOKS)[number];

export interface EnvironmentActions {
  onEnter?: Action;
  onExit?: Action;
  /** WRAP_ACTIONS: the three hooks are all present or all absent (validation guarantees it). */
  onWrapEnvEnter?: Action;
  onWrapTaskRun?: Action;
  onWrapEnvExit?: Action;
}

export interface EnvironmentScript {
  actions: EnvironmentActions;
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
  { kind: "list"; items: Array<{ format: FormatString; literal: "int" | "float" | "string"; path: Path }>; path: Path } | { kind: "expression"; format: FormatString; path: Path };

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

/**
 * TASK_DEPENDENCIES: one entry of a dependency's subspace, the values of one upstream task
 * parameter. A string range is a format string evaluated per downstream task in the dependency
 * scope (contract §1.1, §3); a list holds one value per item.
 */
export interface SubspaceEntry {
  name: string;
  range: TaskParameterRange;
  path: Path;
}

/** `allOf`: wait for every matched upstream task; `anyOf`: for the first one to succeed. */
export type SubspaceMode = "allOf" | "anyOf";

export interface DependencySubspace {
  mode: SubspaceMode;
  entries: SubspaceEntry[];
  /** The `dependsOnSubspace` field. */
  path: Path;
}

/** A step dependency that waits for some of the upstream step's tasks, not the whole step. */
export interface TaskDependency {
  dependsOn: string;
  subspace: DependencySubspace;
  /** The dependency (`steps[i].dependencies[j]`). */
  path: Path;
}

export interface StepTemplate {
  name: string;
  /** Step-level `let` bindings, evaluated once at job creation. */
  let?: LetBinding[];
  description?: string;
  /** Every `dependsOn`, in order; the step's own name only with a subspace (TASK_DEPENDENCIES). */
  dependencies: string[];
  /** TASK_DEPENDENCIES: the dependencies above that carry a `dependsOnSubspace`. */
  taskDependencies?: TaskDependency[];
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
