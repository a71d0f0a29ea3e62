/**
 * Personal access tokens over real HTTP: their scopes cap what their owner's role allows, a token
 * cannot mint a wider or longer-lived one, and a revoked, expired or foreign credential is refused with a message
 * saying which. Scripts send no Origin: a Bearer call needs none.
 */
import { describe, expect, it } from "vitest";
import { sqliteOf } from "../store/store-test-support";
import { Client, httpFarm, person, tokenOf } from "./http-test-support";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";
const SUBMIT = { template: { text: JOB, format: "yaml" } };

describe("token scopes", () => {
  it("a read token reads but cannot submit", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "ann", "artist");
    const script = new Client(h.url, { token: (await tokenOf(h.farm, id, "artist", "read")).token, origin: null });
    expect((await script.query("jobs.list", {})).status).toBe(200);
    const refused = await script.mutation("jobs.submit", SUBMIT);
    expect(refused.status).toBe(403);
    expect(refused.error?.message).toBe("this needs the artist role or higher; you are a viewer (this token's scope is 'read')");
  });

  it("a submit token submits, without an Origin, but cannot create pools even for an admin", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "root", "admin");
    const script = new Client(h.url, { token: (await tokenOf(h.farm, id, "admin", "submit")).token, origin: null });
    expect((await script.mutation<{ ok: boolean }>("jobs.submit", SUBMIT)).data).toMatchObject({ ok: true });
    const pool = await script.mutation("pools.create", { name: "render" });
    expect(pool.status).toBe(403);
    expect(pool.error?.message).toContain("this token's scope is 'submit'");
    const admin = new Client(h.url, { token: (await tokenOf(h.farm, id, "admin", "admin")).token, origin: null });
    expect((await admin.mutation("pools.create", { name: "render" })).status).toBe(200);
  });

  it("an artist cannot make an admin-scoped token; an admin can", async () => {
    const h = await httpFarm();
    await person(h.farm, "ann", "artist");
    await person(h.farm, "root", "admin");
    const artist = new Client(h.url);
    await artist.signIn("ann");
    const refused = await artist.mutation("tokens.create", { name: "all", scope: "admin", expiresInDays: 30 });
    expect(refused.status).toBe(403);
    expect(refused.error?.message).toBe("only admins can make admin-scoped tokens");
    expect((await artist.mutation<{ token: string }>("tokens.create", { name: "ci", scope: "submit", expiresInDays: 30 })).data.token).toMatch(/^loom_pat_/);
    const admin = new Client(h.url);
    await admin.signIn("root");
    expect((await admin.mutation("tokens.create", { name: "all", scope: "admin", expiresInDays: 30 })).status).toBe(200);
  });

  it("a token cannot make a token with a wider scope than its own", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "root", "admin");
    const reader = new Client(h.url, { token: (await tokenOf(h.farm, id, "admin", "read")).token, origin: null });
    for (const scope of ["submit", "admin"]) {
      const refused = await reader.mutation("tokens.create", { name: "wider", scope, expiresInDays: 30 });
      expect(refused.status, scope).toBe(403);
      expect(refused.error?.message).toBe("a token made with a 'read' token can have at most that scope");
    }
    const made = await reader.mutation<{ token: string }>("tokens.create", { name: "same", scope: "read", expiresInDays: 30 });
    expect(made.status).toBe(200);
    // …and what it made is a reader too.
    expect((await new Client(h.url, { token: made.data.token, origin: null }).mutation("jobs.submit", SUBMIT)).status).toBe(403);
    const submitter = new Client(h.url, { token: (await tokenOf(h.farm, id, "admin", "submit")).token, origin: null });
    expect((await submitter.mutation("tokens.create", { name: "wider", scope: "admin", expiresInDays: 30 })).status).toBe(403);
    expect((await submitter.mutation("tokens.create", { name: "same", scope: "submit", expiresInDays: 30 })).status).toBe(200);
  });

  it("a token made with a token expires no later than the token that made it (a leaked token cannot outlive itself)", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "ann", "artist");
    const parent = await tokenOf(h.farm, id, "artist", "submit", 2);
    const parentExpiry = h.clock.now + 2 * 24 * 3_600_000;
    const script = new Client(h.url, { token: parent.token, origin: null });
    const made = await script.mutation<{ token: string; view: { expiresAt: number } }>("tokens.create", { name: "longer", scope: "submit", expiresInDays: 366 });
    expect(made.status).toBe(200);
    expect(made.data.view.expiresAt).toBe(parentExpiry);
    h.clock.now = parentExpiry;
    expect((await new Client(h.url, { token: made.data.token, origin: null }).query("jobs.list", {})).status).toBe(401);
    // Made in the portal (a browser session), a token gets the expiry asked for.
    const browser = new Client(h.url);
    await browser.signIn("ann");
    const own = await browser.mutation<{ view: { expiresAt: number } }>("tokens.create", { name: "ci", scope: "submit", expiresInDays: 366 });
    expect(own.data.view.expiresAt).toBe(h.clock.now + 366 * 24 * 3_600_000);
  });
});

