/**
 * Reading a `pathmapping-1.0` document (How-Jobs-Are-Run "Path Mapping"), with the reference
 * runtime's messages (research/openjd-reference-behaviour.md §1.4 and §3.8). The formats are read
 * case-insensitively, as `PathFormat` is there; `URI` is the EXPR addition (Expression Language
 * "PathMappingRule").
 */
import { isUriPath } from "./uri-path";
import type { PathMappingRule, PathMappingSourceFormat } from "./path-mapping";

export type PathMappingRulesResult = { ok: true; rules: PathMappingRule[] } | { ok: false; message: string };

const VERSION = "pathmapping-1.0";
const RULE_FIELDS = ["source_path_format", "source_path", "destination_path"] as const;
const SOURCE_FORMATS: readonly PathMappingSourceFormat[] = ["POSIX", "WINDOWS", "URI"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isSourceFormat(text: string): text is PathMappingSourceFormat {
  return (SOURCE_FORMATS as readonly string[]).includes(text);
}

function readRule(item: unknown): PathMappingRule | string {
  if (!isObject(item)) return "A path mapping rule must be a JSON object";
  const keys = Object.keys(item);
  if (keys.length === 0) return "Empty path mapping rule";
  if (RULE_FIELDS.some((field) => !Object.hasOwn(item, field))) {
    return `Path mapping rule requires the following fields: [${RULE_FIELDS.map((field) => `'${field}'`).join(", ")}]`;
  }
  const unsupported = keys.filter((key) => !(RULE_FIELDS as readonly string[]).includes(key));
  if (unsupported.length > 0) {
    return `Unsupported fields for constructing path mapping rule: {${unsupported.map((key) => `'${key}'`).join(", ")}}`;
  }
  const { source_path_format: format, source_path: source, destination_path: destination } = item;
  if (typeof format !== "string") return "'source_path_format' must be a string";
  const sourceFormat = format.toUpperCase();
  if (!isSourceFormat(sourceFormat)) return `'${format}' is not a valid PathFormat`;
  // Decision: empty paths are refused; '' would read as '.' and map every relative path.
  if (typeof source !== "string" || source === "") return "'source_path' must be a non-empty string";
  if (typeof destination !== "string" || destination === "") return "'destination_path' must be a non-empty string";
  if (sourceFormat === "URI" && !isUriPath(source)) {
    return `A URI path mapping rule needs a 'source_path' of the form scheme://authority/path, not '${source}'`;
  }
  return { source_path_format: sourceFormat, source_path: source, destination_path: destination };
}

/**
 * Validates the parsed JSON of a rules document. The empty object `{}` is what a runtime writes
 * when a Session has no rules ("allowed to be the empty object"), so it reads as no rules.
 * Other top-level keys are ignored, as the reference runtime does.
 */
export function validatePathMappingRules(json: unknown): PathMappingRulesResult {
  if (!isObject(json)) return { ok: false, message: "Path mapping rules must be a JSON object" };
  if (Object.keys(json).length === 0) return { ok: true, rules: [] };
  if (json.version !== VERSION) {
    return { ok: false, message: `Path mapping rules must have a 'version' value of '${VERSION}'` };
  }
  const items = json.path_mapping_rules;
  if (!Array.isArray(items)) {
    return { ok: false, message: "Path mapping rules must contain a list named 'path_mapping_rules'" };
  }
  const rules: PathMappingRule[] = [];
  for (const [index, item] of items.entries()) {
    const rule = readRule(item);
    if (typeof rule === "string") return { ok: false, message: `path_mapping_rules[${index}]: ${rule}` };
    rules.push(rule);
  }
  return { ok: true, rules };
}
