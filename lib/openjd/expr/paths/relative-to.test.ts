import { describe, expect, it } from "vitest";
import { type PathFormat, PathError } from "./path-error";
import { isRelativeTo, relativeTo } from "./relative-to";

// [format, value, base, relative path or null when not relative]; filesystem rows agree with
// Python 3.13 `PurePath(value).relative_to(base)`.
const cases: [PathFormat, string, string, string | null][] = [
  ["POSIX", "/a/b/c/d", "/a/b", "c/d"],
  ["POSIX", "/a/b", "/a/b", "."],
  ["POSIX", "/a/b/c", "/x/y", null],
  ["POSIX", "/foo/bar", "/foo/b", null],
  ["POSIX", "/mnt/data", "/mnt/dat", null],
  ["POSIX", "/A/B", "/a", null],
  ["POSIX", "a/b", ".", "a/b"],
  ["POSIX", "a/b", "a", "b"],
  ["POSIX", "/a/b", "a", null],
  ["POSIX", "a/b", "/a", null],
  ["POSIX", "/a/./b//c", "/a/b/", "c"],
  ["POSIX", "a/../b", "a", "../b"],
  ["POSIX", "//a/b", "/a", null],
  ["WINDOWS", "C:\\Users\\Bob", "c:\\users", "Bob"],
  ["WINDOWS", "C:\\Users\\Bob", "C:\\Users\\Bo", null],
  ["WINDOWS", "C:\\Users\\Bob", "c:/USERS/bob/", "."],
  ["WINDOWS", "//server/share/dir/file", "\\\\server\\share", "dir\\file"],
  ["WINDOWS", "//server/share/dir", "//other/share", null],
  ["WINDOWS", "C:\\a", "C:", null],
  ["WINDOWS", "D:\\a", "C:\\a", null],
  ["WINDOWS", "C:/a/x:y", "C:\\a", ".\\x:y"],
  ["POSIX", "s3://bucket/key/file.txt", "s3://bucket/key", "file.txt"],
  ["WINDOWS", "s3://bucket/a/b/c", "s3://bucket", "a/b/c"],
  ["POSIX", "s3://bucket/a", "s3://bucket/a", "."],
  ["POSIX", "s3://bucket/a", "s3://bucket/a/", "."],
  ["POSIX", "s3://bucket1/key", "s3://bucket2", null],
  ["POSIX", "s3://bucket/ab", "s3://bucket/a", null],
  ["POSIX", "S3://Bucket/k", "s3://bucket", "k"],
  ["POSIX", "s3://b/K", "s3://b/k", null],
  ["POSIX", "s3://b/a//c", "s3://b", "a//c"],
  ["POSIX", "s3://bucket/key", "/a/b", null],
  ["POSIX", "/a/b", "s3://bucket", null],
];

describe("isRelativeTo / relativeTo", () => {
  it.each(cases)("%s %j relative to %j → %j", (format, value, base, expected) => {
    expect(isRelativeTo(value, base, format)).toBe(expected !== null);
    if (expected === null) {
      expect(() => relativeTo(value, base, format)).toThrow(new PathError(`relative_to failed: '${value}' is not relative to '${base}'`));
    } else {
      expect(relativeTo(value, base, format)).toBe(expected);
    }
  });
});
