import { describe, expect, it, vi } from "vitest";
import { afterMs, Batcher, LineStore, type LogLine } from "./line-store";

const lines = (from: number, count: number): LogLine[] => Array.from({ length: count }, (_, i) => ({ id: from + i, actionId: null, time: 0, line: `l${from + i}` }));

describe("LineStore", () => {
  it.each([
    ["one batch", [[1, 3]], 3, 3],
    [
      "across chunk boundaries",
      [
        [1, 5000],
        [5001, 5000],
      ],
      10_000,
      10_000,
    ],
    [
      "a resumed stream repeating lines",
      [
        [1, 10],
        [6, 10],
      ],
      15,
      15,
    ],
    [
      "an old batch after a newer one",
      [
        [11, 5],
        [1, 5],
      ],
      5,
      15,
    ],
  ] as const)("%s", (_name, batches, length, lastId) => {
    const store = new LineStore();
    for (const [from, count] of batches) store.append(lines(from, count));
    expect(store.length).toBe(length);
    expect(store.lastId).toBe(lastId);
    expect(store.at(length - 1)?.id).toBe(lastId);
  });

  it("reads every line back in order by index, and nothing out of range", () => {
    const store = new LineStore();
    store.append(lines(1, 9000));
    const ids = Array.from({ length: store.length }, (_, i) => store.at(i)?.id);
    expect(ids).toEqual(lines(1, 9000).map((l) => l.id));
    expect([store.at(-1), store.at(9000)]).toEqual([undefined, undefined]);
  });
});

describe("Batcher", () => {
  /** A scheduler run by hand: `tick()` fires what was scheduled. */
  function manual() {
    let queued: Array<() => void> = [];
    return {
      schedule: (cb: () => void) => {
        queued.push(cb);
        return () => (queued = queued.filter((q) => q !== cb));
      },
      tick: () => {
        const now = queued;
        queued = [];
        for (const cb of now) cb();
      },
      get scheduled() {
        return queued.length;
      },
    };
  }

  it("flushes everything pushed between two ticks at once, scheduling one tick per burst", () => {
    const clock = manual();
    const flushed: number[][] = [];
    const batcher = new Batcher<number>((items) => flushed.push(items), clock.schedule);
    for (let i = 0; i < 1000; i++) batcher.push(i);
    expect(clock.scheduled).toBe(1);
    clock.tick();
    batcher.push(1000);
    clock.tick();
    clock.tick();
    expect(flushed.map((f) => f.length)).toEqual([1000, 1]);
    expect(flushed.flat()).toEqual(Array.from({ length: 1001 }, (_, i) => i));
  });

  it("after a delay: a burst is flushed once, the delay after its first item", () => {
    vi.useFakeTimers();
    try {
      const flushed: number[][] = [];
      const batcher = new Batcher<number>((items) => flushed.push(items), afterMs(1000));
      batcher.push(1);
      vi.advanceTimersByTime(600);
      batcher.push(2);
      vi.advanceTimersByTime(399);
      expect(flushed).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(flushed).toEqual([[1, 2]]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops what is pending when disposed", () => {
    const clock = manual();
    const flushed: number[][] = [];
    const batcher = new Batcher<number>((items) => flushed.push(items), clock.schedule);
    batcher.push(1);
    batcher.dispose();
    clock.tick();
    expect(flushed).toEqual([]);
    expect(clock.scheduled).toBe(0);
  });
});
