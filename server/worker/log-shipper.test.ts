import { describe, expect, it } from "vitest";
import { MAX_WORKER_BODY_BYTES } from "../../lib/farm/protocol";
import { LogShipper } from "./log-shipper";

const line = (seq: number, text = `line ${seq}`) => ({ seq, actionId: "a1", time: 1_700_000_000_000 + seq, line: text });

function filled(count: number, sessionId = "s1", shipper = new LogShipper()): LogShipper {
  for (let seq = 0; seq < count; seq++) shipper.add(sessionId, line(seq));
  return shipper;
}

describe("LogShipper", () => {
  it("hands out the oldest lines, the same ones again until they are acknowledged", () => {
    const shipper = filled(5);
    expect(shipper.takeBatch("s1", 2).map((l) => l.seq)).toEqual([0, 1]);
    expect(shipper.takeBatch("s1", 2).map((l) => l.seq)).toEqual([0, 1]);
    shipper.acknowledge("s1", 1);
    expect(shipper.takeBatch("s1", 10).map((l) => l.seq)).toEqual([2, 3, 4]);
    expect(shipper.pending).toBe(3);
  });

  it.each([
    ["nothing stored", -1, 5],
    ["a prefix", 2, 2],
    ["everything", 4, 0],
    ["beyond what it holds", 99, 0],
  ])("acknowledging %s leaves the rest", (_what, through, left) => {
    const shipper = filled(5);
    shipper.acknowledge("s1", through);
    expect(shipper.pending).toBe(left);
    expect(shipper.sessionIds()).toEqual(left > 0 ? ["s1"] : []);
  });

  it("keeps Sessions apart and lists those with lines, oldest first", () => {
    const shipper = filled(3, "s1");
    filled(2, "s2", shipper);
    shipper.acknowledge("s2", 0);
    expect(shipper.sessionIds()).toEqual(["s1", "s2"]);
    expect(shipper.takeBatch("s2", 10).map((l) => l.seq)).toEqual([1]);
    expect(shipper.takeBatch("nope", 10)).toEqual([]);
    shipper.acknowledge("nope", 10);
    expect(shipper.pending).toBe(4);
  });

  it("never drops a line under the caps: past the high-water mark it is only backed up", () => {
    const shipper = filled(11, "s1", new LogShipper(10));
    expect(shipper.isBackedUp()).toBe(true);
    expect(shipper.pending).toBe(11);
    shipper.acknowledge("s1", 0);
    expect(shipper.isBackedUp()).toBe(false);
  });

  it("stays correct over many acknowledgements (compaction)", () => {
    const shipper = filled(10_000);
    for (let through = 99; through < 10_000; through += 100) {
      shipper.acknowledge("s1", through);
      expect(shipper.takeBatch("s1", 1)[0]?.seq ?? null).toBe(through + 1 < 10_000 ? through + 1 : null);
      expect(shipper.pending).toBe(10_000 - through - 1);
    }
  });

  it("cuts a line to the protocol's 70,000 characters and forgets everything on clear", () => {
    const shipper = new LogShipper();
    shipper.add("s1", line(0, "x".repeat(80_000)));
    expect(shipper.takeBatch("s1", 1)[0]?.line).toHaveLength(70_000);
    shipper.clear();
    expect(shipper.pending).toBe(0);
    expect(shipper.sessionIds()).toEqual([]);
  });

  it("past an action's cap only counts its lines, and says how many when the action ends", () => {
    const shipper = new LogShipper();
    shipper.setLimits({ actionChars: 10_000, sessionChars: 1_000_000 });
    for (let i = 0; i < 200; i++) shipper.add("s1", { seq: i, actionId: "a1", time: i, line: "x".repeat(100) });
    shipper.add("s1", { seq: 200, actionId: "a2", time: 200, line: "next action" });
    // 1,000 characters of the cap are kept for the marker.
    expect(shipper.pending).toBe(91);
    shipper.actionEnded("a1");
    const lines = shipper.takeBatch("s1", 1_000);
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i));
    expect(lines.at(-2)).toMatchObject({ actionId: "a2", line: "next action" });
    expect(lines.at(-1)).toEqual({ seq: 91, actionId: "a1", time: 199, line: "… 110 lines (11000 characters) dropped: over the log cap of 0.01 MiB per action" });
    expect(lines.filter((l) => l.actionId === "a1").reduce((n, l) => n + l.line.length, 0)).toBeLessThanOrEqual(10_000);
    shipper.actionEnded("a2");
    expect(shipper.pending).toBe(92);
  });

  it("past the Session's cap drops every action's lines, with a marker for each while the Session's room lasts", () => {
    const shipper = new LogShipper();
    shipper.setLimits({ actionChars: 1_000_000, sessionChars: 20_000 });
    for (let action = 1; action <= 30; action++) {
      for (let i = 0; i < 10; i++) shipper.add("s1", { seq: 0, actionId: `a${action}`, time: i, line: "y".repeat(100) });
      shipper.actionEnded(`a${action}`);
    }
    shipper.add("s1", { seq: 0, actionId: null, time: 0, line: "a worker note after the cap" });
    const lines = shipper.takeBatch("s1", 10_000);
    const markers = lines.filter((l) => l.line.startsWith("…"));
    expect(markers[0]).toMatchObject({ actionId: "a20", line: "… 10 lines (1000 characters) dropped: over the log cap of 0.019 MiB per Session" });
    expect(markers.length).toBeGreaterThan(1);
    expect(markers.length).toBeLessThan(12);
    expect(lines.reduce((n, l) => n + l.line.length, 0)).toBeLessThanOrEqual(20_000);
    expect(lines.some((l) => l.line.includes("worker note"))).toBe(false);
  });

  it("batches lines under the request body limit, however long and however escaped", () => {
    const shipper = new LogShipper();
    // Each escape character is six bytes of JSON: 70,000 of them are 420 kB a line.
    for (let seq = 0; seq < 50; seq++) shipper.add("s1", line(seq, "\u001b".repeat(70_000)));
    const batch = shipper.takeBatch("s1", 2_000, MAX_WORKER_BODY_BYTES);
    expect(batch.length).toBeGreaterThan(1);
    expect(batch.length).toBeLessThan(50);
    expect(Buffer.byteLength(JSON.stringify(batch))).toBeLessThan(MAX_WORKER_BODY_BYTES);
    // One line always goes, even alone over the budget.
    expect(shipper.takeBatch("s1", 2_000, 10)).toHaveLength(1);
  });

  it("forgets an ended Session's counts once everything of it is acknowledged", () => {
    const shipper = filled(3);
    shipper.retain([]);
    expect(shipper.pending).toBe(3);
    shipper.acknowledge("s1", 2);
    shipper.retain(["s1"]);
    shipper.add("s1", line(9));
    expect(shipper.takeBatch("s1", 10).map((l) => l.seq)).toEqual([3]);
    shipper.acknowledge("s1", 3);
    shipper.retain([]);
    expect(shipper.sessionIds()).toEqual([]);
  });
});
