/**
 * The log pump's timing, on a fake clock: a line after a quiet spell is uploaded at once, lines
 * printed sooner wait for the last upload's window and go together, never more than one upload
 * per window, one upload at a time, none while the agent's cycle holds the log.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LOG_UPLOAD_MS, LogPump } from "./log-pump";

interface Harness {
  pump: LogPump;
  /** When each upload started (fake ms since the test began), and the lines it carried. */
  uploads: Array<{ at: number; lines: string[] }>;
  print(line: string): void;
  /** Ends the upload in flight. */
  finishUpload(): Promise<void>;
}

function harness(): Harness {
  const began = Date.now();
  const waiting: string[] = [];
  const uploads: Harness["uploads"] = [];
  let finish: (() => void) | null = null;
  const pump = new LogPump(
    () => {
      uploads.push({ at: Date.now() - began, lines: waiting.splice(0) });
      return new Promise<void>((resolve) => (finish = resolve));
    },
    () => waiting.length > 0,
  );
  return {
    pump,
    uploads,
    print(line) {
      waiting.push(line);
      pump.lineAdded();
    },
    async finishUpload() {
      finish?.();
      finish = null;
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe("LogPump", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("uploads a line printed after a quiet spell at once, with the lines printed in the same turn", async () => {
    const { print, uploads } = harness();
    print("a");
    print("b");
    await vi.advanceTimersByTimeAsync(0);
    expect(uploads).toEqual([{ at: 0, lines: ["a", "b"] }]);
  });

  it("holds lines printed within the window of the last upload until it ends, then sends them together", async () => {
    const { print, uploads, finishUpload } = harness();
    print("first");
    await vi.advanceTimersByTimeAsync(0);
    await finishUpload();
    await vi.advanceTimersByTimeAsync(100);
    print("second");
    await vi.advanceTimersByTimeAsync(200);
    print("third");
    await vi.advanceTimersByTimeAsync(LOG_UPLOAD_MS - 300 - 1);
    expect(uploads.map((upload) => upload.lines)).toEqual([["first"]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(uploads).toEqual([
      { at: 0, lines: ["first"] },
      { at: LOG_UPLOAD_MS, lines: ["second", "third"] },
    ]);
  });

  it("starts at most one upload per window however fast a task prints, and one at a time", async () => {
    const { print, uploads, finishUpload } = harness();
    for (let ms = 0; ms < 3_000; ms += 10) {
      print(`line at ${ms}`);
      await vi.advanceTimersByTimeAsync(10);
      // Each upload takes 30 ms; a new one never starts while one is in flight.
      if (uploads.length > 0 && ms % 30 === 0) await finishUpload();
    }
    const starts = uploads.map((upload) => upload.at);
    expect(starts.length).toBeGreaterThanOrEqual(3_000 / LOG_UPLOAD_MS - 1);
    for (let i = 1; i < starts.length; i += 1) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(LOG_UPLOAD_MS);
    // Every line went, in order, exactly once (the last ones may still wait for their window).
    const sent = uploads.flatMap((upload) => upload.lines);
    expect(sent).toEqual(Array.from({ length: sent.length }, (_, i) => `line at ${i * 10}`));
  });

  it("after an upload that left lines waiting, sends them when its window ends", async () => {
    const { print, uploads, finishUpload } = harness();
    print("a");
    await vi.advanceTimersByTimeAsync(0);
    print("b"); // while "a" is in flight
    await vi.advanceTimersByTimeAsync(LOG_UPLOAD_MS * 2);
    expect(uploads).toHaveLength(1);
    await finishUpload();
    await vi.advanceTimersByTimeAsync(0);
    expect(uploads.map((upload) => upload.lines)).toEqual([["a"], ["b"]]);
  });

  it("uploads nothing while the agent's cycle holds the log, and what was printed meanwhile once it lets go", async () => {
    const { pump, print, uploads } = harness();
    let release!: () => void;
    const holding = pump.hold(() => new Promise<void>((resolve) => (release = resolve)));
    await vi.advanceTimersByTimeAsync(0);
    print("a");
    await vi.advanceTimersByTimeAsync(LOG_UPLOAD_MS * 2);
    expect(uploads).toEqual([]);
    release();
    await holding;
    await vi.advanceTimersByTimeAsync(0);
    expect(uploads.map((upload) => upload.lines)).toEqual([["a"]]);
  });
});
