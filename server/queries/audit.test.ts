/**
 * The audit page's filters, each alone and combined, and its paging by id: every filter narrows
 * the rows to the ones it names, and the pages of a filter hold every matching row once.
 */
import { describe, expect, it } from "vitest";
import type { AuditAction } from "../../lib/farm/audit-actions";
import { audit, shellActor, SYSTEM_ACTOR, type Actor } from "../services/audit";
import { testFarm } from "../services/farm-test-support";
import { auditPages, listAudit, listAuditInput, type AuditRow, type ListAuditInput } from "./audit";

const ann: Actor = { kind: "user", id: "usr_ann", name: "ann", via: "session", address: "10.0.0.1", userAgent: null };

/** A farm whose log holds, after its own pool.create at t0, six rows a second apart from t0 + 1 s. */
async function loggedFarm() {
  const t = await testFarm();
  const t0 = t.clock.now;
  const rows: Array<[Actor, AuditAction, string, "ok" | "refused"]> = [
    [ann, "job.submit", "job_1", "ok"],
    [ann, "job.cancel", "job_1", "ok"],
    [shellActor("root"), "user.create", "bob", "ok"],
    [ann, "jobs.x" as AuditAction, "job_2", "ok"],
    [SYSTEM_ACTOR, "auth.sign-in", "bob", "refused"],
    [ann, "job.priority", "job_2", "refused"],
  ];
  for (const [actor, action, target, outcome] of rows) {
    t.clock.now += 1_000;
    await t.farm.store.transaction((tx) => audit(tx, t.farm, actor, { action, target: { kind: "x", id: target }, outcome, after: { n: 1 } }));
  }
  const list = async (filter: Partial<ListAuditInput>) => (await listAudit(t.farm, listAuditInput.parse(filter))).rows.map((r) => `${r.actorName} ${r.action} ${r.targetId ?? "-"}`);
  return { t, t0, list };
}

describe("listAudit", () => {
  it("filters by actor, actor kind, action, action group, target, outcome and time, newest first", async () => {
    const { t, t0, list } = await loggedFarm();
    expect(await list({})).toEqual([
      "ann job.priority job_2",
      "system auth.sign-in bob",
      "ann jobs.x job_2",
      "shell:root user.create bob",
      "ann job.cancel job_1",
      "ann job.submit job_1",
      `system pool.create ${t.pool.id}`,
    ]);
    expect(await list({ actor: "shell:root" })).toEqual(["shell:root user.create bob"]);
    expect(await list({ actorKind: "system" })).toEqual(["system auth.sign-in bob", `system pool.create ${t.pool.id}`]);
    expect(await list({ action: "job.cancel" })).toEqual(["ann job.cancel job_1"]);
    // A group is its prefix and no more: "jobs.x" is not in "job.".
    expect(await list({ actionGroup: "job." })).toEqual(["ann job.priority job_2", "ann job.cancel job_1", "ann job.submit job_1"]);
    expect(await list({ action: "job.cancel", actionGroup: "auth." })).toEqual(["ann job.cancel job_1"]);
    expect(await list({ target: "bob" })).toEqual(["system auth.sign-in bob", "shell:root user.create bob"]);
    expect(await list({ outcome: "refused" })).toEqual(["ann job.priority job_2", "system auth.sign-in bob"]);
    // From is inclusive, to exclusive.
    expect(await list({ from: t0 + 2_000, to: t0 + 4_000 })).toEqual(["shell:root user.create bob", "ann job.cancel job_1"]);
    expect(await list({ actor: "ann", actionGroup: "job.", outcome: "ok", to: t0 + 2_000 })).toEqual(["ann job.submit job_1"]);
    expect(await list({ actor: "nobody" })).toEqual([]);
  });

  it("pages by id: a filter's pages hold every matching row once, newest first", async () => {
    const { t, list } = await loggedFarm();
    const first = await listAudit(t.farm, listAuditInput.parse({ actor: "ann", limit: 2 }));
    expect(first.rows.map((r) => r.action)).toEqual(["job.priority", "jobs.x"]);
    expect(first.next).toBe(first.rows[1]!.id);
    const second = await listAudit(t.farm, listAuditInput.parse({ actor: "ann", limit: 2, before: first.next }));
    expect(second.rows.map((r) => r.action)).toEqual(["job.cancel", "job.submit"]);
    expect(second.next).toBe(null);
    const pages: AuditRow[][] = [];
    for await (const page of auditPages(t.farm, { actor: "ann" })) pages.push(page);
    expect(pages.flat().map((r) => r.action)).toEqual((await list({ actor: "ann" })).map((line) => line.split(" ")[1]));
    // The row as stored, before and after parsed back from their JSON.
    expect(second.rows[1]).toMatchObject({
      actorKind: "user",
      actorName: "ann",
      via: "session",
      targetKind: "x",
      targetId: "job_1",
      outcome: "ok",
      after: { n: 1 },
      before: null,
      address: "10.0.0.1",
    });
  });
});
