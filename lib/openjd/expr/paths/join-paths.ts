/**
 * Building paths: the `/` operator, the `+` operator and `path(list[string])` (Expression Language
 * §2.1.5, §2.3.2). Filesystem joins are pathlib's `PurePath(a, b, …)`: the parts are joined with
 * `posixpath.join` / `ntpath.join` and the result is normalised once, which keeps long part lists
 * linear. URI joins never normalise the URI.
 */
import { type PathFormat } from "./path-error";
import { normalizePathText, parsePath, splitRoot, splitWindowsRoot } from "./parse-path";
import { formatUriPath, isUriPath, parseUriPath, type UriPath, withoutTrailingEmpty } from "./uri-path";

/** posixpath.join: a part starting with `/` restarts the path; `/` is added only when missing. */
function joinPosixText(parts: readonly string[]): string {
  let pieces: string[] = [];
  let empty = true;
  let endsWithSlash = false;
  for (const [index, part] of parts.entries()) {
    if (index === 0 || part.startsWith("/")) {
      pieces = [part];
      empty = part === "";
      endsWithSlash = part.endsWith("/");
      continue;
    }
    const addSlash = !empty && !endsWithSlash;
    if (addSlash) pieces.push("/");
    pieces.push(part);
    empty = empty && !addSlash && part === "";
    endsWithSlash = part === "" ? endsWithSlash || addSlash : part.endsWith("/");
  }
  return pieces.join("");
}

/**
 * ntpath.join: a rooted part replaces the path but keeps the left drive when it has none of its
 * own (`C:\a` + `\b` → `C:\b`); a part on another drive starts over (`C:\a` + `D:b` → `D:b`);
 * the same drive in any case continues (`C:\a` + `c:b` → `c:\a\b`).
 */
function joinWindowsText(parts: readonly string[]): string {
  let drive = "";
  let root = "";
  let body: string[] = [];
  let bodyLast = "";
  const append = (rest: string): void => {
    if (rest === "") return;
    if (bodyLast !== "" && !bodyLast.endsWith("\\") && !bodyLast.endsWith("/")) body.push("\\");
    body.push(rest);
    bodyLast = rest;
  };
  const restart = (rest: string): void => {
    body = rest === "" ? [] : [rest];
    bodyLast = rest;
  };
  for (const [index, part] of parts.entries()) {
    const split = splitWindowsRoot(part);
    // ntpath compares drives as written: `//srv/share` is not the drive `\\srv\share`.
    const next = { ...split, drive: part.slice(0, split.drive.length) };
    if (index === 0) {
      ({ drive, root } = next);
      restart(next.rest);
    } else if (next.root !== "") {
      if (next.drive !== "" || drive === "") drive = next.drive;
      root = next.root;
      restart(next.rest);
    } else if (next.drive !== "" && next.drive !== drive && next.drive.toLowerCase() !== drive.toLowerCase()) {
      ({ drive, root } = next);
      restart(next.rest);
    } else {
      if (next.drive !== "") drive = next.drive;
      append(next.rest);
    }
  }
  const text = body.join("");
  // ntpath: a UNC drive without a root still needs a separator before a relative rest.
  if (text !== "" && root === "" && drive !== "" && !":\\/".includes(drive.at(-1) ?? "")) {
    return `${drive}\\${text}`;
  }
  return drive + root + text;
}

function joinFilesystem(parts: readonly string[], format: PathFormat): string {
  if (parts.length === 0) return ".";
  const text = format === "POSIX" ? joinPosixText(parts) : joinWindowsText(parts);
  return normalizePathText(text, format);
}

/**
 * `uri / right` for a right side that is not absolute: the right side is a path in `format`, so
 * its parts are normalised (`sub//x` → `sub`, `x`; on WINDOWS `sub\x` too), and they are appended
 * after the URI's segments with a trailing `/` consumed — "joining a relative child is
 * equivalent to `path(p.parts + child.parts)`", `s3://b/dir/` / `f` → `s3://b/dir/f` (§2.1.5).
 */
function appendToUri(uri: UriPath, right: string, format: PathFormat): string {
  return formatUriPath(uri.authority, [...withoutTrailingEmpty(uri.segments), ...parsePath(right, format).tail]);
}

/**
 * The `/` operator. An absolute right side replaces the left (pathlib), and a URI is always
 * absolute. With a URI on the left (openjd-rs specs/expr/path-mapping.md "Path Operators"):
 * an absolute right side replaces it; on WINDOWS a drive-relative `C:x` replaces it too, while a
 * root-relative `\x` or `/x` replaces only the path below the authority.
 */
export function joinPaths(left: string, right: string, format: PathFormat): string {
  if (isUriPath(right)) return right;
  const uri = parseUriPath(left);
  if (!uri) return joinFilesystem([left, right], format);
  const { drive, root } = splitRoot(right, format);
  if (drive !== "" || (root !== "" && format === "POSIX")) return normalizePathText(right, format);
  if (root !== "") return formatUriPath(uri.authority, parsePath(right, format).tail);
  return appendToUri(uri, right, format);
}

/**
 * The `+` operator appends text to the last component with no separator (§2.1.5):
 * `path('/out/base') + '.txt'` → `/out/base.txt`. The result is a path, so it is normalised
 * again; a URI is extended verbatim.
 */
export function appendToPath(path: string, text: string, format: PathFormat): string {
  if (isUriPath(path)) return path + text;
  return normalizePathText(normalizePathText(path, format) + text, format);
}

/**
 * `path(list[string])` (§2.3.2). Filesystem parts are `PurePath(*parts)`: an absolute part
 * restarts, `[]` is `.`. When a part is a URI it restarts the path too (a URI is absolute), and
 * from there on the parts are URI segments taken verbatim, so `path(p.parts)` gives back `p` for
 * `s3://b/a//c` (empty parts kept, §1.2.1); only a trailing `/` on the URI part itself is
 * consumed by the next part, as in a join.
 */
export function pathFromParts(parts: readonly string[], format: PathFormat): string {
  const lastUri = parts.findLastIndex(isUriPath);
  if (lastUri === -1) return joinFilesystem(parts, format);
  const uri = parseUriPath(parts[lastUri] ?? "");
  if (!uri) return ".";
  const rest = parts.slice(lastUri + 1);
  const base = rest.length > 0 ? withoutTrailingEmpty(uri.segments) : uri.segments;
  return formatUriPath(uri.authority, [...base, ...rest]);
}
