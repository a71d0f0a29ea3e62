import { describe, expect, it } from "vitest";
import { isAbsolutePath, isUri, joinPath, looksAbsoluteOnAnyPlatform, normalizePath, type PathFlavor } from "./paths";

describe("isUri", () => {
  const cases: [string, boolean][] = [
    ["s3://bucket/key", true],
    ["file:///tmp/x", true],
    ["HTTPS://example.com", true],
    ["git+ssh://host/repo", true],
    ["a.b-c://x", true],
    ["C://x", true], // the spec's pattern, taken literally
    ["C:\\x", false],
    ["C:/x", false],
    ["/tmp/x", false],
    ["relative/path", false],
    ["1s3://x", false],
    ["s3:/x", false],
    ["mailto:a@b", false],
    ["", false],
  ];
  it.each(cases)("%s → %s", (value, expected) => {
    expect(isUri(value)).toBe(expected);
  });
});

describe("isAbsolutePath and looksAbsoluteOnAnyPlatform", () => {
  // value, posix, windows (any platform is their "or")
  const cases: [string, boolean, boolean][] = [
    ["/tmp/x", true, true],
    ["/", true, true],
    ["C:\\x", false, true],
    ["c:/x", false, true],
    ["C:\\", false, true],
    ["\\\\server\\share\\x", false, true],
    ["//server/share/x", true, true],
    ["\\x", false, true],
    ["C:x", false, false],
    ["C:", false, false],
    ["x/y", false, false],
    ["./x", false, false],
    ["..\\x", false, false],
    ["", false, false],
    ["s3://b/k", false, false],
  ];
  it.each(cases)("%s: posix %s, windows %s", (value, posix, windows) => {
    expect(isAbsolutePath(value, "posix")).toBe(posix);
    expect(isAbsolutePath(value, "windows")).toBe(windows);
    expect(looksAbsoluteOnAnyPlatform(value)).toBe(posix || windows);
  });
});

describe("normalizePath", () => {
  const cases: [string, PathFlavor, string, boolean][] = [
    ["", "posix", "", false],
    ["", "windows", "", false],
    [".", "posix", ".", false],
    ["./", "posix", ".", false],
    ["a/..", "posix", ".", false],
    ["a/../b", "posix", "b", false],
    ["./a/./../b/.", "posix", "b", false],
    ["..name/name../...", "posix", "..name/name../...", false],
    ["a/b/c/../../../d", "posix", "d", false],
    ["a//b///c/", "posix", "a/b/c", false],
    ["..", "posix", "..", true],
    ["../", "posix", "..", true],
    ["a/../..", "posix", "..", true],
    ["./../b", "posix", "../b", true],
    ["a/b/c/../../../../d", "posix", "../d", true],
    ["../a/../..", "posix", "../..", true],
    // Backslash is an ordinary filename character on POSIX.
    ["a\\..\\..\\b", "posix", "a\\..\\..\\b", false],
    ["/tmp/x/../y", "posix", "/tmp/y", false],
    ["/..", "posix", "/", false],
    ["/../../etc", "posix", "/etc", false],
    ["//x//y", "posix", "/x/y", false],
    ["/", "posix", "/", false],
    [".", "windows", ".", false],
    ["a\\..", "windows", ".", false],
    ["a/../b", "windows", "b", false],
    ["a\\b/c", "windows", "a\\b\\c", false],
    [".\\a\\.\\..\\b\\.", "windows", "b", false],
    ["..name\\name..\\...", "windows", "..name\\name..\\...", false],
    ["a\\..\\..\\b", "windows", "..\\b", true],
    ["a/..\\..\\b", "windows", "..\\b", true],
    ["..", "windows", "..", true],
    ["C:\\x\\..\\y", "windows", "C:\\y", false],
    ["C:/x/./y/", "windows", "C:\\x\\y", false],
    ["C:\\..\\..", "windows", "C:\\", false],
    ["\\\\server\\share\\x\\..\\y", "windows", "\\\\server\\share\\y", false],
    ["//server/share/x", "windows", "\\\\server\\share\\x", false],
    ["\\\\server\\share\\..\\..", "windows", "\\\\server\\share\\", false],
    ["\\\\server", "windows", "\\\\server\\", false],
    ["/x/../y", "windows", "\\y", false],
    ["\\", "windows", "\\", false],
  ];
  it.each(cases)("%s (%s) → %s, escapes %s", (value, flavor, path, escapes) => {
    expect(normalizePath(value, flavor)).toEqual({ path, escapes });
  });
});

