import { describe, expect, it } from "vitest";
import type { PathFormat } from "./path-error";
import { asPosix, isAbsolutePath, pathName, pathParent, pathParts, pathStem, pathSuffix, pathSuffixes } from "./path-properties";

interface Row {
  format: PathFormat;
  value: string;
  name: string;
  stem: string;
  suffix: string;
  suffixes: string[];
  parent: string;
  parts: string[];
}

const row = (format: PathFormat, value: string, [name, stem, suffix, suffixes, parent, parts]: [string, string, string, string[], string, string[]]): Row => ({
  format,
  value,
  name,
  stem,
  suffix,
  suffixes,
  parent,
  parts,
});

// Filesystem rows agree with Python 3.13 pathlib; URI rows with Expression Language §2.3.1.
const rows: Row[] = [
  row("POSIX", "/projects/shot01/render.exr", ["render.exr", "render", ".exr", [".exr"], "/projects/shot01", ["/", "projects", "shot01", "render.exr"]]),
  row("POSIX", "/data/backup.tar.gz", ["backup.tar.gz", "backup.tar", ".gz", [".tar", ".gz"], "/data", ["/", "data", "backup.tar.gz"]]),
  row("POSIX", "/home/u/.bashrc", [".bashrc", ".bashrc", "", [], "/home/u", ["/", "home", "u", ".bashrc"]]),
  row("POSIX", ".tar.gz", [".tar.gz", ".tar", ".gz", [".gz"], ".", [".tar.gz"]]),
  row("POSIX", "foo.", ["foo.", "foo.", "", [], ".", ["foo."]]),
  row("POSIX", "a.tar.", ["a.tar.", "a.tar.", "", [], ".", ["a.tar."]]),
  row("POSIX", "..foo", ["..foo", ".", ".foo", [], ".", ["..foo"]]),
  row("POSIX", "a..b", ["a..b", "a.", ".b", [".", ".b"], ".", ["a..b"]]),
  row("POSIX", "render.0001.exr", ["render.0001.exr", "render.0001", ".exr", [".0001", ".exr"], ".", ["render.0001.exr"]]),
  row("POSIX", "/", ["", "", "", [], "/", ["/"]]),
  row("POSIX", "", ["", "", "", [], ".", []]),
  row("POSIX", ".", ["", "", "", [], ".", []]),
  row("POSIX", "a", ["a", "a", "", [], ".", ["a"]]),
  row("POSIX", "a/b/", ["b", "b", "", [], "a", ["a", "b"]]),
  row("POSIX", "a/../b", ["b", "b", "", [], "a/..", ["a", "..", "b"]]),
  row("POSIX", "//srv/x", ["x", "x", "", [], "//srv", ["//", "srv", "x"]]),
  row("POSIX", "C:\\dir\\file.txt", ["C:\\dir\\file.txt", "C:\\dir\\file", ".txt", [".txt"], ".", ["C:\\dir\\file.txt"]]),
  row("WINDOWS", "C:\\dir\\file.txt", ["file.txt", "file", ".txt", [".txt"], "C:\\dir", ["C:\\", "dir", "file.txt"]]),
  row("WINDOWS", "C:/dir/file.txt", ["file.txt", "file", ".txt", [".txt"], "C:\\dir", ["C:\\", "dir", "file.txt"]]),
  row("WINDOWS", "C:\\", ["", "", "", [], "C:\\", ["C:\\"]]),
  row("WINDOWS", "C:file.txt", ["file.txt", "file", ".txt", [".txt"], "C:", ["C:", "file.txt"]]),
  row("WINDOWS", "\\\\server\\share\\dir\\f.exr", ["f.exr", "f", ".exr", [".exr"], "\\\\server\\share\\dir", ["\\\\server\\share\\", "dir", "f.exr"]]),
  row("WINDOWS", "//server/share", ["", "", "", [], "\\\\server\\share\\", ["\\\\server\\share\\"]]),
  row("WINDOWS", "\\x\\y", ["y", "y", "", [], "\\x", ["\\", "x", "y"]]),
  row("WINDOWS", "renders\\a.exr", ["a.exr", "a", ".exr", [".exr"], "renders", ["renders", "a.exr"]]),
  row("WINDOWS", "a/b\\c/", ["c", "c", "", [], "a\\b", ["a", "b", "c"]]),
  ...(["POSIX", "WINDOWS"] as const).flatMap((format) => [
    row(format, "s3://bucket/dir/file.obj", ["file.obj", "file", ".obj", [".obj"], "s3://bucket/dir", ["s3://bucket", "dir", "file.obj"]]),
    row(format, "s3://bucket/a//b/c", ["c", "c", "", [], "s3://bucket/a//b", ["s3://bucket", "a", "", "b", "c"]]),
    row(format, "s3://bucket", ["", "", "", [], "s3://bucket", ["s3://bucket"]]),
    row(format, "s3://bucket/", ["", "", "", [], "s3://bucket", ["s3://bucket", ""]]),
    row(format, "s3://bucket/dir/", ["", "", "", [], "s3://bucket/dir", ["s3://bucket", "dir", ""]]),
    row(format, "s3://b/x.tar.gz", ["x.tar.gz", "x.tar", ".gz", [".tar", ".gz"], "s3://b", ["s3://b", "x.tar.gz"]]),
    row(format, "file:///tmp/a.txt", ["a.txt", "a", ".txt", [".txt"], "file:///tmp", ["file://", "tmp", "a.txt"]]),
    row(format, "s3://b/./../k\\x", ["k\\x", "k\\x", "", [], "s3://b/./..", ["s3://b", ".", "..", "k\\x"]]),
  ]),
];

