import { describe, expect, it } from "vitest";
import type { PathFormat } from "./path-error";
import { normalizePathText, parsePath } from "./parse-path";

// Expected values are Python 3.13's str(PurePosixPath(v)) / str(PureWindowsPath(v)).
const cases: [PathFormat, string, string][] = [
  ["POSIX", "", "."],
  ["POSIX", ".", "."],
  ["POSIX", "./foo", "foo"],
  ["POSIX", "a/./b", "a/b"],
  ["POSIX", "a/b/", "a/b"],
  ["POSIX", "a//b", "a/b"],
  ["POSIX", "///foo", "/foo"],
  ["POSIX", "//foo", "//foo"],
  ["POSIX", "a/../b", "a/../b"],
  ["POSIX", "/", "/"],
  ["POSIX", "C:\\x\\y", "C:\\x\\y"],
  ["POSIX", "D:/renders/scene.exr", "D:/renders/scene.exr"],
  ["WINDOWS", "", "."],
  ["WINDOWS", "foo/bar", "foo\\bar"],
  ["WINDOWS", "C:\\\\foo", "C:\\foo"],
  ["WINDOWS", "c:/", "c:\\"],
  ["WINDOWS", "C:", "C:"],
  ["WINDOWS", "C:foo/./bar/", "C:foo\\bar"],
  ["WINDOWS", "D:/renders/scene.exr", "D:\\renders\\scene.exr"],
  ["WINDOWS", "/mnt/renders/scene.exr", "\\mnt\\renders\\scene.exr"],
  ["WINDOWS", "a\\..\\b", "a\\..\\b"],
  ["WINDOWS", "\\\\srv\\share", "\\\\srv\\share\\"],
  ["WINDOWS", "//srv/share/x/", "\\\\srv\\share\\x"],
  ["WINDOWS", "\\\\server", "\\\\server"],
  ["WINDOWS", "\\\\?\\UNC\\srv\\sh\\f", "\\\\?\\UNC\\srv\\sh\\f"],
  ["WINDOWS", "\\\\.\\device\\x", "\\\\.\\device\\x"],
  // A relative first component that reads as a drive keeps a leading `.\`.
  ["WINDOWS", ".\\x:y", ".\\x:y"],
  ["WINDOWS", "./a/./x:y", "a\\x:y"],
  ["POSIX", "s3://bucket/a//b/./c/", "s3://bucket/a//b/./c/"],
  ["WINDOWS", "s3://bucket/a//b/./c/", "s3://bucket/a//b/./c/"],
  ["WINDOWS", "C://scenes/a.ma", "C://scenes/a.ma"],
];

describe("normalizePathText", () => {
  it.each(cases)("%s %j → %j", (format, value, expected) => {
    expect(normalizePathText(value, format)).toBe(expected);
  });

  it.each(cases)("is idempotent: %s %j", (format, value) => {
    const once = normalizePathText(value, format);
    expect(normalizePathText(once, format)).toBe(once);
  });
});

describe("parsePath", () => {
  it.each([
    ["POSIX", "//a/b", { drive: "", root: "//", tail: ["a", "b"] }],
    ["WINDOWS", "C:\\a", { drive: "C:", root: "\\", tail: ["a"] }],
    ["WINDOWS", "C:a", { drive: "C:", root: "", tail: ["a"] }],
    ["WINDOWS", "\\a", { drive: "", root: "\\", tail: ["a"] }],
    ["WINDOWS", "//srv/share/a", { drive: "\\\\srv\\share", root: "\\", tail: ["a"] }],
    ["WINDOWS", "\\\\?\\UNC\\srv\\share", { drive: "\\\\?\\UNC\\srv\\share", root: "\\", tail: [] }],
  ] as const)("%s %j", (format, value, expected) => {
    expect(parsePath(value, format)).toEqual(expected);
  });
});
