import { describe, expect, it } from "vitest";
import { type PathFormat, PathError } from "./path-error";
import { withName, withStem, withSuffix } from "./with-name";

type Op = (value: string, argument: string, format: PathFormat) => string;

const operations: Record<string, Op> = { withName, withStem, withSuffix };

// Filesystem rows agree with Python 3.13 pathlib; messages follow openjd-rs (spec path-mapping.md).
const results: [keyof typeof operations, PathFormat, string, string, string][] = [
  ["withName", "POSIX", "/a/b/file.txt", "other.txt", "/a/b/other.txt"],
  ["withName", "POSIX", "foo", "x", "x"],
  ["withName", "POSIX", "foo/bar", "x", "foo/x"],
  ["withName", "POSIX", "/foo", "x", "/x"],
  ["withName", "POSIX", "a/b", "..", "a/.."],
  ["withName", "POSIX", "a/b", "c\\d", "a/c\\d"],
  ["withName", "WINDOWS", "C:\\foo", "x", "C:\\x"],
  ["withName", "WINDOWS", "\\\\srv\\share\\foo", "x", "\\\\srv\\share\\x"],
  ["withName", "WINDOWS", "foo\\bar", "x", "foo\\x"],
  ["withName", "WINDOWS", "foo", "x:y", ".\\x:y"],
  ["withName", "WINDOWS", "C:foo", "x", "C:x"],
  ["withName", "POSIX", "s3://b/dir/file.txt", "o.png", "s3://b/dir/o.png"],
  ["withName", "WINDOWS", "s3://b/a//f", "g", "s3://b/a//g"],
  ["withStem", "POSIX", "/a/b/file.txt", "other", "/a/b/other.txt"],
  ["withStem", "POSIX", "foo.txt", "x", "x.txt"],
  ["withStem", "POSIX", "foo.", "x", "x"],
  ["withStem", "POSIX", "a.tar.gz", "b", "b.gz"],
  ["withStem", "POSIX", "foo.txt", ".", "..txt"],
  ["withStem", "WINDOWS", "C:foo.txt", "x", "C:x.txt"],
  ["withStem", "WINDOWS", "s3://b/k/f.exr", "g", "s3://b/k/g.exr"],
  ["withSuffix", "POSIX", "/a/b/file.txt", ".png", "/a/b/file.png"],
  ["withSuffix", "POSIX", "file.txt", "", "file"],
  ["withSuffix", "POSIX", "a", ".tar.gz", "a.tar.gz"],
  ["withSuffix", "POSIX", "a", ". ", "a. "],
  ["withSuffix", "POSIX", "foo.", "", "foo."],
  ["withSuffix", "POSIX", ".bashrc", ".bak", ".bashrc.bak"],
  ["withSuffix", "WINDOWS", "C:foo.txt", ".png", "C:foo.png"],
  ["withSuffix", "WINDOWS", "D:/out/a.b/c.exr", ".png", "D:\\out\\a.b\\c.png"],
  ["withSuffix", "POSIX", "s3://b/k/f.exr", ".png", "s3://b/k/f.png"],
];

const errors: [keyof typeof operations, PathFormat, string, string, string][] = [
  ["withName", "POSIX", "/a/b", "", "with_name: Invalid name ''"],
  ["withName", "POSIX", "/a/b", ".", "with_name: Invalid name '.'"],
  ["withName", "POSIX", "/a/b", "new/name", "with_name: Invalid name 'new/name'"],
  ["withName", "WINDOWS", "C:\\a\\b", "x\\y", "with_name: Invalid name 'x\\y'"],
  ["withName", "POSIX", "/", "x.png", "with_name: '/' has an empty name"],
  ["withName", "POSIX", ".", "x", "with_name: '.' has an empty name"],
  ["withName", "WINDOWS", "C:\\", "x", "with_name: 'C:\\' has an empty name"],
  ["withName", "WINDOWS", "\\\\srv\\share", "x", "with_name: '\\\\srv\\share' has an empty name"],
  ["withName", "POSIX", "s3://bucket", "x", "with_name: 's3://bucket' has an empty name"],
  ["withName", "WINDOWS", "s3://bucket/", "x", "with_name: 's3://bucket/' has an empty name"],
  ["withStem", "POSIX", "foo", "", "with_stem: Invalid name ''"],
  ["withStem", "POSIX", "foo.txt", "", "with_stem: 'foo.txt' has a non-empty suffix"],
  ["withStem", "POSIX", "/file.txt", "a/b", "with_stem: Invalid name 'a/b'"],
  ["withStem", "POSIX", "foo", ".", "with_stem: Invalid name '.'"],
  ["withStem", "POSIX", "/", "x", "with_stem: '/' has an empty name"],
  ["withSuffix", "POSIX", "file", ".", "with_suffix: Invalid suffix '.'"],
  ["withSuffix", "POSIX", "file", "foo", "with_suffix: Invalid suffix 'foo'"],
  ["withSuffix", "POSIX", "file", ".x/y", "with_suffix: Invalid suffix '.x/y'"],
  ["withSuffix", "WINDOWS", "file", ".x\\y", "with_suffix: Invalid suffix '.x\\y'"],
  ["withSuffix", "POSIX", "..foo", "", "with_suffix: Invalid name '.'"],
  ["withSuffix", "POSIX", "/", ".png", "with_suffix: '/' has an empty name"],
  ["withSuffix", "POSIX", "s3://bucket", ".png", "with_suffix: 's3://bucket' has an empty name"],
];

describe("with_name / with_stem / with_suffix", () => {
  it.each(results)("%s %s %j %j → %j", (operation, format, value, argument, expected) => {
    expect(operations[operation]?.(value, argument, format)).toBe(expected);
  });

  it.each(errors)("%s %s %j %j fails: %s", (operation, format, value, argument, message) => {
    expect(() => operations[operation]?.(value, argument, format)).toThrow(new PathError(message));
  });

  it("throws PathError instances", () => {
    expect(() => withName("/", "x", "POSIX")).toThrow(PathError);
  });
});
