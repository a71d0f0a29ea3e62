/**
 * `is_relative_to` and `relative_to` (Expression Language §2.3.2), component-wise as in pathlib:
 * `/foo/bar` is not relative to `/foo/b`. The anchors must be equal; WINDOWS compares case-
 * insensitively and keeps the original case in the result. A URI is only relative to a URI with
 * the same `scheme://authority` (compared case-insensitively, RFC 3986) whose segments are a
 * prefix of its own; a trailing `/` on the base names the same place. A URI and a filesystem
 * path are never relative to each other.
 */
import { type PathFormat, PathError } from "./path-error";
import { componentsBelow, formatParsedPath, parsePath } from "./parse-path";
import { parseUriPath, segmentsBelow } from "./uri-path";

/**
 * The path of `value` below `base`, or null. The URI remainder is the remaining segments as
 * written, joined by `/` (nothing is normalised, so `s3://b/a//c` relative to `s3://b` is `a//c`),
 * or `.` when nothing remains.
 */
function remainder(value: string, base: string, format: PathFormat): string | null {
  const valueUri = parseUriPath(value);
  const baseUri = parseUriPath(base);
  if (valueUri || baseUri) {
    const rest = valueUri && baseUri ? segmentsBelow(valueUri, baseUri) : null;
    return rest === null ? null : rest.join("/") || ".";
  }
  const tail = componentsBelow(parsePath(value, format), parsePath(base, format), format);
  return tail === null ? null : formatParsedPath({ drive: "", root: "", tail }, format);
}

export function isRelativeTo(value: string, base: string, format: PathFormat): boolean {
  return remainder(value, base, format) !== null;
}

/** The path of `value` below `base` (`.` when equal); a PathError when it is not below it. */
export function relativeTo(value: string, base: string, format: PathFormat): string {
  const rest = remainder(value, base, format);
  if (rest === null) throw new PathError(`relative_to failed: '${value}' is not relative to '${base}'`);
  return rest;
}
