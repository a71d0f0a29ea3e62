/**
 * Checks that decide on what a unit read, against a concurrent unit on the same data (several
 * servers on one PostgreSQL, or two requests at once): the farm keeps an enabled admin, and a
 * name taken meanwhile gets the same CONFLICT as a name taken before. On PostgreSQL the two units
 * are made to read before either writes (READ COMMITTED allows it: holdWrites); SQLite's units take
 * turns, so there the same tests show the answers are the same on both engines.
 */
import { describe, expect, it } from "vitest";
import { createUser, insertUser, listUsers, setUserDisabled, setUserRole } from "../auth/accounts";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import type { AsyncStore } from "../store/engine/engine";
import { PostgresStore } from "../store/engine/postgres-engine";
import { rawOf } from "../store/store-test-support";
import { SYSTEM_ACTOR } from "./audit";
import { testFarm } from "./farm-test-support";
import { createPool } from "./pools";
import { saveTemplate, type SaveTemplateInput, type TemplateAuthor } from "./templates";

const WAITING = "SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'";
// Inside a transaction PostgreSQL answers from the statistics it read first, unless told to read anew.
const READ_STATS_ANEW = "SELECT pg_stat_clear_snapshot()";

/**
 * On PostgreSQL: a SHARE lock on `table`, from a connection of the store's own pool, until
 * `release(waiting)`: the table stays readable and its writes wait, so units started meanwhile
 * all read before any of them writes. `release` first waits until that many units wait on a lock.
 * SQLite's units take turns: nothing to hold.
 */
async function holdWrites(store: AsyncStore, table: string): Promise<(waiting: number) => Promise<void>> {
  if (!(store instanceof PostgresStore)) return async () => {};
  const client = await store.pool.connect();
  await client.query("BEGIN");
  await client.query(`LOCK TABLE ${table} IN SHARE MODE`);
  return async (waiting) => {
    try {
      const waitingNow = async () => {
        await client.query(READ_STATS_ANEW);
        return (await client.query<{ n: number }>(WAITING)).rows[0]!.n;
      };
      await expect.poll(waitingNow, { timeout: 10_000 }).toBe(waiting);
    } finally {
      await client.query("COMMIT");
      client.release();
    }
  };
}

/** Runs the changes at once while `table`'s writes are held; their outcomes, in order. */
async function atOnce<T>(store: AsyncStore, table: string, changes: Array<() => Promise<T>>): Promise<Array<PromiseSettledResult<T>>> {
  const release = await holdWrites(store, table);
  const settled = Promise.allSettled(changes.map((change) => change()));
  await release(changes.length);
  return settled;
}

/** The one that failed, as `CODE: message` (an error that is no AppError as itself: a test failure). */
function refusal(outcomes: Array<PromiseSettledResult<unknown>>): string {
  const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
  expect(failed).toHaveLength(1);
  const error: unknown = failed[0]!.reason;
  if (!(error instanceof AppError)) throw error;
  return `${error.code}: ${error.message}`;
}

async function refusalOf(change: () => Promise<unknown>): Promise<string> {
  return refusal(await Promise.allSettled([change()]));
}

function admins(farm: Farm, names: string[]) {
  return farm.store.transaction(async (tx) => {
    for (const name of names) await insertUser(tx, farm, SYSTEM_ACTOR, { name, role: "admin", password: "x" }, "scrypt$unused");
  });
}

