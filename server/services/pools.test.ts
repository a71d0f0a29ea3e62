/** Pools: tokens shown once and stored hashed, rotation, enable/disable and pool-wide drain. */
import { describe, expect, it } from "vitest";
import { drainPool } from "./drain-worker";
import { jobCounts, LINUX_WORKER, SimulatedWorker, submit, testFarm } from "./farm-test-support";
import { authenticatePool, createPool, hashToken, rotatePoolToken, setPoolEnabled } from "./pools";
import { SYSTEM_ACTOR } from "./audit";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";

describe("pools", () => {
  it("stores only the token's hash; the token authenticates, a rotated one only until its grace period ends", () => {
    const t = testFarm({ rotationGraceMinutes: 60 });
    const { poolId, token } = createPool(t.farm, { name: "gpu" }, SYSTEM_ACTOR);
    const stored = t.farm.store.sqlite.prepare<[string], { token_hash: string }>("SELECT token_hash FROM pools WHERE id = ?").get(poolId)?.token_hash;
    expect(stored).toBe(hashToken(token));
    expect(JSON.stringify(t.farm.store.sqlite.prepare("SELECT * FROM pools").all())).not.toContain(token);
    expect(authenticatePool(t.farm, token)?.name).toBe("gpu");
    const rotatedAt = () => t.farm.store.sqlite.prepare<[string], { token_rotated_at: number | null }>("SELECT token_rotated_at FROM pools WHERE id = ?").get(poolId)?.token_rotated_at;
    expect(rotatedAt()).toBeNull();
    const rotated = rotatePoolToken(t.farm, poolId, SYSTEM_ACTOR).token;
    expect(rotatedAt()).toBe(t.farm.now());
    expect(rotated).not.toBe(token);
    expect(authenticatePool(t.farm, rotated)).toMatchObject({ id: poolId, generation: 2 });
    // The previous token still enrolls during the grace period, as the previous generation.
    t.clock.now += 59 * 60_000;
    expect(authenticatePool(t.farm, token)).toMatchObject({ id: poolId, generation: 1 });
    t.clock.now += 2 * 60_000;
    expect(authenticatePool(t.farm, token)).toBeNull();
    expect(authenticatePool(t.farm, rotated)?.id).toBe(poolId);
    // A second rotation ends the first token's grace at once.
    const again = rotatePoolToken(t.farm, poolId, SYSTEM_ACTOR).token;
    expect(authenticatePool(t.farm, rotated)?.generation).toBe(2);
    expect(authenticatePool(t.farm, again)?.generation).toBe(3);
  });

  it("refuses duplicate and malformed names", () => {
    const t = testFarm();
    expect(() => createPool(t.farm, { name: "default" }, SYSTEM_ACTOR)).toThrow(/already exists/);
    expect(() => createPool(t.farm, { name: "bad name!" }, SYSTEM_ACTOR)).toThrow(/letters, digits/);
  });

  it("a disabled pool's workers get no new work; enabling it again resumes dispatch", () => {
    const t = testFarm();
    const jobId = submit(t, JOB);
    const worker = new SimulatedWorker(t, LINUX_WORKER("w"));
    setPoolEnabled(t.farm, t.pool.id, false, SYSTEM_ACTOR);
    t.pool.enabled = 0;
    expect(worker.sync().assignments).toEqual([]);
    setPoolEnabled(t.farm, t.pool.id, true, SYSTEM_ACTOR);
    t.pool.enabled = 1;
    worker.runUntilIdle();
    expect(jobCounts(t, jobId)).toEqual(["SUCCEEDED:1"]);
  });

  it("drains every worker of a pool", () => {
    const t = testFarm();
    const a = new SimulatedWorker(t, LINUX_WORKER("a"));
    new SimulatedWorker(t, LINUX_WORKER("b"));
    expect(drainPool(t.farm, t.pool.id, "AFTER_TASK", SYSTEM_ACTOR)).toEqual({ workers: 2 });
    submit(t, JOB);
    expect(a.sync().assignments).toEqual([]);
    expect(() => drainPool(t.farm, "pool-nope", "NOW", SYSTEM_ACTOR)).toThrow(/no pool/);
  });
});
