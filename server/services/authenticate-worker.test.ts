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
  it("names the credential's worker and pool; a pool token or a made-up credential is no credential", () => {
    const t = testFarm();
    const { workerId, credential } = registerWorker(t.farm, t.pool, LINUX_WORKER("w"));
    expect(authenticateWorker(t.farm, credential)).toEqual({ workerId, name: "w", poolId: t.pool.id, poolName: "default", poolEnabled: true });
    expect(() => authenticateWorker(t.farm, t.token)).toThrow(/only enrolls/);
    expect(() => authenticateWorker(t.farm, `${credential}x`)).toThrow(/unknown or revoked worker credential/);
  });

  it("refuses the credential a registration replaced, and a removed worker's", () => {
    const t = testFarm();
    const first = registerWorker(t.farm, t.pool, { ...LINUX_WORKER("w"), instanceId: "instance-1" });
    const second = registerWorker(t.farm, t.pool, { ...LINUX_WORKER("w"), instanceId: "instance-1" });
    expect(() => authenticateWorker(t.farm, first.credential)).toThrow(/unknown or revoked/);
    expect(authenticateWorker(t.farm, second.credential).workerId).toBe(first.workerId);
    removeWorker(t.farm, second.workerId, SYSTEM_ACTOR);
    expect(() => authenticateWorker(t.farm, second.credential)).toThrow(/unknown or revoked/);
  });

  it("takes the previous token generation until the grace period ends, and never an older one", () => {
    const t = testFarm({ rotationGraceMinutes: 10 });
    const gen1 = registerWorker(t.farm, t.pool, LINUX_WORKER("gen1"));
    const { token: second } = rotatePoolToken(t.farm, t.pool.id, SYSTEM_ACTOR);
    t.clock.now += 9 * 60_000;
    expect(authenticateWorker(t.farm, gen1.credential).workerId).toBe(gen1.workerId);
    const gen2 = registerWorker(t.farm, authenticatePool(t.farm, second)!, LINUX_WORKER("gen2"));
    t.clock.now += 2 * 60_000;
    expect(() => authenticateWorker(t.farm, gen1.credential)).toThrow(/rotated out/);
    // Two rotations in quick succession: the generation before the previous one is out at once.
    rotatePoolToken(t.farm, t.pool.id, SYSTEM_ACTOR);
    expect(authenticateWorker(t.farm, gen2.credential).workerId).toBe(gen2.workerId);
    rotatePoolToken(t.farm, t.pool.id, SYSTEM_ACTOR);
    expect(() => authenticateWorker(t.farm, gen2.credential)).toThrow(/rotated out/);
  });

  it("lets a credential speak only for its own worker", () => {
    const t = testFarm();
    const a = registerWorker(t.farm, t.pool, LINUX_WORKER("a"));
    const b = registerWorker(t.farm, t.pool, LINUX_WORKER("b"));
    const asA = authenticateWorker(t.farm, a.credential);
    expect(() => checkSpeaksFor(asA, a.workerId)).not.toThrow();
    expect(() => checkSpeaksFor(asA, b.workerId)).toThrow(`this credential belongs to worker ${a.workerId}, not ${b.workerId}`);
  });
});
