/**
 * PATH job parameters at job creation (spec §2.2, digest §4.2): relative submitted values join
 * the submitter's working directory (walking up is fine), relative defaults join the job
 * template's directory and may neither be absolute nor escape it, constraints are checked on the
 * joined value, and without EXPR a URI-looking value is just a relative path.
 */
import { describe, expect, it } from "vitest";
import type { PathFlavor } from "../paths";
import { createErrors, createOk, envWithParameters, withParameters as job } from "./job-test-support";

const pathParameter = (extra = "") => job(`- name: P\n  type: PATH\n${extra}`);

describe("submitted values", () => {
  const cases: Array<[string, PathFlavor, string | undefined, string]> = [
    ["out/frames", "posix", "/work/shot", "/work/shot/out/frames"],
    ["./out/./frames/", "posix", "/work/shot", "/work/shot/out/frames"],
    ["../x/y", "posix", "/work/shot", "/work/x/y"], // conformance 2.2--path-value-walkup-allowed
    ["../../../../x", "posix", "/work/shot", "/x"],
    ["/abs/file.exr", "posix", "/work/shot", "/abs/file.exr"],
    ["s3://bucket/key", "posix", "/work", "/work/s3:/bucket/key"], // conformance 2.2--path-uri-without-expr
    ["out\\frames", "windows", "C:\\work", "C:\\work\\out\\frames"],
    ["..\\x", "windows", "C:\\work\\shot", "C:\\work\\x"],
    ["D:\\renders", "windows", "C:\\work", "D:\\renders"],
    ["out/frames", "posix", undefined, "out/frames"],
    ["", "posix", "/work", ""],
  ];
  it.each(cases)("%s (%s, cwd %s) → %s", (input, flavor, workingDir, expected) => {
    const created = createOk({ template: pathParameter(), parameterValues: { P: input }, pathFlavor: flavor, ...(workingDir ? { workingDir } : {}) });
    expect(created.parameters.P).toEqual({ type: "PATH", value: expected });
  });

  it("checks allowedValues and maxLength on the joined value", () => {
    const template = pathParameter("  allowedValues: [/work/a, b]\n");
    expect(createOk({ template, parameterValues: { P: "a" }, workingDir: "/work" }).parameters.P?.value).toBe("/work/a");
    // conformance 2.2--path-value-not-in-allowed-values: "b" is "/work/b" once joined
    expect(createErrors({ template, parameterValues: { P: "b" }, workingDir: "/work" })).toEqual(["parameters P: parameter P: '/work/b' is not one of the allowed values ('/work/a', 'b')"]);
    expect(createErrors({ template: pathParameter("  maxLength: 8\n"), parameterValues: { P: "abc" }, workingDir: "/work" })).toEqual([
      "parameters P: parameter P: '/work/abc' is longer than the maximum length 8",
    ]);
  });
});

describe("defaults", () => {
  // conformance 1.1--path-default-joined-with-template-dir and ...-walkup-within-template-dir
  const accepted: Array<[string, string]> = [
    [".", "/jobs/t"],
    ["scene.blend", "/jobs/t/scene.blend"],
    ["a/..", "/jobs/t"],
    ["a/../b", "/jobs/t/b"],
    ["./a/./../b/.", "/jobs/t/b"],
    ["..name/name../...", "/jobs/t/..name/name../..."],
    ["a/b/c/../../../d", "/jobs/t/d"],
  ];
  it.each(accepted)("%s joins the template directory → %s", (raw, expected) => {
    const created = createOk({ template: pathParameter(`  default: '${raw}'\n`), templateDir: "/jobs/t" });
    expect(created.parameters.P?.value).toBe(expected);
  });

  it("joins with a Windows template directory on Windows", () => {
    const created = createOk({ template: pathParameter("  default: 'a/../b'\n"), templateDir: "C:\\jobs\\t", pathFlavor: "windows" });
    expect(created.parameters.P?.value).toBe("C:\\jobs\\t\\b");
  });

  // conformance 1.1--validation-invalid-path-default-*: refused at job creation, not at check
  const rejected: Array<[string, PathFlavor, string]> = [
    ["/etc/passwd", "posix", "is an absolute path"],
    ["C:\\\\Windows\\\\x", "posix", "is an absolute path"],
    ["C:/Windows", "posix", "is an absolute path"],
    ["\\\\\\\\server\\\\share", "posix", "is an absolute path"],
    ["..", "posix", "leads outside the job template's directory"],
    ["a/../..", "posix", "leads outside"],
    ["./../b", "posix", "leads outside"],
    ["a/b/c/../../../../d", "posix", "leads outside"],
    ["a/..\\\\..\\\\b", "windows", "leads outside"],
    ["a\\\\..\\\\..\\\\b", "windows", "leads outside"],
  ];
  it.each(rejected)("%s (%s) is refused", (raw, flavor, message) => {
    const errors = createErrors({ template: pathParameter(`  default: "${raw}"\n`), templateDir: "/jobs/t", pathFlavor: flavor });
    expect(errors).toEqual([expect.stringMatching(/^template parameterDefinitions\[0\]\.default: default of P: the default '.*' /)]);
    expect(errors[0]).toContain(message);
  });

  it("a submitted value replaces a default that would be refused", () => {
    const created = createOk({ template: pathParameter("  default: /etc\n"), parameterValues: { P: "/data" }, templateDir: "/jobs/t" });
    expect(created.parameters.P?.value).toBe("/data");
  });

  it.each([
    ["allowedValues", "  default: config/a\n  allowedValues: [config/a, config/b]\n", "'/jobs/t/config/a' is not one of the allowed values"],
    ["maxLength", "  default: config/a\n  maxLength: 10\n", "'/jobs/t/config/a' is longer than the maximum length 10"],
  ])("%s is checked after the join (conformance 2.2--path-default-*-checked-after-join)", (_, extra, message) => {
    expect(createErrors({ template: pathParameter(extra), templateDir: "/jobs/t" })).toEqual([expect.stringContaining(`default of P: ${message}`)]);
  });

  it("an environment template's refused default is reported in the environment template", () => {
    const errors = createErrors({
      template: job(`- name: Z\n  type: INT\n  default: 1`),
      environments: [envWithParameters(`- name: P\n  type: PATH\n  default: ../outside`)],
      templateDir: "/jobs/t",
    });
    expect(errors).toEqual([expect.stringMatching(/^environment\[0\] parameterDefinitions\[0\]\.default: default of P: the default '\.\.\/outside' leads outside/)]);
  });
});

describe("PATH values in template-scope format strings", () => {
  it("RawParam of a PATH parameter resolves to the joined value in the job name", () => {
    const template = `specificationVersion: jobtemplate-2023-09
name: "render {{RawParam.P}}"
parameterDefinitions:
- name: P
  type: PATH
steps:
- name: S
  script:
    actions:
      onRun:
        command: echo
`;
    expect(createOk({ template, parameterValues: { P: "shot" }, workingDir: "/w" }).name).toBe("render /w/shot");
  });
});
