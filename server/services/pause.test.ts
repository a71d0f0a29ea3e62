/** The abortable delay: ends after its time, or early when its signal aborts. */
import { describe, expect, it } from "vitest";
import { pause } from "./pause";

const settled = <T>(promise: Promise<T>, ms = 30) => Promise.race([promise, new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms))]);

describe("pause", () => {
  it("ends early when its signal aborts", async () => {
    const controller = new AbortController();
    const paused = pause(60_000, controller.signal);
    expect(await settled(paused)).toBe("pending");
    controller.abort();
    expect(await settled(paused)).toBeUndefined();
    expect(await settled(pause(5, undefined), 200)).toBeUndefined();
  });
});
