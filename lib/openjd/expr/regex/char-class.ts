/**
 * Membership test for a character class, built once at compile time. ASCII answers come from a
 * table; other code points are tested against the items directly.
 *
 * Under `(?i)` a code point is in the class when it, its one-to-one lower/upper case mapping or
 * its case-fold representative lies in a range, or when its representative equals that of a
 * single-character member (so `[ς]` matches `Σ` and `σ`, `[a-z]` matches the Kelvin sign). A
 * negated class is negated after folding, as in both engines: `(?i)[^a]` rejects `A`.
 */
import type { ClassItem, PerlClass } from "./ast";
import { caseCanon, isDigit, isSpace, isWord, toLower, toUpper } from "./unicode";

export type CodePointTest = (cp: number) => boolean;

const PERL: Readonly<Record<PerlClass, CodePointTest>> = { d: isDigit, w: isWord, s: isSpace };

export function classTest(items: readonly ClassItem[], negated: boolean, fold: boolean): CodePointTest {
  const ranges: Array<[number, number]> = [];
  const perls = new Map<string, { test: CodePointTest; negated: boolean }>();
  for (const item of items) {
    if (item.kind === "range") ranges.push([item.lo, item.hi]);
    else perls.set(`${item.which}${item.negated}`, { test: PERL[item.which], negated: item.negated });
  }
  const singles = new Set(fold ? ranges.filter(([lo, hi]) => lo === hi).map(([lo]) => caseCanon(lo)) : []);
  const inRanges = rangeTest(ranges);
  const perlList = [...perls.values()];

  const slow = (cp: number): boolean => {
    let hit = inRanges(cp) || perlList.some((p) => p.test(cp) !== p.negated);
    if (!hit && fold) {
      const canon = caseCanon(cp);
      hit = singles.has(canon) || inRanges(toLower(cp)) || inRanges(toUpper(cp)) || inRanges(canon);
    }
    return hit !== negated;
  };

  const ascii = new Uint8Array(128);
  for (let cp = 0; cp < 128; cp++) ascii[cp] = slow(cp) ? 1 : 0;
  return (cp) => (cp < 128 ? ascii[cp] === 1 : slow(cp));
}

/** Sorts and merges the ranges, then answers membership by binary search. */
function rangeTest(ranges: Array<[number, number]>): CodePointTest {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const los: number[] = [];
  const his: number[] = [];
  for (const [lo, hi] of sorted) {
    const last = his.length - 1;
    if (last >= 0 && lo <= (his[last] as number) + 1) his[last] = Math.max(his[last] as number, hi);
    else {
      los.push(lo);
      his.push(hi);
    }
  }
  return (cp) => {
    let low = 0;
    let high = los.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (cp < (los[mid] as number)) high = mid - 1;
      else if (cp > (his[mid] as number)) low = mid + 1;
      else return true;
    }
    return false;
  };
}
