/**
 * Lexical path handling for PATH job parameters at job creation (spec 2023-09 §2.2 plus the
 * reference behaviour the conformance suite tests): relative defaults join the template's
 * directory and must not walk out of it, relative values join the submitter's working directory.
 * Nothing here touches a filesystem, so the browser portal and the server give the same answer,
 * and symlinks cannot change it. `node:path` is not used because lib/ must run in the browser
 * and because a POSIX server must still reason about Windows paths submitted for Windows workers.
 */

export type PathFlavor = "posix" | "windows";

const URI = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//;
const WINDOWS_DRIVE_ROOT = /^[A-Za-z]:[\\/]/;
// Server and share are the root of a UNC path: `..` can never climb above them.
const WINDOWS_UNC_ROOT = /^[\\/]{2}([^\\/]+)(?:[\\/]+([^\\/]+))?/;

const SEPARATOR: Record<PathFlavor, string> = { posix: "/", windows: "\\" };
const SPLIT: Record<PathFlavor, RegExp> = { posix: /\/+/, windows: /[\\/]+/ };

/**
 * True for `scheme://...`, the form the spec's EXPR extension passes through without joining.
 * A drive letter is one character followed by `:\` or `:/` with a single slash, so `C:\x` is not a
 * URI; `C://x` does match the spec's pattern and is treated as a URI, as the reference does.
 */
export function isUri(value: string): boolean {
  return URI.test(value);
}

/**
 * Windows counts rooted paths without a drive (`\x`, `/x`) as absolute: joining them to a base
 * would silently discard the "start at the root" the author asked for. Drive-relative `C:x` is
 * not absolute, and is not given any special meaning below.
 */
export function isAbsolutePath(value: string, flavor: PathFlavor): boolean {
  switch (flavor) {
    case "posix":
      return value.startsWith("/");
    case "windows":
      return WINDOWS_DRIVE_ROOT.test(value) || value.startsWith("\\") || value.startsWith("/");
  }
}

/** Template defaults are portable, so one that is absolute on any platform is rejected everywhere. */
export function looksAbsoluteOnAnyPlatform(value: string): boolean {
  return isAbsolutePath(value, "posix") || isAbsolutePath(value, "windows");
}

/** The root written in the flavor's output form, and the rest of the path after it. */
function splitRoot(value: string, flavor: PathFlavor): { root: string; rest: string } {
  if (flavor === "posix") {
    return value.startsWith("/") ? { root: "/", rest: value.slice(1) } : { root: "", rest: value };
  }
  const unc = WINDOWS_UNC_ROOT.exec(value);
  if (unc) {
    const [whole, server, share] = unc;
    const root = share === undefined ? `\\\\${server}\\` : `\\\\${server}\\${share}\\`;
    return { root, rest: value.slice(whole.length) };
  }
  if (WINDOWS_DRIVE_ROOT.test(value)) return { root: `${value.slice(0, 2)}\\`, rest: value.slice(3) };
  if (value.startsWith("\\") || value.startsWith("/")) return { root: "\\", rest: value.slice(1) };
  return { root: "", rest: value };
}

/**
 * Lexical normalization. `escapes` is true when a relative path ends up above where it started
 * (its normal form begins with `..`); that is exactly when it walked above its start at some
 * point, because once a leading `..` is kept nothing later can cancel it. An absolute path never
 * escapes: `..` at the root stays at the root, as the operating systems do.
 * The empty string stays empty rather than becoming `.`, so "no value" is not mistaken for
 * "this directory".
 */
export function normalizePath(value: string, flavor: PathFlavor): { path: string; escapes: boolean } {
  if (value === "") return { path: "", escapes: false };
  const { root, rest } = splitRoot(value, flavor);
  const kept: string[] = [];
  for (const segment of rest.split(SPLIT[flavor])) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") kept.push(segment);
    else if (kept.length > 0 && kept[kept.length - 1] !== "..") kept.pop();
    else if (root === "") kept.push("..");
  }
  const body = kept.join(SEPARATOR[flavor]);
  if (root !== "") return { path: root + body, escapes: false };
  return { path: body === "" ? "." : body, escapes: kept[0] === ".." };
}

/**
 * `base` joined with `relative` and normalized, so `..` in `relative` may climb into `base`
 * (values may walk up; callers that forbid it check `normalizePath(relative).escapes` first).
 * An absolute `relative` replaces the base. An empty `relative` gives the normalized base:
 * joining nothing changes nothing, and a trailing separator would only make string comparison
 * with `allowedValues` fragile. URIs are not paths; callers check `isUri` before joining.
 */
export function joinPath(base: string, relative: string, flavor: PathFlavor): string {
  if (isAbsolutePath(relative, flavor)) return normalizePath(relative, flavor).path;
  if (relative === "") return normalizePath(base, flavor).path;
  if (base === "") return normalizePath(relative, flavor).path;
  return normalizePath(base + SEPARATOR[flavor] + relative, flavor).path;
}
