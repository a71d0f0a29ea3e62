/**
 * URI-valued paths (Expression Language §1.2.1 "URI paths"): `scheme://authority` is one opaque
 * root, and what follows is split on `/` with nothing normalised — `a//b`, `.` and `..` stay as
 * written, because an S3 key `a//b` is not the key `a/b`. A trailing `/` therefore yields an empty
 * last segment (empty parts are kept), so `s3://b/dir/` has the name `""`.
 */

export interface UriPath {
  /** `scheme://authority`, e.g. `s3://bucket`; `file://` for `file:///tmp`. */
  authority: string;
  /** The text after the first `/` that follows the authority, split on `/`; [] when there is none. */
  segments: string[];
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isSchemeChar(code: number): boolean {
  // [a-zA-Z0-9+.-]
  return isLetter(code) || (code >= 48 && code <= 57) || code === 43 || code === 46 || code === 45;
}

/**
 * The spec's test `^[a-zA-Z][a-zA-Z0-9+.-]*://`, written as a scan so it stays linear on long
 * inputs. Decision: a one-letter scheme (`C://x`) counts, as the spec's pattern says and as
 * `lib/openjd/paths.ts` already does for PATH parameters; openjd-rs alone excludes it.
 */
export function isUriPath(value: string): boolean {
  if (value.length === 0 || !isLetter(value.charCodeAt(0))) return false;
  let i = 1;
  while (i < value.length && isSchemeChar(value.charCodeAt(i))) i++;
  return value.startsWith("://", i);
}

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
export function sameAuthority(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
