/** A job: a template instantiated with parameter values (spec "How Jobs Are Constructed"). */
import type { HostRequirements } from "../capabilities";
import type { PathSegment } from "../errors";
import type { Environment, EnvironmentTemplate, JobParameterDefinition, JobParameterType, JobTemplate, StepScript, TaskParameterTypeName } from "../model";
import type { CombinationNode } from "../combination-expr";
import type { ExprValue } from "../expr/values";
import type { StepParameterSpace } from "../parameter-space";
import type { TaskGraph } from "./task-graph-types";

/** Job parameter values are strings, as in every OpenJD implementation (INT canonical, FLOAT as written). */
export interface ParameterValue {
  type: JobParameterType;
  value: string;
}

export interface ChunkingInfo {
  parameter: string;
  defaultTaskCount: number;
  /** 0 = always use defaultTaskCount; > 0 lets the scheduler adapt chunk sizes toward this runtime. */
  targetRuntimeSeconds: number;
  rangeConstraint: "CONTIGUOUS" | "NONCONTIGUOUS";
}

export interface JobStep {
  name: string;
  description?: string;
  dependencies: string[];
  stepEnvironments: Environment[];
  hostRequirements: HostRequirements | null;
  /** Task parameters with the number of values in each one's range (before combination). */
  taskParameters: Array<{ name: string; type: TaskParameterTypeName; valueCount: number }>;
  parameterSpace: StepParameterSpace;
  /** The combination in effect (the written one or the default product); null without a parameter space. */
  combination: CombinationNode | null;
  chunking: ChunkingInfo | null;
  script: StepScript;
  /** EXPR: `Step.Name` and the step's `let` values, evaluated at job creation (the script sees them too). */
  letValues: ReadonlyMap<string, ExprValue>;
  template: JobTemplate["steps"][number];
}

export interface Job {
  name: string;
  description?: string;
  /** Merged definitions, in the order the parameters were first defined (environment templates first). */
  parameterDefinitions: JobParameterDefinition[];
  parameters: Record<string, ParameterValue>;
  environmentTemplates: EnvironmentTemplate[];
  jobEnvironments: Environment[];
  steps: JobStep[];
  template: JobTemplate;
  /** TASK_DEPENDENCIES resolved (steps numbered in template order); null when no step has a `dependsOnSubspace`. */
  taskGraph: TaskGraph | null;
}

/** Where a job-creation error belongs: the job template, a submitted value, or an environment template. */
export type ErrorOrigin = { kind: "template" } | { kind: "parameters" } | { kind: "environment"; index: number };

export interface JobError {
  origin: ErrorOrigin;
  segments: PathSegment[];
  message: string;
}

export type CreateJobResult = { ok: true; job: Job } | { ok: false; errors: JobError[] };
