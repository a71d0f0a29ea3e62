/**
 * `with_name`, `with_stem` and `with_suffix` (Expression Language §2.3.2) with pathlib's checks
 * and messages, as openjd-rs specs/expr/path-mapping.md pins them ("Empty-name guard",
 * "Replacement-argument validation", "Relative paths stay relative"): the path keeps its anchor
 * and stays relative when it was, and a URI keeps its authority and `/` separators whatever the
 * format.
 */
import { type PathFormat, PathError } from "./path-error";
import { formatParsedPath, parsePath } from "./parse-path";
import { pathName, splitSuffix } from "./path-properties";
import { formatUriPath, isUriPath, parseUriPath } from "./uri-path";

type Operation = "with_name" | "with_stem" | "with_suffix" | "with_number";

/** `/` always separates; `\` only in a WINDOWS filesystem path (a URI ignores the format). */
function hasSeparator(text: string, value: string, format: PathFormat): boolean {
  return text.includes("/") || (format === "WINDOWS" && !isUriPath(value) && text.includes("\\"));
}

/** pathlib rejects `""`, `.` and names with a separator; `..` is a legal name. */
function checkName(name: string, value: string, format: PathFormat, operation: Operation): void {
  if (name === "" || name === "." || hasSeparator(name, value, format)) {
    throw new PathError(`${operation}: Invalid name '${name}'`);
  }
}

function emptyNameError(value: string, operation: Operation): PathError {
  return new PathError(`${operation}: '${value}' has an empty name`);
}

/**
 * Replaces the last component of `value` by an already checked `name`. A root (`/`, `C:\`,
 * `\\server\share\`), `.` and a bare URI authority (`s3://b`, `s3://b/`) have no name to replace.
 */
export function replaceName(value: string, name: string, format: PathFormat, operation: Operation): string {
  const uri = parseUriPath(value);
  if (uri) {
    if ((uri.segments.at(-1) ?? "") === "") throw emptyNameError(value, operation);
    return formatUriPath(uri.authority, [...uri.segments.slice(0, -1), name]);
  }
  const path = parsePath(value, format);
  if (path.tail.length === 0) throw emptyNameError(value, operation);
  return formatParsedPath({ ...path, tail: [...path.tail.slice(0, -1), name] }, format);
}

export function withName(value: string, name: string, format: PathFormat): string {
  checkName(name, value, format, "with_name");
  return replaceName(value, name, format, "with_name");
}

/**
 * pathlib's `with_stem` is `with_name(stem + suffix)`; an empty stem is refused when there is a
 * suffix to keep (`'foo.txt' has a non-empty suffix`), and `.` is fine when it is (`..txt`).
 */
export function withStem(value: string, stem: string, format: PathFormat): string {
  if (hasSeparator(stem, value, format)) throw new PathError(`with_stem: Invalid name '${stem}'`);
  const { suffix } = splitSuffix(pathName(value, format));
  if (stem === "" && suffix !== "") throw new PathError(`with_stem: '${value}' has a non-empty suffix`);
  checkName(stem + suffix, value, format, "with_stem");
  return replaceName(value, stem + suffix, format, "with_stem");
}

/**
 * The suffix must be `""` (remove it) or start with `.` and be more than `.`, with no separator;
 * `.tar.gz` is accepted. The new name is checked too: `..foo` without its suffix would be `.`.
 */
export function withSuffix(value: string, suffix: string, format: PathFormat): string {
  if ((suffix !== "" && (!suffix.startsWith(".") || suffix === ".")) || hasSeparator(suffix, value, format)) {
    throw new PathError(`with_suffix: Invalid suffix '${suffix}'`);
  }
  const name = pathName(value, format);
  if (name === "") throw emptyNameError(value, "with_suffix");
  const newName = splitSuffix(name).stem + suffix;
  checkName(newName, value, format, "with_suffix");
  return replaceName(value, newName, format, "with_suffix");
}
