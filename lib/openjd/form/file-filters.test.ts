import { describe, expect, it } from "vitest";
import { fileFilterWarning, matchesPattern } from "./file-filters";

describe("matchesPattern", () => {
  it.each([
    ["*", "/any/thing", true],
    ["*", "", true],
    ["*.*", "/a/scene.blend", true],
    ["*.*", "/a.d/README", false],
    ["*.exr", "/renders/beauty.0001.EXR", true],
    ["*.exr", "C:\\renders\\beauty.exr", true],
    ["*.exr", "/renders/beauty.exr/", false],
    ["*.exr", "/renders/.exr", true],
    ["*.exr", "/renders/beauty.exrx", false],
    ["*.jpeg", "/a/b.jpg", false],
  ])("%s ~ %s → %s", (pattern, path, expected) => {
    expect(matchesPattern(pattern, path)).toBe(expected);
  });
});

describe("fileFilterWarning", () => {
  const filters = [
    { label: "Scene Files", patterns: ["*.blend", "*.mb"] },
    { label: "Nuke", patterns: ["*.nk"] },
  ];
  it.each([
    [filters, "/shots/a.mb", null],
    [filters, "/shots/a.nk", null],
    [filters, "", null],
    [[], "/shots/a.txt", null],
    [filters, "/shots/a.txt", "does not match the template's file filters: Scene Files (*.blend, *.mb); Nuke (*.nk)"],
  ])("%j %s", (given, path, expected) => {
    expect(fileFilterWarning(given, path)).toBe(expected);
  });
});
