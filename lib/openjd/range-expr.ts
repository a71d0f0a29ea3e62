/**
 * OpenJD integer range expressions (`<IntRangeExpr>`, spec §3.4.1.1.1), e.g. `1-100:10,200`.
 *
 * Values are int64, so everything is bigint. An expression is kept as its list of arithmetic
 * ranges and never expanded: `1-9999999999` is one range, and its size, random access and
 * canonical string all come from arithmetic over the ranges.
 */

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Ascending arithmetic range; `end` is the last value produced, `step` > 0 (1 for one value). */
export interface IntRange {
  start: bigint;
  end: bigint;
  step: bigint;
}

export class RangeExprError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = "RangeExprError";
  }
}

export class IntRangeExpr {
  readonly ranges: readonly IntRange[];
  /** Running value counts: `#ends[i]` = number of values in `ranges[0..i]`, for binary search. */
  readonly #ends: readonly bigint[];

  private constructor(ranges: readonly IntRange[]) {
    this.ranges = ranges;
    let total = 0n;
    this.#ends = ranges.map((range) => (total += rangeCount(range)));
  }

  static parse(text: string): IntRangeExpr {
    return new IntRangeExpr(parseRanges(text));
  }

  static tryParse(text: string): { ok: true; value: IntRangeExpr } | { ok: false; message: string; offset: number } {
    try {
      return { ok: true, value: IntRangeExpr.parse(text) };
    } catch (error) {
      if (error instanceof RangeExprError) return { ok: false, message: error.message, offset: error.offset };
      throw error;
    }
  }

  static fromValues(values: readonly bigint[]): IntRangeExpr {
    const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return new IntRangeExpr(canonicalRuns(singletons(sorted)));
  }

  get size(): bigint {
    return this.#ends.at(-1) ?? 0n;
  }

  /** The value at `index` in ascending order. Accepts a bigint for sizes past 2^53. */
  at(index: number | bigint): bigint {
    if (typeof index === "number" && !Number.isInteger(index)) throw new RangeError(`index ${index} is not an integer`);
    const i = BigInt(index);
    if (i < 0n || i >= this.size) throw new RangeError(`index ${index} is outside 0..${this.size - 1n}`);
    let lo = 0;
    let hi = this.#ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.#ends[mid] ?? 0n) > i) hi = mid;
      else lo = mid + 1;
    }
    const range = this.ranges[lo]!;
    const before = lo === 0 ? 0n : this.#ends[lo - 1]!;
    return range.start + (i - before) * range.step;
  }

  /** Position of `value` in ascending order, or -1n when the expression does not produce it. */
  indexOf(value: bigint): bigint {
    let lo = 0;
    let hi = this.ranges.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const range = this.ranges[mid]!;
      if (value < range.start) hi = mid - 1;
      else if (value > range.end) lo = mid + 1;
      else {
        if ((value - range.start) % range.step !== 0n) return -1n;
        const before = mid === 0 ? 0n : this.#ends[mid - 1]!;
        return before + (value - range.start) / range.step;
      }
    }
    return -1n;
  }

  *values(): IterableIterator<bigint> {
    for (const range of this.ranges) {
      for (let value = range.start; value <= range.end; value += range.step) yield value;
    }
  }

  toString(): string {
    return formatRuns(canonicalRuns(this.ranges));
  }
}

/** Canonical form of an ascending list: `1-5`, `1-9:2`, `7`, and a pair as `7,8`. */
export function compressRangeValues(sortedValues: readonly bigint[]): string {
  for (let i = 1; i < sortedValues.length; i++) {
    if (sortedValues[i]! < sortedValues[i - 1]!) {
      throw new RangeError(`values are not in ascending order at index ${i}`);
    }
  }
  return formatRuns(canonicalRuns(singletons(sortedValues)));
}

function rangeCount(range: IntRange): bigint {
  return (range.end - range.start) / range.step + 1n;
}

