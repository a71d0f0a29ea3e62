import { describe, expect, it } from "vitest";
import { type PathFormat, PathError } from "./path-error";
import { withNumber } from "./with-number";

// Expression Language §2.3.2 "Frame Number Substitution" and its examples; openjd-rs test_paths.rs.
describe("withNumber", () => {
  it.each<[string, string, bigint, PathFormat, string]>([
    ["digit run", "/out/file_003.exr", 72n, "POSIX", "/out/file_072.exr"],
    ["printf %d", "/out/file_%d.exr", 72n, "POSIX", "/out/file_72.exr"],
    ["printf %0Nd", "/out/file_%04d.exr", 72n, "POSIX", "/out/file_0072.exr"],
    ["hash run", "/out/file_####.exr", 72n, "POSIX", "/out/file_0072.exr"],
    ["six hashes", "/out/file_######.exr", 72n, "POSIX", "/out/file_000072.exr"],
    ["no pattern appends _NNNN", "/out/render.exr", 72n, "POSIX", "/out/render_0072.exr"],
    ["stem keeps its inner dot", "/out/render.0001.exr", 72n, "POSIX", "/out/render.0072.exr"],
    ["never truncates hashes", "/out/file_###.exr", 10000n, "POSIX", "/out/file_10000.exr"],
    ["never truncates digits", "/out/file_0001.exr", 123456n, "POSIX", "/out/file_123456.exr"],
    ["32 hashes is the limit", `/o/f_${"#".repeat(32)}`, 1n, "POSIX", `/o/f_${"0".repeat(31)}1`],
    ["negative digit run", "/out/file_003.exr", -1n, "POSIX", "/out/file_-01.exr"],
    ["negative hash run", "/out/file_####.exr", -7n, "POSIX", "/out/file_-007.exr"],
    ["negative printf %0Nd", "/out/file_%04d.exr", -1n, "POSIX", "/out/file_-001.exr"],
    ["negative printf %d", "/out/file_%d.exr", -3n, "POSIX", "/out/file_-3.exr"],
    ["negative, no pattern", "/out/render.exr", -7n, "POSIX", "/out/render_-007.exr"],
    ["negative wider than the run", "/out/file_9.exr", -12n, "POSIX", "/out/file_-12.exr"],
    ["int64 minimum", "f_####", -9223372036854775808n, "POSIX", "f_-9223372036854775808"],
    ["printf %Nd pads with spaces", "/out/file_%4d.exr", 72n, "POSIX", "/out/file_  72.exr"],
    ["printf %0d", "/out/file_%0d.exr", 7n, "POSIX", "/out/file_7.exr"],
    ["earlier digits stay", "/r/shot01_003.exr", 72n, "POSIX", "/r/shot01_072.exr"],
    ["last hash run wins", "/r/##_shot_####.exr", 72n, "POSIX", "/r/##_shot_0072.exr"],
    ["last printf wins", "/r/%02d_shot_%04d.exr", 72n, "POSIX", "/r/%02d_shot_0072.exr"],
    ["hash after printf wins", "/r/f_%d_abc_###.exr", 42n, "POSIX", "/r/f_%d_abc_042.exr"],
    ["digits after printf win", "/r/file_%04d_003.exr", 72n, "POSIX", "/r/file_%04d_072.exr"],
    ["printf after digits wins", "/r/v2_%03d.exr", 5n, "POSIX", "/r/v2_005.exr"],
    ["last digit run anywhere in the stem", "/r/shot_v2_final.exr", 72n, "POSIX", "/r/shot_v72_final.exr"],
    ["version-like stem", "/r/file.v2.003.exr", 72n, "POSIX", "/r/file.v2.072.exr"],
    ["digits in the suffix are not the stem", "/r/file_0001.001", 72n, "POSIX", "/r/file_0072.001"],
    ["suffix-only digits append", "/r/file.001", 72n, "POSIX", "/r/file_0072.001"],
    ["hidden file", "/r/.hidden", 72n, "POSIX", "/r/.hidden_0072"],
    ["relative stays relative", "shot_####.exr", 42n, "POSIX", "shot_0042.exr"],
    ["root keeps one slash", "/shot_####.exr", 42n, "POSIX", "/shot_0042.exr"],
    ["string overload", "shot_%03d.png", 42n, "POSIX", "shot_042.png"],
    ["WINDOWS drive path", "C:\\r\\f_####.exr", 5n, "WINDOWS", "C:\\r\\f_0005.exr"],
    ["WINDOWS normalises", "renders/f_01.exr", 5n, "WINDOWS", "renders\\f_05.exr"],
    ["URI keeps its slashes on WINDOWS", "s3://bucket/renders/shot_####.exr", 42n, "WINDOWS", "s3://bucket/renders/shot_0042.exr"],
    ["URI is not normalised", "s3://b/a//f_1.exr", 7n, "POSIX", "s3://b/a//f_7.exr"],
  ])("%s: %j with %d", (_label, path, n, format, expected) => {
    expect(withNumber(path, n, format)).toBe(expected);
  });

  it.each<[string, string, PathFormat, string]>([
    ["printf width over 32", "/out/file_%099d.exr", "POSIX", "with_number: padding width 99 exceeds maximum of 32"],
    ["printf width 33", "/out/file_%033d.exr", "POSIX", "with_number: padding width 33 exceeds maximum of 32"],
    ["hash width over 32", `/out/file_${"#".repeat(33)}.exr`, "POSIX", "with_number: padding width 33 exceeds maximum of 32"],
    ["huge printf width", `f_%0${"9".repeat(40)}d`, "POSIX", `with_number: padding width ${"9".repeat(20)}… exceeds maximum of 32`],
    ["POSIX root", "/", "POSIX", "with_number: '/' has an empty name"],
    ["WINDOWS root", "C:\\", "WINDOWS", "with_number: 'C:\\' has an empty name"],
    ["bare URI", "s3://bucket", "POSIX", "with_number: 's3://bucket' has an empty name"],
  ])("%s is an error", (_label, path, format, message) => {
    expect(() => withNumber(path, 1n, format)).toThrow(new PathError(message));
  });
});
