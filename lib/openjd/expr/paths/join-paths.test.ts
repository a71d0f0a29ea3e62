import { describe, expect, it } from "vitest";
import type { PathFormat } from "./path-error";
import { appendToPath, joinPaths, pathFromParts } from "./join-paths";
import { normalizePathText } from "./parse-path";
import { pathParts } from "./path-properties";

describe("joinPaths (the / operator)", () => {
  // Filesystem rows agree with Python 3.13 `str(PurePath(left) / right)`.
  it.each<[PathFormat, string, string, string]>([
    ["POSIX", "/mnt/output", "renders", "/mnt/output/renders"],
    ["POSIX", "/mnt/output", "/other/path", "/other/path"],
    ["POSIX", "/mnt", "sub/dir", "/mnt/sub/dir"],
    ["POSIX", "/a/b/", "c", "/a/b/c"],
    ["POSIX", "/a/b", "", "/a/b"],
    ["POSIX", "/", "a", "/a"],
    ["POSIX", "a", "..", "a/.."],
    ["POSIX", "", "x", "x"],
    ["POSIX", "a", "//b", "//b"],
    ["POSIX", "/a/dir\\name", "file", "/a/dir\\name/file"],
    ["POSIX", "/base", "C:\\foo", "/base/C:\\foo"],
    ["POSIX", "/local/path", "s3://bucket/key", "s3://bucket/key"],
    ["WINDOWS", "C:\\a\\b", "c", "C:\\a\\b\\c"],
    ["WINDOWS", "C:\\a\\b\\", "c", "C:\\a\\b\\c"],
    ["WINDOWS", "C:\\a\\b/", "c", "C:\\a\\b\\c"],
    ["WINDOWS", "/mnt/output", "sub", "\\mnt\\output\\sub"],
    ["WINDOWS", "C:\\a\\b", "D:\\new", "D:\\new"],
    ["WINDOWS", "C:\\a\\b", "\\\\server\\share", "\\\\server\\share\\"],
    ["WINDOWS", "C:\\", "a", "C:\\a"],
    ["WINDOWS", "C:\\base", "/foo", "C:\\foo"],
    ["WINDOWS", "C:\\base", "\\foo", "C:\\foo"],
    ["WINDOWS", "a\\b", "\\foo", "\\foo"],
    ["WINDOWS", "\\\\server\\share\\deep\\path", "/foo", "\\\\server\\share\\foo"],
    ["WINDOWS", "//server/share", "relative", "\\\\server\\share\\relative"],
    ["WINDOWS", "C:\\a", "D:b", "D:b"],
    ["WINDOWS", "C:\\a", "c:b", "c:\\a\\b"],
    ["WINDOWS", "C:\\a", "C:", "C:\\a"],
    ["WINDOWS", "C:a", "b", "C:a\\b"],
    ["WINDOWS", "C:\\local", "https://cdn.example.com/file", "https://cdn.example.com/file"],
  ])("%s %j / %j → %j", (format, left, right, expected) => {
    expect(joinPaths(left, right, format)).toBe(expected);
  });

  // Expression Language §2.1.5 and openjd-rs specs/expr/path-mapping.md "Path Operators".
  it.each<[PathFormat, string, string, string]>([
    ["POSIX", "s3://bucket/prefix", "file.obj", "s3://bucket/prefix/file.obj"],
    ["WINDOWS", "s3://bucket/prefix", "file.obj", "s3://bucket/prefix/file.obj"],
    ["POSIX", "s3://bucket/dir/", "file", "s3://bucket/dir/file"],
    ["WINDOWS", "s3://bucket/prefix", "sub\\dir\\f.obj", "s3://bucket/prefix/sub/dir/f.obj"],
    ["POSIX", "s3://bucket", "a\\b\\c", "s3://bucket/a\\b\\c"],
    ["POSIX", "s3://bucket/prefix", "/renders", "/renders"],
    ["WINDOWS", "s3://bucket/prefix", "/renders", "s3://bucket/renders"],
    ["WINDOWS", "s3://bucket/prefix", "\\renders", "s3://bucket/renders"],
    ["WINDOWS", "s3://bucket/prefix", "C:render.exr", "C:render.exr"],
    ["WINDOWS", "s3://bucket/prefix", "D:/x", "D:\\x"],
    ["POSIX", "s3://b/a//b", "c", "s3://b/a//b/c"],
    ["POSIX", "s3://b/k", "../x", "s3://b/k/../x"],
    ["POSIX", "s3://b/k", "x//y/./z/", "s3://b/k/x/y/z"],
    ["POSIX", "s3://b/k", "gs://other/x", "gs://other/x"],
    ["POSIX", "s3://b/k/", "", "s3://b/k"],
  ])("URI: %s %j / %j → %j", (format, left, right, expected) => {
    expect(joinPaths(left, right, format)).toBe(expected);
  });
});