describe.each(rows)("$format $value", ({ format, value, name, stem, suffix, suffixes, parent, parts }) => {
  it("name, stem, suffix, suffixes", () => {
    expect([pathName(value, format), pathStem(value, format), pathSuffix(value, format)]).toEqual([name, stem, suffix]);
    expect(pathSuffixes(value, format)).toEqual(suffixes);
  });

  it("parent and parts", () => {
    expect(pathParent(value, format)).toBe(parent);
    expect(pathParts(value, format)).toEqual(parts);
  });
});

describe("isAbsolutePath", () => {
  it.each([
    ["POSIX", "/tmp", true],
    ["POSIX", "relative/path", false],
    ["POSIX", "", false],
    ["POSIX", "//server/share/dir", true],
    ["POSIX", "C:/a/b", false],
    ["POSIX", "s3://bucket/key", true],
    ["WINDOWS", "C:\\a\\b", true],
    ["WINDOWS", "C:/a", true],
    ["WINDOWS", "a/b", false],
    ["WINDOWS", "\\x", false],
    ["WINDOWS", "/x", false],
    ["WINDOWS", "C:x", false],
    ["WINDOWS", "//server/share/dir", true],
    ["WINDOWS", "\\\\server", true],
    ["WINDOWS", "s3://bucket", true],
  ] as const)("%s %j → %s", (format, value, expected) => {
    expect(isAbsolutePath(value, format)).toBe(expected);
  });
});

describe("asPosix", () => {
  it.each([
    ["POSIX", "/mnt/renders/scene.exr", "/mnt/renders/scene.exr"],
    ["POSIX", "a\\b//c/", "a\\b/c"],
    ["WINDOWS", "C:\\a\\b", "C:/a/b"],
    ["WINDOWS", "\\\\srv\\sh\\x", "//srv/sh/x"],
    ["WINDOWS", "a/./b/", "a/b"],
    ["POSIX", "s3://b/a//c", "s3://b/a//c"],
    ["WINDOWS", "s3://b/a\\c", "s3://b/a\\c"],
  ] as const)("%s %j → %j", (format, value, expected) => {
    expect(asPosix(value, format)).toBe(expected);
  });
});