describe("refused credentials", () => {
  it("a revoked token is refused, saying so", async () => {
    const h = await httpFarm();
    await person(h.farm, "ann", "artist");
    const browser = new Client(h.url);
    await browser.signIn("ann");
    const made = await browser.mutation<{ token: string; view: { id: string } }>("tokens.create", { name: "ci", scope: "submit", expiresInDays: 30 });
    const script = new Client(h.url, { token: made.data.token, origin: null });
    expect((await script.query("jobs.list", {})).status).toBe(200);
    expect((await browser.mutation("tokens.revoke", { tokenId: made.data.view.id })).status).toBe(200);
    const refused = await script.query("jobs.list", {});
    expect(refused.status).toBe(401);
    expect(refused.error?.message).toBe("this token was revoked; create a new one, or run 'loom login'");
  });

  it("an expired token is refused, saying so", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "ann", "artist");
    const script = new Client(h.url, { token: (await tokenOf(h.farm, id, "artist", "read", 2)).token, origin: null });
    h.clock.now += 47 * 3_600_000;
    expect((await script.query("jobs.list", {})).status).toBe(200);
    h.clock.now += 3_600_000;
    const refused = await script.query("jobs.list", {});
    expect(refused.status).toBe(401);
    expect(refused.error?.message).toBe("this token has expired; create a new one, or run 'loom login'");
  });

  it("unknown tokens, pool tokens and malformed headers are refused with what they are", async () => {
    const h = await httpFarm();
    const ask = (authorization: string) => new Client(h.url, { origin: null, headers: { authorization } }).query("jobs.list", {});
    expect((await ask("Bearer loom_pat_nope")).error?.message).toMatch(/^unknown token/);
    expect((await ask(`Bearer ${h.poolToken}`)).error?.message).toBe("this is not a personal access token (pool and worker tokens reach only the worker API)");
    expect((await ask("Basic YWxpY2U6cHc=")).error?.message).toBe("the Authorization header must be 'Bearer <token>'");
    for (const auth of ["Bearer loom_pat_nope", `Bearer ${h.poolToken}`]) expect((await ask(auth)).status).toBe(401);
  });

  it("a token reaches only its owner's own tokens; an admin's reach everyone's", async () => {
    const h = await httpFarm();
    const ann = await person(h.farm, "ann", "artist");
    const bob = await person(h.farm, "bob", "artist");
    const root = await person(h.farm, "root", "admin");
    const bobs = await tokenOf(h.farm, bob, "artist", "submit");
    const asAnn = new Client(h.url, { token: (await tokenOf(h.farm, ann, "artist", "submit")).token, origin: null });
    expect((await asAnn.mutation("tokens.revoke", { tokenId: bobs.id })).status).toBe(404);
    expect((await asAnn.mutation("tokens.revokeAny", { tokenId: bobs.id })).status).toBe(403);
    expect((await asAnn.query<Array<{ owner: string }>>("tokens.list")).data.map((t) => t.owner)).toEqual(["ann"]);
    const asRoot = new Client(h.url, { token: (await tokenOf(h.farm, root, "admin", "admin")).token, origin: null });
    expect((await asRoot.mutation<{ revokedAt: number }>("tokens.revokeAny", { tokenId: bobs.id })).data.revokedAt).toBe(h.clock.now);
    expect((await new Client(h.url, { token: bobs.token, origin: null }).query("jobs.list", {})).status).toBe(401);
  });

  it("records when and from where a token was last used", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "ann", "artist");
    const made = await tokenOf(h.farm, id, "artist", "read");
    await new Client(h.url, { token: made.token, origin: null }).query("jobs.list", {});
    const row = sqliteOf(h.farm.store).prepare<[string], { last_used_at: number; last_used_address: string }>("SELECT last_used_at, last_used_address FROM access_tokens WHERE id = ?").get(made.id);
    expect(row).toEqual({ last_used_at: h.clock.now, last_used_address: "127.0.0.1" });
  });
});
