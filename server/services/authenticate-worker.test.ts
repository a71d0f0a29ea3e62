/**
 * Worker credentials against a real migrated SQLite: whose a credential is, and when it stops
 * working (replaced by a new registration, the worker removed, its token generation rotated out).
 */
import { describe, expect, it } from "vitest";
import { SYSTEM_ACTOR } from "./audit";
import { authenticateWorker, checkSpeaksFor } from "./authenticate-worker";
import { removeWorker } from "./drain-worker";
import { LINUX_WORKER, testFarm } from "./farm-test-support";
import { authenticatePool, rotatePoolToken } from "./pools";
import { registerWorker } from "./register-worker";

describe("authenticateWorker", () => {
  it("names the credential's worker and pool; a pool token or a made-up credential is no credential", async () => {
    const t = await testFarm();
    const { workerId, credential } = await registerWorker(t.farm, t.pool, LINUX_WORKER("w"));
    expect(await authenticateWorker(t.farm, credential)).toEqual({ workerId, name: "w", poolId: t.pool.id, poolName: "default", poolEnabled: true });
    await expect(authenticateWorker(t.farm, t.token)).rejects.toThrow(/only enrolls/);
    await expect(authenticateWorker(t.farm, `${credential}x`)).rejects.toThrow(/unknown or revoked worker credential/);
  });

  it("refuses the credential a registration replaced, and a removed worker's", async () => {
    const t = await testFarm();
    const first = await registerWorker(t.farm, t.pool, { ...LINUX_WORKER("w"), instanceId: "instance-1" });
    const second = await registerWorker(t.farm, t.pool, { ...LINUX_WORKER("w"), instanceId: "instance-1" });
    await expect(authenticateWorker(t.farm, first.credential)).rejects.toThrow(/unknown or revoked/);
    expect((await authenticateWorker(t.farm, second.credential)).workerId).toBe(first.workerId);
    await removeWorker(t.farm, second.workerId, SYSTEM_ACTOR);
    await expect(authenticateWorker(t.farm, second.credential)).rejects.toThrow(/unknown or revoked/);
  });

  it("takes the previous token generation until the grace period ends, and never an older one", async () => {
    const t = await testFarm({ rotationGraceMinutes: 10 });
    const gen1 = await registerWorker(t.farm, t.pool, LINUX_WORKER("gen1"));
    const { token: second } = await rotatePoolToken(t.farm, t.pool.id, SYSTEM_ACTOR);
    t.clock.now += 9 * 60_000;
    expect((await authenticateWorker(t.farm, gen1.credential)).workerId).toBe(gen1.workerId);
    const gen2 = await registerWorker(t.farm, (await authenticatePool(t.farm, second))!, LINUX_WORKER("gen2"));
    t.clock.now += 2 * 60_000;
    await expect(authenticateWorker(t.farm, gen1.credential)).rejects.toThrow(/rotated out/);
    // Two rotations in quick succession: the generation before the previous one is out at once.
    await rotatePoolToken(t.farm, t.pool.id, SYSTEM_ACTOR);
    expect((await authenticateWorker(t.farm, gen2.credential)).workerId).toBe(gen2.workerId);
    await rotatePoolToken(t.farm, t.pool.id, SYSTEM_ACTOR);
    await expect(authenticateWorker(t.farm, gen2.credential)).rejects.toThrow(/rotated out/);
  });

  it("lets a credential speak only for its own worker", async () => {
    const t = await testFarm();
    const a = await registerWorker(t.farm, t.pool, LINUX_WORKER("a"));
    const b = await registerWorker(t.farm, t.pool, LINUX_WORKER("b"));
    const asA = await authenticateWorker(t.farm, a.credential);
    expect(() => checkSpeaksFor(asA, a.workerId)).not.toThrow();
    expect(() => checkSpeaksFor(asA, b.workerId)).toThrow(`this credential belongs to worker ${a.workerId}, not ${b.workerId}`);
  });
});
