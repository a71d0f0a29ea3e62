/**
 * One step of a SPIN_BOX (spec §2.3/§2.4 `singleStepDelta`, `decimals`): INT steps by
 * singleStepDelta (1 by default) in exact integers; FLOAT with `decimals` steps by
 * singleStepDelta (or one unit of the last decimal) and rounds to that many decimals; FLOAT
 * without `decimals` is adaptive: singleStepDelta is a fraction of the current value, and without
 * it the step is one order of magnitude below the value (Qt's adaptive decimal step).
 * The result stays within minValue/maxValue.
 */
import { parseFloatText, parseIntText } from "../numbers";
import type { SpinSettings } from "./parameter-form";

export function stepSpin(spin: SpinSettings, text: string, direction: 1 | -1): string {
  return spin.integer ? stepInt(spin, text, direction) : stepFloat(spin, text, direction);
}

function stepInt(spin: SpinSettings, text: string, direction: 1 | -1): string {
  const parsed = parseIntText(text);
  const current = parsed.ok ? parsed.value : 0n;
  let next = current + BigInt(direction) * BigInt(spin.step ?? "1");
  if (spin.min !== null && next < BigInt(spin.min)) next = BigInt(spin.min);
  if (spin.max !== null && next > BigInt(spin.max)) next = BigInt(spin.max);
  return next.toString();
}

function stepFloat(spin: SpinSettings, text: string, direction: 1 | -1): string {
  const parsed = parseFloatText(text);
  const current = parsed.ok ? parsed.value.value : 0;
  let step: number;
  if (spin.decimals !== null) step = Number(spin.step ?? 10 ** -spin.decimals);
  else if (spin.step !== null) step = current === 0 ? Number(spin.step) : Math.abs(current) * Number(spin.step);
  else step = current === 0 ? 0.1 : 10 ** (Math.floor(Math.log10(Math.abs(current))) - 1);
  let next = current + direction * step;
  if (spin.min !== null && next < Number(spin.min)) next = Number(spin.min);
  if (spin.max !== null && next > Number(spin.max)) next = Number(spin.max);
  if (spin.decimals !== null) return next.toFixed(spin.decimals);
  // 12 significant digits hide binary noise (0.1 + 0.2) without losing what a person typed.
  return String(Number(next.toPrecision(12)));
}
