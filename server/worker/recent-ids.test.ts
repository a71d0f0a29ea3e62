import { describe, expect, it } from "vitest";
import { RecentIds } from "./recent-ids";

describe("RecentIds", () => {
  it("remembers the last `capacity` ids and forgets the oldest first", () => {
    const ids = new RecentIds(2);
    ids.add("a");
    ids.add("b");
    ids.add("a"); // already known: still the oldest
    ids.add("c");
    expect(["a", "b", "c"].map((id) => ids.has(id))).toEqual([false, true, true]);
  });
});
