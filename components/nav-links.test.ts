import { describe, expect, it } from "vitest";
import { isCurrent, navLinks } from "./nav-links";

const labels = (role: Parameters<typeof navLinks>[0]) => navLinks(role).map((l) => l.label);

describe("navLinks", () => {
  it.each<[Parameters<typeof navLinks>[0], string[]]>([
    [null, []],
    ["viewer", ["Jobs", "Templates", "Editor", "Pools", "Workers", "Overview"]],
    ["artist", ["Jobs", "Submit", "Templates", "Editor", "Pools", "Workers", "Overview"]],
    ["wrangler", ["Jobs", "Submit", "Templates", "Editor", "Pools", "Workers", "Overview"]],
    ["admin", ["Jobs", "Submit", "Templates", "Editor", "Pools", "Workers", "Overview", "Users", "Audit", "Retention"]],
  ])("%s", (role, expected) => {
    expect(labels(role)).toEqual(expected);
  });
});

describe("isCurrent", () => {
  it.each<[string, string, boolean]>([
    ["/jobs", "/jobs", true],
    ["/jobs/job-abc", "/jobs", true],
    ["/jobsite", "/jobs", false],
    ["/admin/audit", "/admin/users", false],
  ])("%s in %s", (pathname, href, expected) => {
    expect(isCurrent(pathname, href)).toBe(expected);
  });
});
