/**
 * Parsing and printing of filesystem paths with Python pathlib's rules (Expression Language
 * "Path Format": POSIX ≙ `PurePosixPath`, WINDOWS ≙ `PureWindowsPath`). A path is a drive, a root
 * and a tail of components; printing it gives pathlib's `str()`, which is how `path()` normalises
 * on construction (openjd-rs specs/expr/path-mapping.md "Filesystem path normalization"):
 * duplicate separators and `.` components go, `..` stays (collapsing it would be wrong through
 * symlinks), a trailing separator goes, `''` becomes `.`, and WINDOWS writes `\`.
 */
import { type PathFormat, SEPARATOR } from "./path-error";
import { isUriPath } from "./uri-path";

export interface ParsedPath {
  /** WINDOWS only: `C:`, `\\server\share`, `\\?\UNC\server\share`, …; always "" on POSIX. */
  drive: string;
  /** "" (relative), "/" or "//" on POSIX (POSIX keeps exactly two leading slashes); "" or "\" on WINDOWS. */
  root: string;
  /** Components after the anchor; never "" or ".". */
  tail: string[];
}

interface RootSplit {
  drive: string;
  root: string;
  rest: string;
}

/** posixpath.splitroot: one or three-plus leading slashes are the root `/`, exactly two are `//`. */
function splitPosixRoot(p: string): RootSplit {
  if (p[0] !== "/") return { drive: "", root: "", rest: p };
  if (p[1] !== "/" || p[2] === "/") return { drive: "", root: "/", rest: p.slice(1) };
  return { drive: "", root: "//", rest: p.slice(2) };
}

const UNC_PREFIX = "\\\\?\\UNC\\";

/**
 * ntpath.splitroot on text whose separators are already `\`. Any character followed by `:` is a
 * drive, as in ntpath. A UNC drive runs through the share name: `\\server\share`.
 */
function splitWindowsRoot(p: string): RootSplit {
  if (p[0] === "\\") {
    if (p[1] !== "\\") return { drive: "", root: "\\", rest: p.slice(1) };
    const start = p.slice(0, 8).toUpperCase() === UNC_PREFIX ? 8 : 2;
    const afterServer = p.indexOf("\\", start);
    const afterShare = afterServer === -1 ? -1 : p.indexOf("\\", afterServer + 1);
    if (afterShare === -1) return { drive: p, root: "", rest: "" };
    return { drive: p.slice(0, afterShare), root: "\\", rest: p.slice(afterShare + 1) };
  }
  if (p[1] === ":") {
    if (p[2] === "\\") return { drive: p.slice(0, 2), root: "\\", rest: p.slice(3) };
    return { drive: p.slice(0, 2), root: "", rest: p.slice(2) };
  }
  return { drive: "", root: "", rest: p };
}

/**
 * `text` with every `from` written as `to`. Split and join, because V8's `replaceAll` is an order
 * of magnitude slower when a long path has hundreds of thousands of separators.
 */
export function replaceSeparators(text: string, from: string, to: string): string {
  return text.includes(from) ? text.split(from).join(to) : text;
}

/** Drive, root and the unparsed rest of `value`, with WINDOWS separators turned into `\`. */
export function splitRoot(value: string, format: PathFormat): RootSplit {
  return format === "POSIX" ? splitPosixRoot(value) : splitWindowsRoot(replaceSeparators(value, "/", "\\"));
}

/**
 * pathlib's parse: a `\\server\share` drive always has a root (it is printed `\\server\share\`),
 * except for the device forms `\\.\x` and `\\?\x` that are not shares.
 */
export function parsePath(value: string, format: PathFormat): ParsedPath {
  const { drive, rest, root: splitRootText } = splitRoot(value, format);
  let root = splitRootText;
  if (format === "WINDOWS" && root === "" && drive.startsWith("\\") && !drive.endsWith("\\")) {
    const pieces = drive.split("\\");
    const server = pieces[2] ?? "";
    if ((pieces.length === 4 && !"?.".includes(server)) || pieces.length === 6) root = "\\";
  }
  return { drive, root, tail: components(rest, SEPARATOR[format]) };
}

/** The components of `rest` without empty ones and `.`; a scan, so runs of separators cost nothing. */
function components(rest: string, sep: string): string[] {
  const tail: string[] = [];
  let start = 0;
  while (start <= rest.length) {
    let end = rest.indexOf(sep, start);
    if (end === -1) end = rest.length;
    if (end > start && !(end === start + 1 && rest[start] === ".")) tail.push(rest.slice(start, end));
    start = end + 1;
  }
  return tail;
}

/** True when WINDOWS would read `component` as a drive (`x:` + anything). */
export function looksLikeDrive(component: string, format: PathFormat): boolean {
  return format === "WINDOWS" && component[1] === ":";
}

/**
 * pathlib's `str()`. A relative WINDOWS path whose first component looks like a drive gets a
 * leading `.\` so that reading it back gives the same path (`with_name('x:y')` → `.\x:y`,
 * Python 3.13 `_format_parsed_parts`).
 */
export function formatParsedPath(path: ParsedPath, format: PathFormat): string {
  const sep = SEPARATOR[format];
  if (path.drive !== "" || path.root !== "") return path.drive + path.root + path.tail.join(sep);
  if (path.tail.length === 0) return ".";
  const first = path.tail[0] ?? "";
  return (looksLikeDrive(first, format) ? `.${sep}` : "") + path.tail.join(sep);
}

/** `str(PurePath(value))` in `format`; URIs are returned untouched (never normalised). */
export function normalizePathText(value: string, format: PathFormat): string {
  if (isUriPath(value)) return value;
  return formatParsedPath(parsePath(value, format), format);
}

/** Components compare exactly on POSIX and case-insensitively on WINDOWS (pathlib `_str_normcase`). */
export function sameComponent(a: string, b: string, format: PathFormat): boolean {
  return format === "POSIX" ? a === b : a === b || a.toLowerCase() === b.toLowerCase();
}
