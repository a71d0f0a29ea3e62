/** The agent's sleep: interval, wake, wakeWithin, abort, and wakes that come while it is awake. */
import { describe, expect, it } from "vitest";
import { Alarm } from "./alarm";

async function timed(promise: Promise<void>): Promise<number> {
  const started = performance.now();
  await promise;
  return performance.now() - started;
}

describe("Alarm", () => {
  it("sleeps the interval when nothing happens", async () => {
    expect(await timed(new Alarm().sleep(120, new AbortController().signal))).toBeGreaterThanOrEqual(110);
  });

  it("wakes at once on wake(), and keeps a wake that comes while awake for the next sleep", async () => {
    const alarm = new Alarm();
    const sleeping = alarm.sleep(10_000, new AbortController().signal);
    alarm.wake();
    expect(await timed(sleeping)).toBeLessThan(1_000);
    alarm.wake();
    expect(await timed(alarm.sleep(10_000, new AbortController().signal))).toBeLessThan(50);
    // Used up: the sleep after that is a whole one again.
    expect(await timed(alarm.sleep(100, new AbortController().signal))).toBeGreaterThanOrEqual(90);
  });

  it("wakeWithin shortens the current sleep to the window, and the earliest of several windows wins", async () => {
    const alarm = new Alarm();
    const sleeping = alarm.sleep(10_000, new AbortController().signal);
    alarm.wakeWithin(5_000);
    alarm.wakeWithin(100);
    alarm.wakeWithin(3_000);
    const took = await timed(sleeping);
    expect(took).toBeGreaterThanOrEqual(90);
    expect(took).toBeLessThan(1_000);
  });

  it("a window asked for while awake ends the next sleep at the window's end, counted from when it was asked", async () => {
    const alarm = new Alarm();
    alarm.wakeWithin(150);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const took = await timed(alarm.sleep(10_000, new AbortController().signal));
    expect(took).toBeLessThan(120);
    // The window is used up by the sleep it ended.
    expect(await timed(alarm.sleep(100, new AbortController().signal))).toBeGreaterThanOrEqual(90);
  });

  it("never lengthens a sleep shorter than the window", async () => {
    const alarm = new Alarm();
    const sleeping = alarm.sleep(80, new AbortController().signal);
    alarm.wakeWithin(5_000);
    expect(await timed(sleeping)).toBeLessThan(1_000);
  });

  it("a backoff (not wakeable) ignores wakes and windows, and keeps them for the sleep after it", async () => {
    const alarm = new Alarm();
    const backoff = alarm.sleep(150, new AbortController().signal, { wakeable: false });
    alarm.wake();
    alarm.wakeWithin(10);
    expect(await timed(backoff)).toBeGreaterThanOrEqual(140);
    expect(await timed(alarm.sleep(10_000, new AbortController().signal))).toBeLessThan(50);
  });

  it("ends at once on abort", async () => {
    const controller = new AbortController();
    const sleeping = new Alarm().sleep(10_000, controller.signal);
    controller.abort();
    expect(await timed(sleeping)).toBeLessThan(50);
  });
});
