/**
 * Path functions, properties and operators (spec digest §14.5 "Paths"): pathlib semantics from
 * ../paths, in the evaluator's path format (POSIX in template scope, the host's on a worker).
 * `apply_path_mapping` exists only in the host library.
 */
import { reserveText } from "../budget";
import { valueError } from "../errors";
import type { EvalContext, FunctionLibrary } from "../library";
import {
  PathError,
  appendToPath,
  asPosix,
  isAbsolutePath,
  isRelativeTo,
  joinPaths,
  normalizePathText,
  pathFromParts,
  pathName,
  pathParent,
  pathParts,
  pathStem,
  pathSuffix,
  pathSuffixes,
  relativeTo,
  withName,
  withNumber,
  withStem,
  withSuffix,
} from "../paths";
import { PATH, STRING } from "../types";
import { boolValue, makeList, pathValue, stringValue, unresolvedValue, type ExprValue } from "../values";
import { asList, int, text } from "./args";

/** Runs a path operation, turning its PathError into an EXPR value error. */
function attempt<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof PathError) throw valueError(error.message);
    throw error;
  }
}

function path(value: string, ctx: EvalContext): ExprValue {
  reserveText(ctx, value.length);
  return pathValue(
    attempt(() => normalizePathText(value, ctx.pathFormat)),
    ctx.pathFormat,
  );
}

export function registerPaths(lib: FunctionLibrary): void {
  const property = (name: string, returns: string, impl: (value: string, ctx: EvalContext) => ExprValue) =>
    lib.define(`__property_${name}__`, `(path) -> ${returns}`, ([p], ctx) => impl(text(p), ctx));
  property("name", "string", (v, ctx) => stringValue(attempt(() => pathName(v, ctx.pathFormat))));
  property("stem", "string", (v, ctx) => stringValue(attempt(() => pathStem(v, ctx.pathFormat))));
  property("suffix", "string", (v, ctx) => stringValue(attempt(() => pathSuffix(v, ctx.pathFormat))));
  property("suffixes", "list[string]", (v, ctx) => makeList(attempt(() => pathSuffixes(v, ctx.pathFormat)).map(stringValue), STRING));
  property("parent", "path", (v, ctx) =>
    path(
      attempt(() => pathParent(v, ctx.pathFormat)),
      ctx,
    ),
  );
  property("parts", "list[string]", (v, ctx) => {
    const parts = attempt(() => pathParts(v, ctx.pathFormat));
    ctx.charge(parts.length);
    return makeList(parts.map(stringValue), STRING);
  });

  lib
    .define("path", "(string) -> path", ([v], ctx) => path(text(v), ctx))
    .define("path", "(path) -> path", ([v]) => v as ExprValue)
    .define("path", "(list[string]) -> path", ([v], ctx) => {
      const parts = asList(v).items.map(text);
      ctx.charge(parts.length);
      return path(
        attempt(() => pathFromParts(parts, ctx.pathFormat)),
        ctx,
      );
    })
    .define("path", "(list[path]) -> path", ([v], ctx) =>
      path(
        attempt(() => pathFromParts(asList(v).items.map(text), ctx.pathFormat)),
        ctx,
      ),
    )
    .define("with_name", "(path, string) -> path", ([p, n], ctx) =>
      path(
        attempt(() => withName(text(p), text(n), ctx.pathFormat)),
        ctx,
      ),
    )
    .define("with_stem", "(path, string) -> path", ([p, n], ctx) =>
      path(
        attempt(() => withStem(text(p), text(n), ctx.pathFormat)),
        ctx,
      ),
    )
    .define("with_suffix", "(path, string) -> path", ([p, n], ctx) =>
      path(
        attempt(() => withSuffix(text(p), text(n), ctx.pathFormat)),
        ctx,
      ),
    )
    .define("with_number", "(path, int) -> path", ([p, n], ctx) =>
      path(
        attempt(() => withNumber(text(p), int(n), ctx.pathFormat)),
        ctx,
      ),
    )
    .define("with_number", "(string, int) -> string", ([p, n], ctx) => stringValue(attempt(() => withNumber(text(p), int(n), ctx.pathFormat))))
    .define("as_posix", "(path) -> string", ([p], ctx) => stringValue(attempt(() => asPosix(text(p), ctx.pathFormat))))
    .define("is_absolute", "(path) -> bool", ([p], ctx) => boolValue(attempt(() => isAbsolutePath(text(p), ctx.pathFormat))))
    .define("is_relative_to", "(path, path) -> bool", ([p, b], ctx) => boolValue(attempt(() => isRelativeTo(text(p), text(b), ctx.pathFormat))))
    .define("is_relative_to", "(path, string) -> bool", ([p, b], ctx) => boolValue(attempt(() => isRelativeTo(text(p), text(b), ctx.pathFormat))))
    .define("relative_to", "(path, path) -> path", ([p, b], ctx) =>
      path(
        attempt(() => relativeTo(text(p), text(b), ctx.pathFormat)),
        ctx,
      ),
    )
    .define("relative_to", "(path, string) -> path", ([p, b], ctx) =>
      path(
        attempt(() => relativeTo(text(p), text(b), ctx.pathFormat)),
        ctx,
      ),
    );

  lib
    .define("__truediv__", "(path, string) -> path", ([p, q], ctx) =>
      path(
        attempt(() => joinPaths(text(p), text(q), ctx.pathFormat)),
        ctx,
      ),
    )
    .define("__truediv__", "(path, path) -> path", ([p, q], ctx) =>
      path(
        attempt(() => joinPaths(text(p), text(q), ctx.pathFormat)),
        ctx,
      ),
    )
    .define("__add__", "(path, string) -> path", ([p, q], ctx) =>
      path(
        attempt(() => appendToPath(text(p), text(q), ctx.pathFormat)),
        ctx,
      ),
    );
}

/** `apply_path_mapping(string) -> path`: the Session's rules; while checking a template, only its type. */
export function registerHostPaths(lib: FunctionLibrary): void {
  lib.define("apply_path_mapping", "(string) -> path", ([v], ctx) => {
    if (ctx.mapPath === null) return unresolvedValue(PATH);
    return path(ctx.mapPath(text(v)), ctx);
  });
}
