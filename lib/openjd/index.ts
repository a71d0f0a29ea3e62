/**
 * The OpenJD model's public surface, shared by the browser, the server and the CLI. Import from
 * here rather than from individual modules unless you need an internal building block.
 */
export { checkTemplateText, sortErrors, type CheckedTemplate } from "./template";
export { describeError, formatPath, type TemplateError, type PathSegment } from "./errors";
export { detectFormat, locateErrors, parseSource, type DocumentFormat, type ParsedSource } from "./parse-source";
export { decodeTemplate } from "./validate/templates";
export { effectiveControl } from "./validate/user-interface";
export { KNOWN_EXTENSIONS, SUPPORTED_EXTENSIONS, type ExtensionName } from "./extensions";
export type * from "./model";
export { createJob, type CreateJobInput } from "./job/create-job";
export { parameterExprValue, templateEnvironment } from "./job/parameter-symbols";
export { evaluateFormat, formatText, isTypedField, type FormatEnvironment } from "./format-evaluation";
export type { CreateJobResult, Job, JobError, JobStep, ParameterValue, ChunkingInfo, ErrorOrigin } from "./job/types";
export { parameterValueToJson, type ParameterInput } from "./job/parameter-values";
export { StepParameterSpace, type TaskParameterSet, type TaskParameterValue } from "./parameter-space";
export { IntRangeExpr } from "./range-expr";
export { dependencyOrder, findCycle } from "./step-graph";
export {
  matchHostRequirements,
  matchAmountRange,
  STANDARD_AMOUNTS,
  STANDARD_ATTRIBUTES,
  type HostRequirements,
  type WorkerCapabilities,
  type MatchResult,
} from "./capabilities";
export { parseFormatString, resolveFormatString, type FormatString } from "./format-string";
export {
  effectiveCancelation,
  hostEnvironment,
  resolveAction,
  resolveDeclaredAction,
  resolveFileData,
  resolveVariables,
  withLets,
  type ActionRole,
  type DeclaredAction,
  type HostInput,
  type ResolvedAction,
  type SessionValues,
} from "./host-evaluation";
export { WRAP_HOOKS, MAX_NOTIFY_PERIOD } from "./model";
export { HOOK_POSITION, HOOK_REPLACING, isWrappingEnvironment } from "./wrap-stack";
export { hookEnvironment, wrappedActionOf, wrappedSymbols, type WrappedActionValues, type WrappedNames } from "./wrap-evaluation";
