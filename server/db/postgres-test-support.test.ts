/**
 * Test databases left by runs that died are dropped once older than a day, on the next creation;
 * younger ones (maybe a run still going) and databases of other names stay.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { freshTestDatabase, LEFTOVER_AGE_MS, testDatabaseCreatedAt, testDatabaseName, testServerUrl, type TestDatabase } from "./postgres-test-support";

describe("test database names", () => {
  it("hold their creation time, read back to the millisecond", () => {
    const now = Date.UTC(2026, 11, 3, 12, 0, 0, 123);
    const name = testDatabaseName("loom_test", now);
    expect(name).toMatch(/^loom_test_[0-9a-z]+_[0-9a-f]{8}$/);
    expect(testDatabaseCreatedAt(name)).toBe(now);
    expect(testDatabaseCreatedAt(testDatabaseName("loom_engine_open", now))).toBe(now);
  });

  it("are told from other names: no time, another owner, a time before Loom", () => {
    expect(testDatabaseCreatedAt("postgres")).toBeNull();
    expect(testDatabaseCreatedAt("loom")).toBeNull();
    expect(testDatabaseCreatedAt("loom_production")).toBeNull();
    expect(testDatabaseCreatedAt("other_test_mi8k2x3a_1f2e3d4c")).toBeNull();
    expect(testDatabaseCreatedAt("loom_test_abc_1f2e3d4c")).toBeNull();
  });
});

describe("a test database's creation", () => {
  const created: string[] = [];
  let admin: pg.Client | undefined;
  const databases = async () => (await admin!.query<{ datname: string }>("SELECT datname FROM pg_database")).rows.map((r) => r.datname);

  afterAll(async () => {
    for (const name of created) await admin?.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin?.end();
  });

  it("drops test databases older than a day, and leaves younger ones and others alone", async () => {
    admin = new pg.Client({ connectionString: testServerUrl() });
    await admin.connect();
    const now = Date.now();
    // Distinct prefixes: another run's sweep (in parallel) must not remove what this test checks is kept.
    const old = testDatabaseName("loom_sweep_old", now - LEFTOVER_AGE_MS - 60_000);
    const young = testDatabaseName("loom_sweep_young", now - LEFTOVER_AGE_MS + 60 * 60_000);
    const other = `loom_sweep_other_${now.toString(36)}`;
    for (const name of [old, young, other]) {
      await admin.query(`CREATE DATABASE "${name}"`);
      created.push(name);
    }
    let fresh: TestDatabase | undefined;
    try {
      fresh = await freshTestDatabase();
      const after = await databases();
      expect(after).not.toContain(old);
      expect(after).toContain(young);
      expect(after).toContain(other);
      expect(after).toContain(fresh.name);
    } finally {
      await fresh?.drop();
    }
    expect(await databases()).not.toContain(fresh!.name);
  });
});
