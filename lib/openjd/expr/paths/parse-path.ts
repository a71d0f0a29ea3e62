/**
 * Parsing and printing of filesystem paths with Python pathlib's rules (Expression Language
 * "Path Format": POSIX ≙ `PurePosixPath`, WINDOWS ≙ `PureWindowsPath`). A path is a drive, a root
 * and a tail of components; printing it gives pathlib's `str()`, which is how `path()` normalises
 * on construction (openjd-rs specs/expr/path-mapping.md "Filesystem path normalization"):
 * duplicate separators and `.` components go, `..` stays (collapsing it would be wrong through
 * symlinks), a trailing separator goes, `''` becomes `.`, and WINDOWS writes `\`.
 * Everything here is a single scan of the text, so long paths stay cheap.
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
  /** The text after the anchor, as written (WINDOWS may still use either separator). */
  rest: string;
}

const SLASH = 47;
const BACKSLASH = 92;

function isSeparatorCode(code: number, format: PathFormat): boolean {
  return code === SLASH || (code === BACKSLASH && format === "WINDOWS");
}

function isSeparator(char: string | undefined, format: PathFormat): boolean {
  return char === "/" || (char === "\\" && format === "WINDOWS");
}

/** The first separator at or after `from`, or -1. */
function nextSeparator(text: string, from: number, format: PathFormat): number {
  if (format === "POSIX") return text.indexOf("/", from);
  for (let i = from; i < text.length; i++) if (isSeparatorCode(text.charCodeAt(i), format)) return i;
  return -1;
}

/**
 * `text` with every `from` written as `to`. Split and join, because V8's `replaceAll` is an order
 * of magnitude slower when a long path has hundreds of thousands of separators.
 */
export function replaceSeparators(text: string, from: string, to: string): string {
  return text.includes(from) ? text.split(from).join(to) : text;
}

/** posixpath.splitroot: one or three-plus leading slashes are the root `/`, exactly two are `//`. */
function splitPosixRoot(p: string): RootSplit {
  if (p[0] !== "/") return { drive: "", root: "", rest: p };
  if (p[1] !== "/" || p[2] === "/") return { drive: "", root: "/", rest: p.slice(1) };
  return { drive: "", root: "//", rest: p.slice(2) };
}

const UNC_PREFIX = "\\\\?\\UNC\\";

/**
 * ntpath.splitroot, without pathlib's UNC root (ntpath.join needs exactly this). Any character
 * followed by `:` is a drive, as in ntpath; a UNC drive runs through the share name
 * (`\\server\share`). The drive is returned with `\` separators, the rest as written.
 */
export function splitWindowsRoot(p: string): RootSplit {
  const drive = (end: number): string => replaceSeparators(p.slice(0, end), "/", "\\");
  if (isSeparator(p[0], "WINDOWS")) {
    if (!isSeparator(p[1], "WINDOWS")) return { drive: "", root: "\\", rest: p.slice(1) };
    const start = replaceSeparators(p.slice(0, 8), "/", "\\").toUpperCase() === UNC_PREFIX ? 8 : 2;
    const afterServer = nextSeparator(p, start, "WINDOWS");
    const afterShare = afterServer === -1 ? -1 : nextSeparator(p, afterServer + 1, "WINDOWS");
    if (afterShare === -1) return { drive: drive(p.length), root: "", rest: "" };
    return { drive: drive(afterShare), root: "\\", rest: p.slice(afterShare + 1) };
  }
  if (p[1] === ":") {
    if (isSeparator(p[2], "WINDOWS")) return { drive: p.slice(0, 2), root: "\\", rest: p.slice(3) };
    return { drive: p.slice(0, 2), root: "", rest: p.slice(2) };
  }
  return { drive: "", root: "", rest: p };
}

/**
 * Drive, root and the rest of `value`. pathlib adds a root to a `\\server\share` drive (it is
 * printed `\\server\share\`), except for the device forms `\\.\x` and `\\?\x`.
 */
export function splitRoot(value: string, format: PathFormat): RootSplit {
  if (format === "POSIX") return splitPosixRoot(value);
  const split = splitWindowsRoot(value);
  const { drive } = split;
  if (split.root === "" && drive.startsWith("\\") && !drive.endsWith("\\")) {
    const pieces = drive.split("\\");
    const server = pieces[2] ?? "";
    if ((pieces.length === 4 && !"?.".includes(server)) || pieces.length === 6) return { ...split, root: "\\" };
  }
  return split;
}

function isDotOrEmpty(text: string, start: number, end: number): boolean {
  return end === start || (end === start + 1 && text[start] === ".");
}

/** The components of `rest` without empty ones and `.`. */
function components(rest: string, format: PathFormat): string[] {
  const tail: string[] = [];
  let start = 0;
  while (start <= rest.length) {
    let end = nextSeparator(rest, start, format);
    if (end === -1) end = rest.length;
    if (!isDotOrEmpty(rest, start, end)) tail.push(rest.slice(start, end));
    start = end + 1;
  }
  return tail;
}

export function parsePath(value: string, format: PathFormat): ParsedPath {
  const { drive, root, rest } = splitRoot(value, format);
  return { drive, root, tail: components(rest, format) };
}

/** The last component (pathlib's `name`), found from the end without splitting the whole path. */
export function lastComponent(value: string, format: PathFormat): string {
  const { rest } = splitRoot(value, format);
  let end = rest.length;
  while (end > 0) {
    let start = end;
    while (start > 0 && !isSeparator(rest[start - 1], format)) start--;
    if (!isDotOrEmpty(rest, start, end)) return rest.slice(start, end);
    end = start - 1;
  }
  return "";
}

/** True when WINDOWS would read `component` as a drive (`x:` + anything). */
function looksLikeDrive(component: string, format: PathFormat): boolean {
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
function sameComponent(a: string, b: string, format: PathFormat): boolean {
  return format === "POSIX" ? a === b : a === b || a.toLowerCase() === b.toLowerCase();
}

/**
 * The components of `path` below `prefix`, compared component-wise as pathlib does (`/foo/bar`
 * is not below `/foo/b`; the anchors must be equal), or null when `prefix` does not contain it.
 */
export function componentsBelow(path: ParsedPath, prefix: ParsedPath, format: PathFormat): string[] | null {
  const same = (a: string, b: string): boolean => sameComponent(a, b, format);
  if (!same(path.drive + path.root, prefix.drive + prefix.root)) return null;
  if (prefix.tail.length > path.tail.length) return null;
  if (!prefix.tail.every((part, index) => same(part, path.tail[index] ?? ""))) return null;
  return path.tail.slice(prefix.tail.length);
}
