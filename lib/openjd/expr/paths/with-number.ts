/**
 * `with_number` (Expression Language §2.3.2 "Frame Number Substitution"): in the stem of the last
 * component (the last dot splits off the suffix, so `render.0001.exr` has the stem
 * `render.0001`), the pattern that ends last wins — a digit run, `%d`, `%0Nd` or a `#` run — and
 * is replaced by the number. Numbers are never truncated (`###` with 10000 → `10000`); with no
 * pattern `_NNNN` is appended to the stem; a printf or hash width over 32 is an error; a negative
 * number keeps its sign inside the padded width (`003` with -1 → `-01`, printf `%04d` → `-001`).
 */
import { type PathFormat, PathError } from "./path-error";
import { pathName, splitSuffix } from "./path-properties";
import { replaceName } from "./with-name";

const MAX_PADDING_WIDTH = 32;
const NO_PATTERN_WIDTH = 4;

interface FramePattern {
  start: number;
  end: number;
  fill: "0" | " ";
  width: number;
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "9";
}

function checkWidth(widthText: string): number {
  const significant = widthText.replace(/^0+/, "");
  if (significant.length > 2 || Number(significant) > MAX_PADDING_WIDTH) {
    const shown = significant.length > 20 ? `${significant.slice(0, 20)}…` : significant;
    throw new PathError(`with_number: padding width ${shown} exceeds maximum of ${MAX_PADDING_WIDTH}`);
  }
  return Number(significant);
}

/**
 * A printf conversion ending at the `d` at `end - 1`: `%d`, `%0Nd` (zero padded) or `%Nd`.
 * Decision: `%Nd` is not in the spec's table but is printf, so it is padded with spaces as printf
 * would ("standard printf sign handling applies") rather than having its width digits replaced.
 */
function printfEndingAt(stem: string, end: number): FramePattern | null {
  let start = end - 1;
  while (isDigit(stem[start - 1])) start--;
  if (stem[start - 1] !== "%") return null;
  const widthText = stem.slice(start, end - 1);
  const fill = widthText.startsWith("0") ? "0" : " ";
  return { start: start - 1, end, fill, width: checkWidth(widthText) };
}

/** Scans from the end once, so the search is linear in the stem. */
function lastFramePattern(stem: string): FramePattern | null {
  for (let i = stem.length - 1; i >= 0; i--) {
    const char = stem[i];
    if (char === "d") {
      const printf = printfEndingAt(stem, i + 1);
      if (printf) return printf;
    } else if (char === "#" || isDigit(char)) {
      const continues = char === "#" ? (c: string | undefined) => c === "#" : isDigit;
      let start = i;
      while (continues(stem[start - 1])) start--;
      const width = i + 1 - start;
      if (char === "#") checkWidth(String(width));
      return { start, end: i + 1, fill: "0", width };
    }
  }
  return null;
}

/** The sign counts toward the width, as C's `printf("%04d", -1)` gives `-001`. */
function padNumber(n: bigint, width: number, fill: "0" | " "): string {
  const sign = n < 0n ? "-" : "";
  const digits = (n < 0n ? -n : n).toString();
  if (fill === " ") return (sign + digits).padStart(width, " ");
  return sign + digits.padStart(width - sign.length, "0");
}

/** The stem with its frame pattern replaced by `n`, or `_NNNN` appended when it has none. */
function renumberStem(stem: string, n: bigint): string {
  const pattern = lastFramePattern(stem);
  if (!pattern) return `${stem}_${padNumber(n, NO_PATTERN_WIDTH, "0")}`;
  return stem.slice(0, pattern.start) + padNumber(n, pattern.width, pattern.fill) + stem.slice(pattern.end);
}

/**
 * Serves both overloads, `with_number(path, int) -> path` and `with_number(string, int) -> string`:
 * the string is read as a path in `format`, so both give the same text (normalised; a URI
 * verbatim). A path with no name (`/`, `C:\`, `s3://b`) is an error, as for `with_name`.
 */
export function withNumber(path: string, n: bigint, format: PathFormat): string {
  const name = pathName(path, format);
  if (name === "") throw new PathError(`with_number: '${path}' has an empty name`);
  const { stem, suffix } = splitSuffix(name);
  return replaceName(path, renumberStem(stem, n) + suffix, format, "with_number");
}
