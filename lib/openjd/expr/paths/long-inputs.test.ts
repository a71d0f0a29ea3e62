import { describe, expect, it } from "vitest";
import * as paths from "./index";

// Every operation is meant to be linear in its input (the evaluator budgets ceil(len/256)
// operations per path processed, and inputs may reach 1 MB). A quadratic step would take
// minutes here, so a generous bound catches one without making the test timing-sensitive.
const MB = 1 << 20;
const LIMIT_MS = 3000;

const inputs: Record<string, string> = {
  slashes: "/".repeat(MB),
  components: "a/".repeat(MB / 2),
  "mixed separators and dots": "a\\/.".repeat(MB / 4),
  "UNC-like": `\\\\${"s".repeat(MB)}`,
  URI: `s3://b/${"a//".repeat(MB / 3)}`,
};

const operations: Record<string, (value: string, format: paths.PathFormat) => unknown> = {
  normalizePathText: paths.normalizePathText,
  pathName: paths.pathName,
  pathSuffixes: paths.pathSuffixes,
  pathParent: paths.pathParent,
  pathParts: paths.pathParts,
  asPosix: paths.asPosix,
  isAbsolutePath: paths.isAbsolutePath,
  joinPaths: (value, format) => paths.joinPaths(value, value, format),
  appendToPath: (value, format) => paths.appendToPath(value, value, format),
  pathFromParts: (value, format) => paths.pathFromParts(value.split("/"), format),
  withSuffix: (value, format) => paths.withSuffix(`${value}x`, ".png", format),
  withNumber: (value, format) => paths.withNumber(`${value}x`, -5n, format),
  relativeTo: (value, format) => paths.isRelativeTo(value, value.slice(0, MB / 2), format),
  applyPathMapping: (value, format) =>
    paths.applyPathMapping(
      value,
      (["POSIX", "WINDOWS", "URI"] as const).map((source_path_format) => ({
        source_path_format,
        source_path: value.slice(0, MB / 2),
        destination_path: "/dst",
      })),
      format,
    ),
};

function elapsed(run: (format: paths.PathFormat) => unknown): number {
  const started = performance.now();
  for (const format of ["POSIX", "WINDOWS"] as const) {
    try {
      run(format);
    } catch (error) {
      expect(error).toBeInstanceOf(paths.PathError);
    }
  }
  return performance.now() - started;
}

describe.each(Object.entries(inputs))("1 MB input: %s", (_name, input) => {
  it.each(Object.entries(operations))("%s finishes quickly", (_operation, run) => {
    expect(elapsed((format) => run(input, format))).toBeLessThan(LIMIT_MS);
  });
});

describe("withNumber on 1 MB stems", () => {
  it.each([
    ["a digit run", "9".repeat(MB)],
    ["a hash run", "#".repeat(MB)],
    ["a printf width", `%0${"0".repeat(MB)}1d`],
    ["many failed printf candidates", "1d".repeat(MB / 2)],
    ["dots", ".".repeat(MB)],
  ])("%s finishes quickly", (_name, stem) => {
    expect(elapsed((format) => paths.withNumber(`${stem}.exr`, 7n, format))).toBeLessThan(LIMIT_MS);
  });
});