describe("appendToPath (the + operator)", () => {
  it.each<[PathFormat, string, string, string]>([
    ["POSIX", "/mnt/output/base", ".txt", "/mnt/output/base.txt"],
    ["POSIX", "/a/b/", "c", "/a/bc"],
    ["POSIX", "/a", "/c", "/a/c"],
    ["POSIX", "/a", "/", "/a"],
    ["POSIX", "", "x", ".x"],
    ["WINDOWS", "C:\\out\\shot", "_v2.exr", "C:\\out\\shot_v2.exr"],
    ["WINDOWS", "C:/out", "/x", "C:\\out\\x"],
    ["POSIX", "s3://b/k", "//x", "s3://b/k//x"],
    ["WINDOWS", "s3://b/dir/", "x", "s3://b/dir/x"],
  ])("%s %j + %j → %j", (format, path, text, expected) => {
    expect(appendToPath(path, text, format)).toBe(expected);
  });
});

describe("pathFromParts (path(list[string]))", () => {
  // Filesystem rows agree with Python 3.13 `str(PurePath(*parts))`.
  it.each<[PathFormat, string[], string]>([
    ["POSIX", [], "."],
    ["POSIX", [""], "."],
    ["POSIX", ["/", "a", "b", "c"], "/a/b/c"],
    ["POSIX", ["a", "/b"], "/b"],
    ["POSIX", ["a", "b", "/c", "d"], "/c/d"],
    ["POSIX", ["", "a"], "a"],
    ["POSIX", ["a", ""], "a"],
    ["POSIX", ["a/", "b"], "a/b"],
    ["POSIX", ["..", "a"], "../a"],
    ["POSIX", ["a", "..", "b"], "a/../b"],
    ["POSIX", ["/", ""], "/"],
    ["WINDOWS", ["a", "b"], "a\\b"],
    ["WINDOWS", ["C:\\a", "b"], "C:\\a\\b"],
    ["WINDOWS", ["a", "C:\\b"], "C:\\b"],
    ["WINDOWS", ["C:\\a", "\\b"], "C:\\b"],
    ["WINDOWS", ["C:\\a", "/b"], "C:\\b"],
    ["WINDOWS", ["C:", "a"], "C:a"],
    ["WINDOWS", ["C:/", "a"], "C:\\a"],
    ["WINDOWS", ["C:\\a", "D:b"], "D:b"],
    ["WINDOWS", ["C:\\a", "C:b"], "C:\\a\\b"],
    ["WINDOWS", ["\\\\server\\share", "a"], "\\\\server\\share\\a"],
    ["WINDOWS", ["\\\\server\\share\\a", "\\b"], "\\\\server\\share\\b"],
    ["WINDOWS", ["a", "\\b"], "\\b"],
    ["POSIX", ["s3://bucket", "a", "", "b", "c"], "s3://bucket/a//b/c"],
    ["WINDOWS", ["s3://bucket"], "s3://bucket"],
    ["POSIX", ["s3://bucket/dir/", "file"], "s3://bucket/dir/file"],
    ["POSIX", ["/local", "s3://b", "k"], "s3://b/k"],
    ["POSIX", ["file://", "tmp", "x"], "file:///tmp/x"],
  ])("%s %j → %j", (format, parts, expected) => {
    expect(pathFromParts(parts, format)).toBe(expected);
  });

  it.each<[PathFormat, string]>([
    ["POSIX", "/a/b/c.txt"],
    ["POSIX", "a/../b"],
    ["POSIX", "//srv/x"],
    ["WINDOWS", "C:\\dir\\f"],
    ["WINDOWS", "C:rel\\f"],
    ["WINDOWS", "\\\\server\\share\\x"],
    ["WINDOWS", "\\x\\y"],
    ["POSIX", "s3://bucket/a//b/c"],
    ["WINDOWS", "s3://bucket/dir/"],
    ["POSIX", "file:///tmp/a.txt"],
  ])("gives back the path from its parts: %s %j", (format, value) => {
    expect(pathFromParts(pathParts(value, format), format)).toBe(normalizePathText(value, format));
  });
});
