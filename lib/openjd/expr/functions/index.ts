/** Builds the EXPR function library for a scope: template scope lacks the host-only functions. */
import { FunctionLibrary } from "../library";
import { registerArithmetic } from "./arithmetic";
import { registerComparison } from "./comparison";
import { registerGeneral } from "./general";
import { registerLists } from "./lists";
import { registerMath } from "./math";
import { registerHostPaths, registerPaths } from "./paths";
import { registerRegex } from "./regex";
import { registerRepr } from "./repr";
import { registerStringSplit } from "./string-split";
import { registerStrings } from "./strings";
import { registerSubscript } from "./subscript";

export type LibraryScope = "template" | "host";

const cache = new Map<LibraryScope, FunctionLibrary>();

/** The library for a scope; `host` adds apply_path_mapping (resolved on the worker). */
export function standardLibrary(scope: LibraryScope): FunctionLibrary {
  const cached = cache.get(scope);
  if (cached) return cached;
  const lib = new FunctionLibrary();
  registerArithmetic(lib);
  registerComparison(lib);
  registerSubscript(lib);
  registerGeneral(lib);
  registerMath(lib);
  registerLists(lib);
  registerStrings(lib);
  registerStringSplit(lib);
  registerRepr(lib);
  registerPaths(lib);
  registerRegex(lib);
  if (scope === "host") registerHostPaths(lib);
  cache.set(scope, lib);
  return lib;
}
