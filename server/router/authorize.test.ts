/**
 * The authorization layer's order over real HTTP: a cross-site mutation is refused before its
 * rule is looked at (it writes no audit row in the victim's name and tells nothing about the job
 * it names); the role part of an owner rule is decided before the owner is looked up; and the
 * browser's credentials: a sign-in ends the session the browser had, a badly encoded cookie is
 * only a stale one.
 */
import { describe, expect, it } from "vitest";
import { Client, httpFarm, person, tokenOf } from "../auth/http-test-support";
import type { Farm } from "../context/farm";
import { sqliteOf } from "../store/store-test-support";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";

function refusals(farm: Farm): Array<{ actor_name: string; target_id: string }> {
  return sqliteOf(farm.store).prepare<[], { actor_name: string; target_id: string }>("SELECT actor_name, target_id FROM audit_log WHERE action = 'access.refused' ORDER BY id").all();
}

async function jobOf(h: Awaited<ReturnType<typeof httpFarm>>, owner: string): Promise<string> {
  const id = await person(h.farm, owner, "artist");
  const submitted = await new Client(h.url, { token: (await tokenOf(h.farm, id, "artist", "submit")).token, origin: null }).mutation<{ jobId: string }>("jobs.submit", {
    template: { text: JOB, format: "yaml" },
  });
  return submitted.data.jobId;
}

describe("the order of the checks", () => {
  it("refuses a cross-site mutation first: no audit row in the victim's name, the same answer for a job that exists and one that does not", async () => {
    const h = await httpFarm();
    const jobId = await jobOf(h, "ann");
    await person(h.farm, "vic", "viewer");
    const victim = new Client(h.url);
    await victim.signIn("vic");
    const forged = new Client(h.url, { cookie: victim.cookie, origin: "https://evil.example" });
    const answers = [await forged.mutation("jobs.cancel", { jobId }), await forged.mutation("jobs.cancel", { jobId: "job-missing" })];
    for (const answer of answers) {
      expect(answer.status).toBe(403);
      expect(answer.error?.message).toBe("cross-site request refused: a browser may change things only from the portal's own pages");
    }
    expect(refusals(h.farm)).toEqual([]);
    // From the portal's own page the same call is refused by its rule, and audited.
    expect((await victim.mutation("jobs.cancel", { jobId })).status).toBe(403);
    expect(refusals(h.farm)).toEqual([{ actor_name: "vic", target_id: "jobs.cancel" }]);
  });

  it("decides the role before looking for the job: a viewer is refused (and audited) whether or not the job exists", async () => {
    const h = await httpFarm();
    await jobOf(h, "ann");
    await person(h.farm, "vic", "viewer");
    await person(h.farm, "bob", "artist");
    const viewer = new Client(h.url);
    await viewer.signIn("vic");
    const missing = await viewer.mutation("jobs.cancel", { jobId: "job-missing" });
    expect(missing.status).toBe(403);
    expect(missing.error?.message).toContain("needs the artist role or higher");
    expect(refusals(h.farm)).toEqual([{ actor_name: "vic", target_id: "jobs.cancel" }]);
    // An artist may act on jobs, so for them a missing job is a missing job.
    const artist = new Client(h.url);
    await artist.signIn("bob");
    expect((await artist.mutation("jobs.cancel", { jobId: "job-missing" })).status).toBe(404);
  });
});

describe("browser credentials", () => {
  it("a sign-in ends the session the browser already had", async () => {
    const h = await httpFarm();
    await person(h.farm, "ann", "artist");
    await person(h.farm, "bob", "artist");
    const browser = new Client(h.url);
    await browser.signIn("ann");
    const anns = browser.cookie;
    await browser.signIn("bob");
    expect(browser.cookie).not.toBe(anns);
    expect((await browser.query<{ me: { name: string } }>("auth.me")).data.me.name).toBe("bob");
    // A copy of ann's cookie (left in another tab, or taken) no longer works.
    expect((await new Client(h.url, { cookie: anns }).query<{ me: unknown }>("auth.me")).data.me).toBeNull();
  });

  it("a badly encoded session cookie is a stale one: the caller is signed out, and may sign in", async () => {
    const h = await httpFarm();
    await person(h.farm, "ann", "artist");
    const browser = new Client(h.url, { headers: { cookie: "loom_session=%E0%A4%A" } });
    const me = await browser.query<{ me: unknown }>("auth.me");
    expect(me.status).toBe(200);
    expect(me.data.me).toBeNull();
    expect((await browser.signIn("ann")).status).toBe(200);
  });
});
