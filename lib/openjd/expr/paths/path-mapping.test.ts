import { describe, expect, it } from "vitest";
import type { PathFormat } from "./path-error";
import { applyPathMapping, type PathMappingRule, sortPathMappingRules } from "./path-mapping";

const posix = (source_path: string, destination_path: string): PathMappingRule => ({
  source_path_format: "POSIX",
  source_path,
  destination_path,
});
const windows = (source_path: string, destination_path: string): PathMappingRule => ({
  source_path_format: "WINDOWS",
  source_path,
  destination_path,
});
const uri = (source_path: string, destination_path: string): PathMappingRule => ({
  source_path_format: "URI",
  source_path,
  destination_path,
});

const shared = [posix("/mnt/shared", "/local/cache")];

// [label, value, rules, worker format, expected]
const cases: [string, string, PathMappingRule[], PathFormat, string][] = [
  // Conformance 2.12--list-path-param-mapping*.test.yaml
  ["POSIX rule on a POSIX worker", "/mnt/shared/a.exr", shared, "POSIX", "/local/cache/a.exr"],
  ["POSIX rule on a WINDOWS worker", "/mnt/shared/a.exr", shared, "WINDOWS", "\\local\\cache\\a.exr"],
  ["WINDOWS rule", "D:\\shared\\a.exr", [windows("D:\\shared", "E:\\cache")], "WINDOWS", "E:\\cache\\a.exr"],
  ["WINDOWS source to a POSIX worker", "C:\\Projects\\a.exr", [windows("C:\\Projects", "/mnt/projects")], "POSIX", "/mnt/projects/a.exr"],
  ["the source itself", "/mnt/shared", shared, "POSIX", "/local/cache"],
  // Component boundaries
  ["a longer name is another component", "/mnt/shared/x", [posix("/mnt/share", "/s")], "POSIX", "/mnt/shared/x"],
  ["a shorter value does not match", "/mnt", shared, "POSIX", "/mnt"],
  ["a double-slash root is another root", "//mnt/shared/a", shared, "POSIX", "//mnt/shared/a"],
  ["a relative value does not match an absolute source", "mnt/shared/a", shared, "POSIX", "mnt/shared/a"],
  // Order: most source components first, then rule order; first match only
  ["longest rule first", "/mnt/shared/a", [posix("/mnt", "/m"), posix("/mnt/shared", "/s")], "POSIX", "/s/a"],
  ["longest rule first, either order", "/mnt/shared/a", [posix("/mnt/shared", "/s"), posix("/mnt", "/m")], "POSIX", "/s/a"],
  ["shorter rule when the longer does not match", "/mnt/other", [posix("/mnt/shared", "/s"), posix("/mnt", "/m")], "POSIX", "/m/other"],
  ["length counts components, not characters", "/a/b/c/d", [posix("/a/b/./", "/two"), posix("/a/b/c", "/three")], "POSIX", "/three/d"],
  ["equal lengths keep rule order", "/a/b/c", [posix("/a/b", "/first"), posix("/a/b/", "/second")], "POSIX", "/first/c"],
  ["equal lengths keep rule order, reversed", "/a/b/c", [posix("/a/b/", "/second"), posix("/a/b", "/first")], "POSIX", "/second/c"],
  ["one rule only", "/a/b", [posix("/a", "/a/a"), posix("/a/a", "/zzz")], "POSIX", "/a/a/b"],
  // Case and separators
  ["WINDOWS ignores case and mixes separators", "c:/projects/SHOW/shot/a.exr", [windows("C:\\Projects\\Show", "/mnt/show")], "POSIX", "/mnt/show/shot/a.exr"],
  ["WINDOWS mixed separators in the value", "C:\\Projects/Show\\x", [windows("C:/projects/show", "/mnt/show")], "POSIX", "/mnt/show/x"],
  ["WINDOWS UNC source", "//SERVER/share/x", [windows("\\\\server\\share", "/mnt/share")], "POSIX", "/mnt/share/x"],
  ["POSIX is case-sensitive", "/mnt/x", [posix("/Mnt", "/m")], "POSIX", "/mnt/x"],
  ["POSIX backslash is a name character", "/a\\b/c", [posix("/a", "/z")], "POSIX", "/a\\b/c"],
  ["POSIX backslash stays in the remainder", "/a/b\\c", [posix("/a", "/z")], "POSIX", "/z/b\\c"],
  // Trailing separators, `..` and normalisation
  ["trailing slash kept", "/mnt/shared/", shared, "POSIX", "/local/cache/"],
  ["trailing slash kept below", "/mnt/shared/sub/", shared, "POSIX", "/local/cache/sub/"],
  ["trailing slash in the worker's separator", "/mnt/shared/sub/", shared, "WINDOWS", "\\local\\cache\\sub\\"],
  ["WINDOWS trailing backslash", "D:\\shared\\sub\\", [windows("D:\\shared", "E:\\cache")], "WINDOWS", "E:\\cache\\sub\\"],
  ["WINDOWS trailing slash", "D:/shared/sub/", [windows("D:\\shared", "E:\\cache")], "WINDOWS", "E:\\cache\\sub\\"],
  ["no doubled separator at a root destination", "/mnt/shared/", [posix("/mnt/shared", "/")], "POSIX", "/"],
  [".. is not collapsed", "/mnt/shared/a/../b/", shared, "POSIX", "/local/cache/a/../b/"],
  ["duplicate separators and . are normalised", "/mnt/shared//a/./b", shared, "POSIX", "/local/cache/a/b"],
  // URI rules
  ["URI rule", "s3://bucket/assets/tex/a.png", [uri("s3://bucket/assets", "/mnt/assets")], "POSIX", "/mnt/assets/tex/a.png"],
  ["URI rule to a WINDOWS worker", "s3://bucket/assets/tex/a.png", [uri("s3://bucket/assets", "Z:\\assets")], "WINDOWS", "Z:\\assets\\tex\\a.png"],
  ["URI authority ignores case", "S3://BUCKET/assets/x", [uri("s3://bucket/assets", "/m")], "POSIX", "/m/x"],
  ["URI path keeps case", "s3://bucket/Assets/x", [uri("s3://bucket/assets", "/m")], "POSIX", "s3://bucket/Assets/x"],
  ["URI component boundary", "s3://bucket/assets2/x", [uri("s3://bucket/assets", "/m")], "POSIX", "s3://bucket/assets2/x"],
  ["URI other bucket", "s3://other/assets/x", [uri("s3://bucket/assets", "/m")], "POSIX", "s3://other/assets/x"],
  ["URI trailing slash kept", "s3://bucket/assets/", [uri("s3://bucket/assets", "/m")], "POSIX", "/m/"],
  ["URI source with a trailing slash", "s3://bucket/assets/x", [uri("s3://bucket/assets/", "/m")], "POSIX", "/m/x"],
  ["URI bucket rule", "s3://bucket/a/b", [uri("s3://bucket", "/m")], "POSIX", "/m/a/b"],
  ["URI remainder normalised, .. kept", "s3://bucket/assets/a//b/./../c", [uri("s3://bucket/assets", "/m")], "POSIX", "/m/a/b/../c"],
  ["URI values only match URI rules", "s3://bucket/x", [posix("/", "/root")], "POSIX", "s3://bucket/x"],
  ["filesystem values never match URI rules", "/mnt/x", [uri("s3://bucket", "/m")], "POSIX", "/mnt/x"],
  ["URI destination", "/mnt/assets/a/b.png", [posix("/mnt/assets", "s3://bucket/assets/")], "WINDOWS", "s3://bucket/assets/a/b.png"],
  // No match
  ["unmatched values are returned as written", "/other//x/./", shared, "POSIX", "/other//x/./"],
  ["no rules", "C:\\x", [], "WINDOWS", "C:\\x"],
];

describe("applyPathMapping", () => {
  it.each(cases)("%s: %j", (_label, value, rules, format, expected) => {
    expect(applyPathMapping(value, rules, format)).toBe(expected);
  });
});

describe("sortPathMappingRules", () => {
  it("orders by source components, longest first, keeping ties in order", () => {
    const rules = [posix("/a", "1"), uri("s3://b/x/y", "2"), windows("C:\\a\\b", "3"), posix("/a/b/c/d", "4"), posix("/a/b/", "5")];
    expect(sortPathMappingRules(rules).map((rule) => rule.destination_path)).toEqual(["4", "2", "3", "5", "1"]);
  });
});