describe("joinPath", () => {
  const templateDir = "/jobs/render";
  const windowsDir = "C:\\jobs\\render";
  const cases: [string, string, PathFlavor, string][] = [
    // Relative defaults against the template directory.
    [templateDir, ".", "posix", "/jobs/render"],
    [templateDir, "a/..", "posix", "/jobs/render"],
    [templateDir, "a/../b", "posix", "/jobs/render/b"],
    [templateDir, "./a/./../b/.", "posix", "/jobs/render/b"],
    [templateDir, "..name/name../...", "posix", "/jobs/render/..name/name../..."],
    [templateDir, "a/b/c/../../../d", "posix", "/jobs/render/d"],
    [templateDir, "sub/../data.txt", "posix", "/jobs/render/data.txt"],
    [windowsDir, "a/../b", "windows", "C:\\jobs\\render\\b"],
    [windowsDir, ".\\a\\.\\..\\b\\.", "windows", "C:\\jobs\\render\\b"],
    // Relative values against the working directory; walking up is allowed for values.
    ["/home/ana/shots", ".", "posix", "/home/ana/shots"],
    ["/home/ana/shots", "./b.exr", "posix", "/home/ana/shots/b.exr"],
    ["/home/ana/shots", "sub/../other", "posix", "/home/ana/shots/other"],
    ["/home/ana/shots", "../x", "posix", "/home/ana/x"],
    ["/home/ana/shots/", "b.exr", "posix", "/home/ana/shots/b.exr"],
    ["/", "../../x", "posix", "/x"],
    ["D:\\work", "..\\x", "windows", "D:\\x"],
    ["\\\\nas\\proj\\shots", "../x", "windows", "\\\\nas\\proj\\x"],
    // Absolute relative parts replace the base.
    [templateDir, "/tmp/x/../y", "posix", "/tmp/y"],
    [windowsDir, "E:/out/./f.exr", "windows", "E:\\out\\f.exr"],
    [windowsDir, "\\\\server\\share\\x", "windows", "\\\\server\\share\\x"],
    [windowsDir, "/x", "windows", "\\x"],
    // On POSIX a Windows-absolute string is just a name.
    [templateDir, "C:\\x", "posix", "/jobs/render/C:\\x"],
    // Empty relative: the normalized base, with no trailing separator.
    [templateDir, "", "posix", "/jobs/render"],
    ["/jobs/./render/", "", "posix", "/jobs/render"],
    ["C:/jobs/render", "", "windows", "C:\\jobs\\render"],
    // Empty base: the relative part alone.
    ["", "a/../b", "posix", "b"],
    ["", "", "posix", ""],
    // Relative bases stay relative.
    ["a", "../../x", "posix", "../x"],
  ];
  it.each(cases)("join(%s, %s) on %s → %s", (base, relative, flavor, expected) => {
    expect(joinPath(base, relative, flavor)).toBe(expected);
  });

  it("keeps escaping defaults detectable before joining", () => {
    for (const value of ["..", "a/../..", "./../b", "a/b/c/../../../../d"]) {
      expect(normalizePath(value, "posix").escapes).toBe(true);
      expect(joinPath(templateDir, value, "posix").startsWith(`${templateDir}/`)).toBe(false);
    }
  });
});
