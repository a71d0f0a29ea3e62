/** The hint under a parameter: its constraints in words, and for a spin box how a step moves it. */
import type { FormField } from "@/lib/openjd";

export function fieldHint(field: FormField): string | null {
  const parts = [field.hint];
  if (field.spin && field.control === "SPIN_BOX") {
    if (field.spin.integer) parts.push(field.spin.step !== "1" ? `steps of ${field.spin.step}` : null);
    else if (field.spin.decimals !== null) parts.push(`${field.spin.decimals} decimal${field.spin.decimals === 1 ? "" : "s"}, steps of ${field.spin.step}`);
    else if (field.spin.step !== null) parts.push(`each step changes the value by ${Number(field.spin.step) * 100}%`);
  }
  const text = parts.filter(Boolean).join("; ");
  return text === "" ? null : text.charAt(0).toUpperCase() + text.slice(1);
}
