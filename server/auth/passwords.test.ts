/**
 * Password hashing: scrypt with a per-password salt, a stored format that carries its cost,
 * Unicode forms compared as one, and an unknown account's check spending a hash like a known
 * one (counted as scrypt computations started, not timed).
 */
import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./passwords";

async function scrypts(work: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "SCRYPTREQUEST") n++;
    },
  }).enable();
  try {
    await work();
  } finally {
    hook.disable();
  }
  return n;
}

describe("passwords", () => {
  it("hash to scrypt$N$r$p$salt$key, salted: the same password twice gives two hashes", async () => {
    const [a, b] = await Promise.all([hashPassword("correct horse battery"), hashPassword("correct horse battery")]);
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("correct horse battery");
  });

  it("verify the right password, and refuse a wrong one", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("correct horse batterY", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("compare Unicode forms as one (é typed composed or decomposed)", async () => {
    const stored = await hashPassword("caf\u00e9 au lait, s'il vous plaît");
    expect(await verifyPassword("cafe\u0301 au lait, s'il vous plaît", stored)).toBe(true);
  });

  it("spend one hash for an unknown account, as for a known one", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(await scrypts(() => verifyPassword("a guess", stored))).toBe(1);
    expect(await scrypts(() => verifyPassword("a guess", null))).toBe(1);
    expect(await verifyPassword("a guess", null)).toBe(false);
  });

  it("refuse malformed or absurd stored hashes without computing", async () => {
    for (const stored of ["", "scrypt$invalid", "bcrypt$1$2$3$4$5", "scrypt$0$8$1$AAAA$AAAA", `scrypt$${2 ** 21}$8$1$AAAA$AAAA`]) {
      expect(await verifyPassword("x", stored), stored).toBe(false);
    }
  });
});