describe("the farm keeps an enabled admin against concurrent changes", () => {
  it("of two admins demoted at once, one is; the other gets the last admin's CONFLICT", async () => {
    const { farm } = await testFarm();
    await admins(farm, ["ann", "bob"]);
    const outcomes = await atOnce(farm.store, "users", [() => setUserRole(farm, SYSTEM_ACTOR, "ann", "wrangler"), () => setUserRole(farm, SYSTEM_ACTOR, "bob", "wrangler")]);
    const kept = outcomes[0]!.status === "rejected" ? "ann" : "bob";
    expect(refusal(outcomes)).toBe(`CONFLICT: making ${kept} wrangler would leave the farm without an enabled admin; make someone else an admin first`);
    expect((await listUsers(farm)).filter((u) => u.role === "admin" && !u.disabled).map((u) => u.name)).toEqual([kept]);
    // The same words as when it is plainly the last one.
    expect(await refusalOf(() => setUserRole(farm, SYSTEM_ACTOR, kept, "wrangler"))).toBe(refusal(outcomes));
  });

  it("of two admins, one demoted and the other disabled at once, one change is made", async () => {
    const { farm } = await testFarm();
    await admins(farm, ["ann", "bob"]);
    const outcomes = await atOnce(farm.store, "users", [() => setUserRole(farm, SYSTEM_ACTOR, "ann", "viewer"), () => setUserDisabled(farm, SYSTEM_ACTOR, "bob", true)]);
    expect(refusal(outcomes)).toMatch(/^CONFLICT: (making ann viewer|disabling bob) would leave the farm without an enabled admin/);
    expect((await listUsers(farm)).filter((u) => u.role === "admin" && !u.disabled)).toHaveLength(1);
  });
});

describe("a name taken by a concurrent creation gets the same CONFLICT as one taken before", () => {
  it("pools", async () => {
    const { farm } = await testFarm();
    const outcomes = await atOnce(farm.store, "pools", [() => createPool(farm, { name: "render" }, SYSTEM_ACTOR), () => createPool(farm, { name: "render" }, SYSTEM_ACTOR)]);
    expect(refusal(outcomes)).toBe("CONFLICT: a pool named 'render' already exists");
    expect(await refusalOf(() => createPool(farm, { name: "render" }, SYSTEM_ACTOR))).toBe(refusal(outcomes));
    const raw = rawOf(farm.store);
    expect(await raw.column("SELECT name FROM pools ORDER BY name")).toEqual(["default", "render"]);
    // The loser wrote nothing, its audit entry included.
    expect(await raw.column("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'pool.create'")).toEqual([2]);
  });

  it("users", async () => {
    const { farm } = await testFarm();
    const create = () => createUser(farm, SYSTEM_ACTOR, { name: "ci-bot", role: "artist", password: null });
    const outcomes = await atOnce(farm.store, "users", [create, create]);
    expect(refusal(outcomes)).toBe("CONFLICT: a user named 'ci-bot' already exists");
    expect(await refusalOf(create)).toBe(refusal(outcomes));
    expect((await listUsers(farm)).map((u) => u.name)).toEqual(["ci-bot"]);
    expect(await rawOf(farm.store).column("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'user.create'")).toEqual([1]);
  });

  describe("templates", () => {
    const JOB = "specificationVersion: jobtemplate-2023-09\nname: Render\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";
    const author: TemplateAuthor = { caller: { userId: "usr-ann", role: "artist", scope: null }, actor: SYSTEM_ACTOR };
    const save =
      (farm: Farm, options: Partial<SaveTemplateInput> = {}) =>
      () =>
        saveTemplate(farm, { name: "Render", text: JOB, format: "yaml", ...options }, author);

    it("saved at once under one name: one is saved, the other is asked about the entry it met", async () => {
      const { farm } = await testFarm();
      const outcomes = await atOnce(farm.store, "templates", [save(farm), save(farm)]);
      const saved = outcomes.find((o) => o.status === "fulfilled")!.value;
      expect(refusal(outcomes)).toMatch(/^CONFLICT: a template named 'Render' exists, saved by nobody on .*: replace it, keep both, or save under another name$/);
      const met = (outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason as AppError;
      expect(met.details).toEqual({ existing: { id: saved.id, name: "Render", ownerName: null, updatedAt: saved.updatedAt, mayReplace: true } });
      expect(await refusalOf(save(farm))).toBe(refusal(outcomes));
      const raw = rawOf(farm.store);
      expect(await raw.column("SELECT id FROM templates")).toEqual([saved.id]);
      expect(await raw.column("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'template.save'")).toEqual([1]);
    });

    it("saved at once keeping both: the second takes the next free name", async () => {
      const { farm } = await testFarm();
      const outcomes = await atOnce(farm.store, "templates", [save(farm, { keepBoth: true }), save(farm, { keepBoth: true })]);
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "fulfilled"]);
      expect(await rawOf(farm.store).column("SELECT name FROM templates ORDER BY name")).toEqual(["Render", "Render (2)"]);
    });
  });
});
