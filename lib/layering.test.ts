/**
 * lib/ is shared by the browser, the server and the CLI: it must import nothing from Node and
 * nothing outside lib/ (DESIGN.md "Layout"). This test reads the sources and enforces that.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const libDir = dirname(fileURLToPath(import.meta.url));
const NODE_BUILTINS = new Set(builtinModules);
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The imports of `text` (the source of `file`) that break the layering. */
function importProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = (match[1] ?? match[2]) as string;
    if (specifier.startsWith("node:") || NODE_BUILTINS.has(specifier.split("/")[0] as string)) {
      problems.push(`${specifier} is a Node module`);
    } else if (specifier.startsWith(".")) {
      const target = resolve(dirname(file), specifier);
      if (relative(libDir, target).startsWith("..")) problems.push(`${specifier} leaves lib/`);
    } else if (specifier.startsWith("@/") && !specifier.startsWith("@/lib/")) {
      problems.push(`${specifier} leaves lib/`);
    }
  }
  return problems;
}

describe("lib/ layering", () => {
  const files = sources(libDir);

  it("has sources to check", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  // Every file passing proves nothing unless the scan finds the imports it must refuse.
  it("finds Node modules and imports that leave lib/, in every import form", () => {
    const text = [
      'import { readFileSync } from "node:fs";',
      'import path from "path";',
      "import {\n  a,\n  b,\n} from \"../../server/db/schema\";",
      'export { c } from "../../components/c";',
      'import type { D } from "@/server/d";',
      'const lazy = import("fs/promises");',
      'import { z } from "zod";',
      'import { e } from "../farm/statuses";',
      'import type { F } from "@/lib/openjd/model";',
    ].join("\n");
    expect(importProblems(join(libDir, "openjd", "example.ts"), text)).toEqual([
      "node:fs is a Node module",
      "path is a Node module",
      "../../server/db/schema leaves lib/",
      "../../components/c leaves lib/",
      "@/server/d leaves lib/",
      "fs/promises is a Node module",
    ]);
  });

  it.each(files.map((f) => [relative(libDir, f), f]))("%s imports only lib/ and npm packages, never Node", (_name, file) => {
    expect(importProblems(file, readFileSync(file, "utf8"))).toEqual([]);
  });
});
