/**
 * The EXPR `path` type as pure functions on strings (spec digest §14.3–§14.5, §12.6): pathlib
 * semantics for POSIX and WINDOWS paths, opaque `scheme://authority` roots for URIs, and path
 * mapping. Every function takes the evaluator's format and detects URIs itself.
 */
export { type PathFormat, PathError } from "./path-error";
export { isUriPath } from "./uri-path";
export { normalizePathText } from "./parse-path";
export { asPosix, isAbsolutePath, pathName, pathParent, pathParts, pathStem, pathSuffix, pathSuffixes } from "./path-properties";
export { appendToPath, joinPaths, pathFromParts } from "./join-paths";
export { withName, withStem, withSuffix } from "./with-name";
export { withNumber } from "./with-number";
export { isRelativeTo, relativeTo } from "./relative-to";
export { applyPathMapping, type PathMappingRule, type PathMappingSourceFormat, sortPathMappingRules } from "./path-mapping";
export { type PathMappingRulesResult, validatePathMappingRules } from "./path-mapping-rules";
