/**
 * URI-valued paths (Expression Language §1.2.1 "URI paths"): `scheme://authority` is one opaque
 * root, and what follows is split on `/` with nothing normalised — `a//b`, `.` and `..` stay as
 * written, because an S3 key `a//b` is not the key `a/b`. A trailing `/` therefore yields an empty
 * last segment (empty parts are kept), so `s3://b/dir/` has the name `""`.
 */
import { isUri } from "../../paths";

export interface UriPath {
  /** `scheme://authority`, e.g. `s3://bucket`; `file://` for `file:///tmp`. */
  authority: string;
  /** The text after the first `/` that follows the authority, split on `/`; [] when there is none. */
  segments: string[];
}

/**
 * The spec's test `^[a-zA-Z][a-zA-Z0-9+.-]*://`, the one PATH parameters already use. Decision:
 * a one-letter scheme (`C://x`) counts, as the spec's pattern says; openjd-rs alone excludes it.
 */
export const isUriPath = isUri;

export function parseUriPath(value: string): UriPath | null {
  if (!isUriPath(value)) return null;
  // Scheme characters exclude ':', so the first "://" ends the scheme.
  const authorityStart = value.indexOf("://") + 3;
  const slash = value.indexOf("/", authorityStart);
  if (slash === -1) return { authority: value, segments: [] };
  return { authority: value.slice(0, slash), segments: value.slice(slash + 1).split("/") };
}

/** The last segment, found without splitting the whole URI; "" for a bare authority. */
export function uriName(value: string): string {
  const authorityStart = value.indexOf("://") + 3;
  const lastSlash = value.lastIndexOf("/");
  return lastSlash < authorityStart ? "" : value.slice(lastSlash + 1);
}

export function formatUriPath(authority: string, segments: readonly string[]): string {
  return segments.length === 0 ? authority : `${authority}/${segments.join("/")}`;
}

/** A trailing `/` on a URI used as a prefix (a join's left side, a base) names the same place. */
export function withoutTrailingEmpty(segments: readonly string[]): string[] {
  return segments.at(-1) === "" ? segments.slice(0, -1) : [...segments];
}

/** Scheme and authority compare case-insensitively (RFC 3986 §6.2.2.1); the path never does. */
function sameAuthority(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The segments of `value` below `base`, exactly as written, or null when `base` does not contain it. */
export function segmentsBelow(value: UriPath, base: UriPath): string[] | null {
  if (!sameAuthority(value.authority, base.authority)) return null;
  const prefix = withoutTrailingEmpty(base.segments);
  if (prefix.length > value.segments.length) return null;
  if (!prefix.every((segment, index) => segment === value.segments[index])) return null;
  return value.segments.slice(prefix.length);
}
