/** Pools: tokens shown once and stored hashed, rotation, enable/disable and pool-wide drain. */
import { describe, expect, it } from "vitest";
import { rawOf } from "../store/store-test-support";
import { drainPool } from "./drain-worker";
import { jobCounts, LINUX_WORKER, SimulatedWorker, submit, testFarm } from "./farm-test-support";
import { authenticatePool, createPool, ensurePool, hashToken, rotatePoolToken, setPoolEnabled } from "./pools";
import { SYSTEM_ACTOR } from "./audit";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";

describe("pools", () => {
  it("stores only the token's hash; the token authenticates, a rotated one only until its grace period ends", async () => {
    const t = await testFarm({ rotationGraceMinutes: 60 });
    const { poolId, token } = await createPool(t.farm, { name: "gpu" }, SYSTEM_ACTOR);
    const raw = rawOf(t.farm.store);
    const stored = (await raw.get<{ token_hash: string }>("SELECT token_hash FROM pools WHERE id = ?", poolId))?.token_hash;
    expect(stored).toBe(hashToken(token));
    expect(JSON.stringify(await raw.all("SELECT * FROM pools"))).not.toContain(token);
    expect((await authenticatePool(t.farm, token))?.name).toBe("gpu");
    const rotatedAt = async () => (await raw.get<{ token_rotated_at: number | null }>("SELECT token_rotated_at FROM pools WHERE id = ?", poolId))?.token_rotated_at;
    expect(await rotatedAt()).toBeNull();
    const rotated = (await rotatePoolToken(t.farm, poolId, SYSTEM_ACTOR)).token;
    expect(await rotatedAt()).toBe(t.farm.now());
    expect(rotated).not.toBe(token);
    expect(await authenticatePool(t.farm, rotated)).toMatchObject({ id: poolId, generation: 2 });
    // The previous token still enrolls during the grace period, as the previous generation.
    t.clock.now += 59 * 60_000;
    expect(await authenticatePool(t.farm, token)).toMatchObject({ id: poolId, generation: 1 });
    t.clock.now += 2 * 60_000;
    expect(await authenticatePool(t.farm, token)).toBeNull();
    expect((await authenticatePool(t.farm, rotated))?.id).toBe(poolId);
    // A second rotation ends the first token's grace at once.
    const again = (await rotatePoolToken(t.farm, poolId, SYSTEM_ACTOR)).token;
    expect((await authenticatePool(t.farm, rotated))?.generation).toBe(2);
    expect((await authenticatePool(t.farm, again))?.generation).toBe(3);
  });

  it("refuses duplicate and malformed names", async () => {
    const t = await testFarm();
    await expect(createPool(t.farm, { name: "default" }, SYSTEM_ACTOR)).rejects.toThrow(/already exists/);
    await expect(createPool(t.farm, { name: "bad name!" }, SYSTEM_ACTOR)).rejects.toThrow(/letters, digits/);
  });

  it("a disabled pool's workers get no new work; enabling it again resumes dispatch", async () => {
    const t = await testFarm();
    const jobId = await submit(t, JOB);
    const worker = await SimulatedWorker.create(t, LINUX_WORKER("w"));
    await setPoolEnabled(t.farm, t.pool.id, false, SYSTEM_ACTOR);
    t.pool.enabled = 0;
    expect((await worker.sync()).assignments).toEqual([]);
    await setPoolEnabled(t.farm, t.pool.id, true, SYSTEM_ACTOR);
    t.pool.enabled = 1;
    await worker.runUntilIdle();
    expect(await jobCounts(t, jobId)).toEqual(["SUCCEEDED:1"]);
  });

  it("drains every worker of a pool", async () => {
    const t = await testFarm();
    const a = await SimulatedWorker.create(t, LINUX_WORKER("a"));
    await SimulatedWorker.create(t, LINUX_WORKER("b"));
    expect(await drainPool(t.farm, t.pool.id, "AFTER_TASK", SYSTEM_ACTOR)).toEqual({ workers: 2 });
    await submit(t, JOB);
    expect((await a.sync()).assignments).toEqual([]);
    await expect(drainPool(t.farm, "pool-nope", "NOW", SYSTEM_ACTOR)).rejects.toThrow(/no pool/);
  });

  it("ensures a pool once when two servers ask at the same moment: the second finds the first's pool instead of failing", async () => {
    const t = await testFarm();
    // Both read "no such pool" before either creates it (units take turns in the order they start).
    const [a, b] = await Promise.all([ensurePool(t.farm, "local", "token-a", SYSTEM_ACTOR), ensurePool(t.farm, "local", "token-b", SYSTEM_ACTOR)]);
    expect([a.created, b.created]).toEqual([true, false]);
    expect(b.poolId).toBe(a.poolId);
    expect([a.tokenMatches, b.tokenMatches]).toEqual([true, false]);
  });
});
