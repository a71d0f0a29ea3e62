import { describe, expect, it } from "vitest";
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

  it("never drops a line: past the high-water mark it is only backed up", () => {
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
});
