import { describe, expect, it } from "vitest";
import type { SpinSettings } from "./parameter-form";
import { stepSpin } from "./spin-step";

const int = (step = "1", min: string | null = null, max: string | null = null): SpinSettings => ({ integer: true, step, decimals: 0, min, max });
const float = (decimals: number | null, step: string | null, min: string | null = null, max: string | null = null): SpinSettings => ({ integer: false, step, decimals, min, max });

describe("stepSpin", () => {
  it.each<[string, SpinSettings, string, 1 | -1, string]>([
    ["INT up by 1", int(), "42", 1, "43"],
    ["INT down by singleStepDelta", int("30"), "123", -1, "93"],
    ["INT exact beyond 2^53", int(), "9007199254740993", 1, "9007199254740994"],
    ["INT clamps to max", int("30", "-100", "100"), "90", 1, "100"],
    ["INT clamps to min", int("30", "-100", "100"), "-90", -1, "-100"],
    ["INT from garbage starts at 0", int(), "", 1, "1"],
    ["FLOAT decimals: one unit of the last decimal", float(1, "0.1"), "100000.01", 1, "100000.1"],
    ["FLOAT decimals with singleStepDelta", float(2, "0.25"), "1", -1, "0.75"],
    ["FLOAT adaptive: an order of magnitude below", float(null, null), "1234.56789", 1, "1334.56789"],
    ["FLOAT adaptive from 0", float(null, null), "0", 1, "0.1"],
    ["FLOAT adaptive fraction of the value", float(null, "0.5"), "8", 1, "12"],
    ["FLOAT fraction from 0 is the delta itself", float(null, "0.875"), "0.0", 1, "0.875"],
    ["FLOAT no binary noise", float(null, "1"), "0.1", 1, "0.2"],
    ["FLOAT clamps to max", float(null, null, null, "1.5"), "1.45", 1, "1.5"],
  ])("%s", (_case, spin, text, direction, expected) => {
    expect(stepSpin(spin, text, direction)).toBe(expected);
  });
});
