import { describe, expect, it } from "vitest";
import { MAX_WORKER_BODY_BYTES } from "../../lib/farm/protocol";
import { countWithin } from "./body-budget";

describe("countWithin", () => {
  it("counts what fits in the byte budget as JSON, escapes and multi-byte characters included", () => {
    const updates = Array.from({ length: 2_000 }, (_, i) => ({ actionId: `a${i}`, status: "FAILED", failMessage: "\u001b界".repeat(5_000) }));
    const count = countWithin(updates, 10_000, MAX_WORKER_BODY_BYTES);
    expect(count).toBeGreaterThan(100);
    expect(count).toBeLessThan(2_000);
    expect(Buffer.byteLength(JSON.stringify({ updates: updates.slice(0, count) }))).toBeLessThan(MAX_WORKER_BODY_BYTES);
    expect(Buffer.byteLength(JSON.stringify({ updates: updates.slice(0, count + 1) }))).toBeGreaterThan(MAX_WORKER_BODY_BYTES);
  });

  it("stops at the count limit, starts where asked, and always lets one item through", () => {
    const items = ["a", "b", "c", "d"];
    expect(countWithin(items, 2, 1_000)).toBe(2);
    expect(countWithin(items, 10, 1_000, 3)).toBe(1);
    expect(countWithin(["x".repeat(100)], 10, 5)).toBe(1);
    expect(countWithin([], 10, 5)).toBe(0);
  });
});
