/**
 * `is_relative_to` and `relative_to` (Expression Language §2.3.2), component-wise as in pathlib:
 * `/foo/bar` is not relative to `/foo/b`. The anchors must be equal; WINDOWS compares case-
 * insensitively and keeps the original case in the result. A URI is only relative to a URI with
 * the same `scheme://authority` (compared case-insensitively, RFC 3986) whose segments are a
 * prefix of its own; a trailing `/` on the base names the same place. A URI and a filesystem
 * path are never relative to each other.
 */
import { type PathFormat, PathError } from "./path-error";
import { formatParsedPath, parsePath, sameComponent } from "./parse-path";
import { parseUriPath, sameAuthority, type UriPath, withoutTrailingEmpty } from "./uri-path";

function isPrefix(prefix: readonly string[], whole: readonly string[], same: (a: string, b: string) => boolean): boolean {
  if (prefix.length > whole.length) return false;
  return prefix.every((part, index) => same(part, whole[index] ?? ""));
}

/**
 * The URI remainder is the remaining segments as written, joined by `/` (nothing is normalised,
 * so `s3://b/a//c` relative to `s3://b` is `a//c`), or `.` when nothing remains.
 */
function uriRemainder(value: UriPath, base: UriPath): string | null {
  if (!sameAuthority(value.authority, base.authority)) return null;
  const prefix = withoutTrailingEmpty(base.segments);
  if (!isPrefix(prefix, value.segments, (a, b) => a === b)) return null;
  const rest = value.segments.slice(prefix.length).join("/");
  return rest === "" ? "." : rest;
}

function remainder(value: string, base: string, format: PathFormat): string | null {
  const valueUri = parseUriPath(value);
  const baseUri = parseUriPath(base);
  if (valueUri || baseUri) return valueUri && baseUri ? uriRemainder(valueUri, baseUri) : null;
  const path = parsePath(value, format);
  const prefix = parsePath(base, format);
  const same = (a: string, b: string): boolean => sameComponent(a, b, format);
  if (!same(path.drive + path.root, prefix.drive + prefix.root)) return null;
  if (!isPrefix(prefix.tail, path.tail, same)) return null;
  return formatParsedPath({ drive: "", root: "", tail: path.tail.slice(prefix.tail.length) }, format);
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
