/**
 * isUniqueViolation on the errors each engine really raises: a name taken, told apart from
 * another unique index (the primary key) and from other errors.
 */
import { describe, expect, it } from "vitest";
import { testStore } from "./engines-test-support";
import { poolsRepository } from "./pools";
import { templatesRepository } from "./templates";
import { isUniqueViolation } from "./unique-violation";
import { usersRepository } from "./users";
import type { AsyncStore, Tx } from "./engine/engine";

/** What the unit threw (each in a unit of its own: on PostgreSQL the error ends the transaction). */
async function thrown(store: AsyncStore, write: (tx: Tx) => Promise<unknown>): Promise<unknown> {
  try {
    await store.transaction(write);
  } catch (error) {
    return error;
  }
  throw new Error("the write went through");
}

describe("isUniqueViolation", () => {
  it("knows a name taken by its index, and not the primary key, a NOT NULL or a missing table", async () => {
    const store = await testStore();
    const pool = (tx: Tx, id: string, name: string) => poolsRepository.insert(tx, id, name, "", `hash-${id}`, 1);
    await store.transaction((tx) => pool(tx, "pool-1", "render"));
    const nameTaken = await thrown(store, (tx) => pool(tx, "pool-2", "render"));
    const idTaken = await thrown(store, (tx) => pool(tx, "pool-1", "comp"));
    const noName = await thrown(store, (tx) => tx.run("INSERT INTO pools (id, token_hash, created_at) VALUES ('pool-3', 'h', 1)"));
    const noTable = await thrown(store, (tx) => tx.run("INSERT INTO no_such_table (id) VALUES (1)"));

    expect([nameTaken, idTaken].map((e) => isUniqueViolation(e))).toEqual([true, true]);
    expect([nameTaken, idTaken, noName, noTable].map(poolsRepository.isDuplicateName)).toEqual([true, false, false, false]);
    expect([noName, noTable].map((e) => isUniqueViolation(e))).toEqual([false, false]);
    // Another table's name index is not this one.
    expect([usersRepository.isDuplicateName(nameTaken), templatesRepository.isDuplicateName(nameTaken)]).toEqual([false, false]);
    expect(poolsRepository.isDuplicateName(new Error("wrapped", { cause: nameTaken }))).toBe(true);
  });
});
