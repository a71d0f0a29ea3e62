import { describe, expect, it } from "vitest";
import { isUriPath, parseUriPath } from "./uri-path";

describe("isUriPath", () => {
  it.each([
    ["s3://bucket/key", true],
    ["https://host/path", true],
    ["file:///tmp/x", true],
    ["a1+.-://host", true],
    ["S3://BUCKET", true],
    // The spec's pattern allows a one-letter scheme; so does lib/openjd/paths.ts.
    ["C://scenes/a.ma", true],
    ["3s://bucket/key", false],
    ["://host/path", false],
    ["s_3://bucket/key", false],
    ["s3:/bucket", false],
    ["s3:bucket", false],
    ["C:\\path", false],
    ["/local/path", false],
    ["", false],
  ])("%j → %s", (value, expected) => {
    expect(isUriPath(value)).toBe(expected);
  });
});

describe("parseUriPath", () => {
  it.each([
    ["s3://bucket/dir/file.txt", { authority: "s3://bucket", segments: ["dir", "file.txt"] }],
    ["s3://bucket", { authority: "s3://bucket", segments: [] }],
    ["s3://bucket/", { authority: "s3://bucket", segments: [""] }],
    ["s3://bucket/a//b/", { authority: "s3://bucket", segments: ["a", "", "b", ""] }],
    ["file:///tmp/x", { authority: "file://", segments: ["tmp", "x"] }],
    ["https://user@host:8080/p?q=1", { authority: "https://user@host:8080", segments: ["p?q=1"] }],
  ])("%j", (value, expected) => {
    expect(parseUriPath(value)).toEqual(expected);
  });

  it("is null for a filesystem path", () => {
    expect(parseUriPath("/mnt/x")).toBeNull();
  });
});
