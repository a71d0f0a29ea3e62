/**
 * Float text as Python's repr() writes it (shortest round-trip digits; fixed notation for
 * exponents -4..15 with at least one fractional digit, else `1e+16`, `1.5e-07`), which is what
 * OpenJD expressions print after arithmetic. JavaScript's own String() differs (`1`, `1e21`).
 */
export function formatFloat(value: number): string {
  if (value === 0) return "0.0";
  const [mantissa, exponentText] = Math.abs(value).toExponential().split("e") as [string, string];
  const digits = mantissa.replace(".", "");
  const exponent = Number(exponentText);
  const sign = value < 0 ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
      const fraction = digits.slice(exponent + 1);
      return `${sign}${whole}.${fraction === "" ? "0" : fraction}`;
    }
    return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  }
  const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const exp = Math.abs(exponent).toString().padStart(2, "0");
  return `${sign}${head}e${exponent < 0 ? "-" : "+"}${exp}`;
}
