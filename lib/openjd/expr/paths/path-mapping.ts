/**
 * Path mapping (spec digest §12.6; How-Jobs-Are-Run "Path Mapping"; Expression Language
 * `apply_path_mapping`): rules are tried by decreasing number of source components (ties keep
 * their order) and the first match alone applies. A match is component-wise (`/mnt/share` does not
 * match `/mnt/shared/x`): POSIX case-sensitively, WINDOWS case-insensitively with either
 * separator, URI by `scheme://authority` (case-insensitively) and then exact segments. The
 * remaining components are appended to the destination in the worker's format, a trailing
 * separator on the input is kept, `..` is not collapsed, and an unmatched value is returned as is.
 */
import { type PathFormat, SEPARATOR } from "./path-error";
import { componentsBelow, formatParsedPath, normalizePathText, type ParsedPath, parsePath } from "./parse-path";
import { formatUriPath, isUriPath, parseUriPath, segmentsBelow, withoutTrailingEmpty } from "./uri-path";

export type PathMappingSourceFormat = PathFormat | "URI";

/** One rule of a `pathmapping-1.0` document; field names as in the JSON. */
export interface PathMappingRule {
  source_path_format: PathMappingSourceFormat;
  source_path: string;
  destination_path: string;
}

interface RuleMatch {
  remainder: string[];
  trailingSeparator: boolean;
}

/** The reference's ordering key: the number of components of the source (`/` counts as one). */
function sourceLength(rule: PathMappingRule): number {
  if (rule.source_path_format === "URI") {
    const uri = parseUriPath(rule.source_path);
    return uri ? 1 + withoutTrailingEmpty(uri.segments).length : 0;
  }
  const { drive, root, tail } = parsePath(rule.source_path, rule.source_path_format);
  return (drive !== "" || root !== "" ? 1 : 0) + tail.length;
}

/** Longest source first; `Array.prototype.sort` is stable, so equal lengths keep their order. */
export function sortPathMappingRules(rules: readonly PathMappingRule[]): PathMappingRule[] {
  return rules
    .map((rule) => ({ rule, length: sourceLength(rule) }))
    .sort((a, b) => b.length - a.length)
    .map(({ rule }) => rule);
}

function matchUri(value: string, source: string): RuleMatch | null {
  const input = parseUriPath(value);
  const prefix = parseUriPath(source);
  const rest = input && prefix ? segmentsBelow(input, prefix) : null;
  if (rest === null) return null;
  const trailingSeparator = rest.at(-1) === "";
  return { remainder: trailingSeparator ? rest.slice(0, -1) : rest, trailingSeparator };
}

/**
 * Decision: a URI value is matched only by URI rules and a filesystem value only by POSIX and
 * WINDOWS rules; reading `s3://b/x` as the POSIX path `s3:/b/x` could only produce nonsense.
 * A trailing `/` counts on WINDOWS as well as `\` (either is a separator there, as openjd-rs
 * has it; the Python runtime only looks for `\`).
 */
function matchFilesystem(value: ParsedPath, text: string, source: string, format: PathFormat): RuleMatch | null {
  const remainder = componentsBelow(value, parsePath(source, format), format);
  if (remainder === null) return null;
  const trailingSeparator = text.endsWith("/") || (format === "WINDOWS" && text.endsWith("\\"));
  return { remainder, trailingSeparator };
}

/**
 * The destination with the remainder appended, as pathlib's `PurePath(destination, *rest)` in the
 * worker's format (so `.` and empty URI segments drop out and `..` stays). A URI destination is
 * extended with `/` and left unnormalised.
 */
function mapped(destination: string, match: RuleMatch, format: PathFormat): string {
  const uri = parseUriPath(destination);
  if (uri) {
    const segments = match.remainder.length > 0 ? [...withoutTrailingEmpty(uri.segments), ...match.remainder] : uri.segments;
    const text = formatUriPath(uri.authority, segments);
    return match.trailingSeparator && !text.endsWith("/") ? `${text}/` : text;
  }
  const base = parsePath(destination, format);
  const text = normalizePathText(formatParsedPath({ ...base, tail: [...base.tail, ...match.remainder] }, format), format);
  const sep = SEPARATOR[format];
  return match.trailingSeparator && !text.endsWith(sep) ? text + sep : text;
}

/** `apply_path_mapping(value)`: `destinationFormat` is the worker's path format. */
export function applyPathMapping(value: string, rules: readonly PathMappingRule[], destinationFormat: PathFormat): string {
  const valueIsUri = isUriPath(value);
  const parsed: Partial<Record<PathFormat, ParsedPath>> = {};
  for (const rule of sortPathMappingRules(rules)) {
    const format = rule.source_path_format;
    let match: RuleMatch | null = null;
    if (format === "URI") {
      if (valueIsUri) match = matchUri(value, rule.source_path);
    } else if (!valueIsUri) {
      const path = (parsed[format] ??= parsePath(value, format));
      match = matchFilesystem(path, value, rule.source_path, format);
    }
    if (match) return mapped(rule.destination_path, match, destinationFormat);
  }
  return value;
}
