/**
 * The OpenJD model's public face: code outside lib/openjd imports it from here, never from its
 * modules (lib/layering.test.ts checks that), so the modules can move and split freely. Pure and
 * browser-safe like everything under lib/openjd; test and benchmark helpers are in ./testing.
 * An export is here because some code outside uses it: add what a new caller needs.
 */

// Templates: read with positions, check, and the errors located in the source.
export { type CheckedTemplate, checkTemplateText, sortErrors } from "./template";
export { detectFormat, type DocumentFormat, locateErrors, type ParsedSource, parseSource, SOURCE_LIMITS } from "./parse-source";
export { getEntry, nodeToValue, type SourceNode } from "./source-node";
export { describeError, formatPath, type PathSegment, type TemplateError } from "./errors";
export type { Action, EmbeddedFile, EnvironmentTemplate, JobTemplate, LetBinding, Template, WrapHook } from "./model";
export { decodeTemplate } from "./validate/templates";
export { SUPPORTED_EXTENSIONS } from "./extensions";
export { ENVIRONMENT_TEMPLATE_SCHEMA, schemaForText, TEMPLATE_SCHEMAS } from "./json-schema";
export { propertiesOf, schemasAt, valuesOf } from "./json-schema-navigate";

// Jobs: a checked template and parameter values become a job of steps and parameter spaces.
export { createJob } from "./job/create-job";
export type { ChunkingInfo, Job, JobStep, ParameterValue } from "./job/types";
export { type ParameterInput, parameterValueToJson } from "./job/parameter-values";
export { locateJobErrors } from "./job/locate-job-errors";
export { environmentNameOf, type StackEntry, stackFor } from "./job/session-stack";
export { taskOrder, TaskReadiness } from "./job/task-readiness";
export { MAX_TASK_EDGES, type DependencyKind, type ResolvedDependency, type TaskEdges, type TaskGraph } from "./job/task-graph-types";
export type { TaskParameterSet, TaskParameterType } from "./parameter-space";
export { formatCombination } from "./combination-expr";
export { IntRangeExpr } from "./range-expr";

// The submission form built from a template's parameter definitions.
export { buildParameterForm, type FormField, type ParameterForm } from "./form/parameter-form";
export { fieldErrors, fieldInput, type FormValues, initialValues, parameterInputs } from "./form/form-values";
export { describeFilter, fileFilterWarning } from "./form/file-filters";
export { stepSpin } from "./form/spin-step";

// Host requirements and worker capabilities.
export { checkAttributeValue, checkCapabilityName, type HostRequirements, matchHostRequirements, STANDARD_AMOUNTS, STANDARD_ATTRIBUTES, type WorkerCapabilities } from "./capabilities";

// Running actions: what a Session evaluates on the host, wrapping environments, and the stdout message protocol.
export { type ActionRole, hostEnvironment, resolveAction, type ResolvedAction, resolveFileData, resolveVariables, withLets } from "./host-evaluation";
export type { FormatEnvironment } from "./format-evaluation";
export { hookEnvironment, wrappedActionOf, wrappedSymbols } from "./wrap-evaluation";
export { HOOK_POSITION, HOOK_REPLACING, isWrappingEnvironment } from "./wrap-stack";
export { parseOutputLine, REDACTION_MASK } from "./stdout-messages";
export { applyPathMapping, type PathMappingRule, sortPathMappingRules, validatePathMappingRules } from "./expr/paths";

// The EXPR language itself (the benchmarks drive it directly).
export { ExprError } from "./expr/errors";
export { tokenize } from "./expr/lexer";
export { parseExpression } from "./expr/parser";
export { evaluate, evaluateWithMetrics } from "./expr/evaluator";
export { standardLibrary } from "./expr/functions";
export type { ExprValue } from "./expr/values";
