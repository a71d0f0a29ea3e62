/**
 * The two filesystem flavours of the EXPR `path` type (spec digest §14.3; Expression Language
 * "Path Format"): POSIX behaves like Python's `PurePosixPath` (TEMPLATE scope and POSIX hosts),
 * WINDOWS like `PureWindowsPath`. URIs (`scheme://…`) are recognised by their text and never use
 * either flavour, so they need no format of their own here.
 */
export type PathFormat = "POSIX" | "WINDOWS";

/**
 * A path operation that cannot produce a value: `with_name` on a root, an invalid suffix,
 * `relative_to` on unrelated paths, a `with_number` padding over 32. The evaluator turns it into
 * its own value error at the call's span; the message is written to be shown to template authors.
 */
export class PathError extends Error {
  override readonly name = "PathError";
}

export const SEPARATOR: Record<PathFormat, string> = { POSIX: "/", WINDOWS: "\\" };
