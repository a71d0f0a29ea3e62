/**
 * A small seeded PRNG (mulberry32) so that every mutated template can be regenerated from its
 * seed: a failure found in a 12,000-case run is reproduced with `--seed S --cases N`.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(items.length)] as T;
  }

  /** A derived generator, so one case's choices do not shift every later case. */
  fork(salt: number): Random {
    return new Random(Math.imul(this.state ^ salt, 0x9e3779b1) ^ (salt >>> 3));
  }
}

/** Seed of case `index` in a run started with `seed`: cases can be replayed one by one. */
export function caseSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 31) + Math.imul(index + 1, 0x27d4eb2d)) >>> 0;
}
