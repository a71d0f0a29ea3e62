import { describe, expect, it } from "vitest";
import { loginPath, pathWithQuery, safeNext } from "./next-path";

describe("safeNext", () => {
  it.each<[string, string | string[] | null | undefined, string]>([
    ["a portal page", "/jobs", "/jobs"],
    ["with its query and hash", "/jobs?status=FAILED&q=a%20b#top", "/jobs?status=FAILED&q=a%20b#top"],
    ["the first of repeated values", ["/pools", "/workers"], "/pools"],
    ["missing", undefined, "/"],
    ["null", null, "/"],
    ["empty", "", "/"],
    ["another site", "https://evil.example/login", "/"],
    ["protocol-relative", "//evil.example/x", "/"],
    ["backslash protocol-relative", "/\\evil.example", "/"],
    ["a tab hiding a second slash", "/\t/evil.example", "/"],
    ["javascript: scheme", "javascript:alert(1)", "/"],
    ["relative without a slash", "jobs", "/"],
    ["the sign-in page itself", "/login?next=/jobs", "/"],
    ["the setup page", "/setup?token=x", "/"],
    ["dot segments stay on the site", "/a/../../jobs", "/jobs"],
    ["absurdly long", `/${"a".repeat(3000)}`, "/"],
  ])("%s", (_case, raw, expected) => {
    expect(safeNext(raw)).toBe(expected);
  });
});

describe("loginPath", () => {
  it("carries the page to come back to", () => {
    expect(loginPath("/jobs?status=FAILED")).toBe("/login?next=%2Fjobs%3Fstatus%3DFAILED");
  });
  it("leaves next out for the home page and for unsafe paths", () => {
    expect(loginPath("/")).toBe("/login");
    expect(loginPath("//evil.example")).toBe("/login");
  });
});

describe("pathWithQuery", () => {
  it("keeps every value, in order", () => {
    expect(pathWithQuery("/jobs", { status: "FAILED", q: "shot 010", tag: ["a", "b"], gone: undefined })).toBe("/jobs?status=FAILED&q=shot+010&tag=a&tag=b");
  });
  it("is the bare path without a query", () => {
    expect(pathWithQuery("/pools")).toBe("/pools");
    expect(pathWithQuery("/pools", {})).toBe("/pools");
  });
});
