/**
 * File dialog filters of PATH parameters (spec §2.2 `<FileDialogFilterPatternStringValue>`: `*`,
 * `*.*` or `*.ext`). They are hints for a file dialog, not constraints, so a path outside them
 * is a warning the artist may ignore, never an error.
 */
import type { FileFilter } from "../model";

export function matchesPattern(pattern: string, path: string): boolean {
  const name = path.split(/[\\/]/).at(-1) ?? "";
  if (pattern === "*") return true;
  if (pattern === "*.*") return name.includes(".");
  if (pattern.startsWith("*.")) return name.toLowerCase().endsWith(pattern.slice(1).toLowerCase());
  return false;
}

/** "Scene Files (*.blend, *.mb)". */
export function describeFilter(filter: FileFilter): string {
  return `${filter.label} (${filter.patterns.join(", ")})`;
}

/** A warning when a non-empty path matches none of the filters; null when it matches or there are none. */
export function fileFilterWarning(filters: readonly FileFilter[], path: string): string | null {
  if (filters.length === 0 || path.trim() === "") return null;
  if (filters.some((f) => f.patterns.some((p) => matchesPattern(p, path.trim())))) return null;
  return `does not match the template's file filters: ${filters.map(describeFilter).join("; ")}`;
}