function singletons(sortedValues: readonly bigint[]): IntRange[] {
  const ranges: IntRange[] = [];
  for (const value of sortedValues) {
    // Duplicates say nothing new about the set of values, so they are dropped, not rejected.
    if (ranges.at(-1)?.start !== value) ranges.push({ start: value, end: value, step: 1n });
  }
  return ranges;
}

function formatRuns(runs: readonly IntRange[]): string {
  return runs
    .map((run) => {
      if (run.start === run.end) return `${run.start}`;
      return run.step === 1n ? `${run.start}-${run.end}` : `${run.start}-${run.end}:${run.step}`;
    })
    .join(",");
}

interface Position {
  range: number;
  index: bigint;
}

/**
 * Greedy left-to-right split of the value sequence into runs: a run starts wherever the next two
 * gaps are equal and extends while the gap stays the same; otherwise the value stands alone. So a
 * pair never forms a run (`7,8`). The walk jumps over whole ranges whose step matches the run's,
 * which makes it linear in the number of ranges rather than in the number of values.
 */
function canonicalRuns(ranges: readonly IntRange[]): IntRange[] {
  const valueAt = (p: Position): bigint => ranges[p.range]!.start + p.index * ranges[p.range]!.step;
  const next = (p: Position): Position | null => {
    if (valueAt(p) < ranges[p.range]!.end) return { range: p.range, index: p.index + 1n };
    return p.range + 1 < ranges.length ? { range: p.range + 1, index: 0n } : null;
  };
  const runs: IntRange[] = [];
  let position: Position | null = ranges.length > 0 ? { range: 0, index: 0n } : null;
  while (position) {
    const first = valueAt(position);
    const second = next(position);
    const third = second && next(second);
    if (!second || !third || valueAt(second) - first !== valueAt(third) - valueAt(second)) {
      runs.push({ start: first, end: first, step: 1n });
      position = second;
      continue;
    }
    const step = valueAt(second) - first;
    let last = third;
    for (;;) {
      const range = ranges[last.range]!;
      if (range.step === step) last = { range: last.range, index: rangeCount(range) - 1n };
      const after = next(last);
      if (!after || valueAt(after) - valueAt(last) !== step) break;
      last = after;
    }
    runs.push({ start: first, end: valueAt(last), step });
    position = next(last);
  }
  return runs;
}

interface WrittenItem {
  text: string;
  offset: number;
  /** The written interval; overlap is judged on it, not on the values produced (spec example `1-10:4,10-15`). */
  low: bigint;
  high: bigint;
  range: IntRange;
}

function parseRanges(text: string): IntRange[] {
  if (/^[ \t]*$/.test(text)) throw new RangeExprError("empty range expression; write e.g. 1-10 or 1,3,5", 0);
  const items = new ItemParser(text).items();
  const byLow = [...items].sort((a, b) => (a.low < b.low ? -1 : a.low > b.low ? 1 : 0));
  for (let i = 1; i < byLow.length; i++) {
    const previous = byLow[i - 1]!;
    const current = byLow[i]!;
    if (current.low > previous.high) continue;
    const [earlier, later] = previous.offset < current.offset ? [previous, current] : [current, previous];
    const where = `(at offsets ${earlier.offset} and ${later.offset})`;
    if (earlier.low === earlier.high && later.low === later.high) {
      throw new RangeExprError(`value ${earlier.low} is listed twice ${where}`, later.offset);
    }
    throw new RangeExprError(`ranges ${earlier.text} and ${later.text} overlap ${where}`, later.offset);
  }
  return byLow.map((item) => item.range);
}

class ItemParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  items(): WrittenItem[] {
    const items: WrittenItem[] = [];
    for (;;) {
      items.push(this.item());
      const ch = this.peek();
      if (ch === undefined) return items;
      if (ch !== ",") this.unexpected(ch);
      this.pos++;
    }
  }

  private item(): WrittenItem {
    this.skipSpace();
    const offset = this.pos;
    if (this.peek() === undefined || this.peek() === ",") {
      throw new RangeExprError(`empty item at offset ${offset}; items are separated by single commas`, offset);
    }
    const first = this.integer("an integer");
    this.skipSpace();
    if (this.peek() !== "-") return this.written(offset, first, first, null);
    this.pos++;
    this.skipSpace();
    const last = this.integer("the end of the range");
    this.skipSpace();
    if (this.peek() !== ":") return this.written(offset, first, last, null);
    this.pos++;
    this.skipSpace();
    const stepOffset = this.pos;
    const step = this.integer("a step");
    if (step === 0n) throw new RangeExprError(`step 0 at offset ${stepOffset}; a step must not be zero`, stepOffset);
    this.skipSpace();
    return this.written(offset, first, last, step);
  }

  private written(offset: number, first: bigint, last: bigint, step: bigint | null): WrittenItem {
    const text = this.text.slice(offset, this.pos).replace(/[ \t]+$/, "");
    const low = first < last ? first : last;
    const high = first < last ? last : first;
    const fail = (problem: string): never => {
      throw new RangeExprError(`range ${text} at offset ${offset} ${problem}`, offset);
    };
    if (first > last && (step === null || step > 0n)) {
      fail("is descending; a descending range needs a negative step, e.g. 10-1:-1");
    }
    if (first < last && step !== null && step < 0n) fail("is ascending but has a negative step; use e.g. 1-10:2");
    const magnitude = step === null ? 1n : step < 0n ? -step : step;
    const count = (high - low) / magnitude + 1n;
    // Store ascending with `end` on the last value produced: 10-1:-3 yields 10,7,4,1 and becomes 1-10:3.
    const span = (count - 1n) * magnitude;
    const range: IntRange =
      count === 1n ? { start: first, end: first, step: 1n } : first <= last ? { start: first, end: first + span, step: magnitude } : { start: first - span, end: first, step: magnitude };
    return { text, offset, low, high, range };
  }

  private integer(what: string): bigint {
    const start = this.pos;
    const negative = this.peek() === "-";
    if (negative) {
      this.pos++;
      this.skipSpace();
    }
    const digitsStart = this.pos;
    while (/[0-9]/.test(this.peek() ?? "")) this.pos++;
    if (this.pos === digitsStart) {
      const ch = this.peek();
      if (ch === undefined) {
        throw new RangeExprError(`expected ${what} at offset ${this.pos} but the expression ended`, this.pos);
      }
      if (ch === "+") {
        throw new RangeExprError(`unexpected '+' at offset ${this.pos}; integers take no '+' sign`, this.pos);
      }
      throw new RangeExprError(`unexpected ${show(ch)} at offset ${this.pos}; expected ${what}`, this.pos);
    }
    const magnitude = BigInt(this.text.slice(digitsStart, this.pos));
    const value = negative ? -magnitude : magnitude;
    if (value < INT64_MIN || value > INT64_MAX) {
      const written = this.text.slice(start, this.pos);
      throw new RangeExprError(`${written} at offset ${start} is outside the 64-bit integer range`, start);
    }
    return value;
  }

  private unexpected(ch: string): never {
    let hint = "";
    if (/[0-9-]/.test(ch)) hint = "; separate items with ','";
    else if (ch === ".") hint = "; range values must be whole numbers";
    else if (/[A-Za-z]/.test(ch)) hint = "; range values must be decimal integers";
    else if (ch === ":") hint = "; a step comes once, after a range, e.g. 1-10:2";
    throw new RangeExprError(`unexpected ${show(ch)} at offset ${this.pos}${hint}`, this.pos);
  }

  private peek(): string | undefined {
    return this.text[this.pos];
  }

  private skipSpace(): void {
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
  }
}

function show(ch: string): string {
  return /^[\x21-\x7e]$/.test(ch) ? `'${ch}'` : JSON.stringify(ch);
}
