/** Wake-ups of live views: collapsed events, filters, timeouts, abort. */
import { describe, expect, it } from "vitest";
import { FarmEventBus } from "../store/events";
import { wakeups } from "./wakeups";

const settled = <T>(promise: Promise<T>, ms = 30) => Promise.race([promise, new Promise<"pending">((resolve) => setTimeout(() => resolve("pending"), ms))]);

describe("wakeups", () => {
  it("wakes on any of its events, once for a burst, only for accepted ones", async () => {
    const events = new FarmEventBus();
    const w = wakeups(events, ["workers", "jobs"], undefined, (jobs) => !jobs?.includes("ignored"));
    const first = w.next();
    events.publish(null, "pools");
    events.publish(null, "jobs", ["ignored"]);
    expect(await settled(first)).toBe("pending");
    events.publish(null, "workers");
    events.publish(null, "jobs", ["job-1"]);
    expect(await settled(first)).toBe(true);
    expect(w.pending).toBe(true);
    expect(await settled(w.next())).toBe(true); // still pending: no clear() yet
    w.clear();
    expect(w.pending).toBe(false);
    expect(await settled(w.next())).toBe("pending");
    w.close();
    expect(events.listenerCount("workers") + events.listenerCount("jobs")).toBe(0);
  });

  it("resolves after its timeout without an event, and false once the view closed", async () => {
    const events = new FarmEventBus();
    const controller = new AbortController();
    const w = wakeups(events, ["workers"], controller.signal);
    expect(await settled(w.next(5), 200)).toBe(true);
    expect(w.pending).toBe(false);
    const waiting = w.next();
    controller.abort();
    expect(await settled(waiting)).toBe(false);
    expect(await w.next()).toBe(false);
    w.close();
  });
});
