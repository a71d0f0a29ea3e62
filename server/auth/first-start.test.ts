/**
 * The first start over real HTTP: the one-time setup token creates the first admin and signs them
 * in; it works once, and not at all once a person has an account (a service account such as the
 * local admin does not count).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { SYSTEM_ACTOR } from "../services/audit";
import { sqliteOf } from "../store/store-test-support";
import { createUser } from "./accounts";
import { ensureLocalAdmin, LOCAL_ADMIN_TOKEN_FILE, openSetup } from "./first-start";
import { Client, httpFarm } from "./http-test-support";

const FIRST = { name: "root", password: "the first admin's password" };

describe("the setup token", () => {
  it("creates the first admin once, signed in; a second use is refused", async () => {
    const h = await httpFarm();
    const token = (await openSetup(h.farm, undefined))!;
    expect(token).toMatch(/^loom_setup_/);
    const browser = new Client(h.url);
    expect((await browser.query<{ setupOpen: boolean }>("auth.me")).data.setupOpen).toBe(true);
    expect((await browser.query<{ valid: boolean }>("auth.setupStatus", { token })).data.valid).toBe(true);
    expect((await browser.query<{ valid: boolean }>("auth.setupStatus", { token: `${token}x` })).data.valid).toBe(false);
    expect((await browser.mutation("auth.setup", { ...FIRST, token: `${token}x` })).status).toBe(403);
    const done = await browser.mutation("auth.setup", { ...FIRST, token });
    expect(done.status).toBe(200);
    expect(done.headers.getSetCookie()[0]).toMatch(/^loom_session=loom_ses_/);
    expect((await browser.query<{ me: { name: string; role: string } }>("auth.me")).data.me).toMatchObject({ name: "root", role: "admin" });
    const again = await new Client(h.url).mutation("auth.setup", { name: "intruder", password: "another long password", token });
    expect(again.status).toBe(403);
    expect(again.error?.message).toMatch(/^this setup address is no longer valid/);
    expect((await browser.query<{ valid: boolean }>("auth.setupStatus", { token })).data.valid).toBe(false);
    // The next start prints no setup address.
    expect(await openSetup(h.farm, undefined)).toBeNull();
    const actions = sqliteOf(h.farm.store)
      .prepare<[], { action: string; actor_name: string }>("SELECT action, actor_name FROM audit_log WHERE action IN ('user.create', 'auth.setup') ORDER BY id")
      .all();
    expect(actions).toEqual([
      { action: "user.create", actor_name: "root" },
      { action: "auth.setup", actor_name: "root" },
    ]);
  });

  it("is refused once an account was made another way (`loom user add` on the server)", async () => {
    const h = await httpFarm();
    const token = (await openSetup(h.farm, "loom_setup_preset-for-automation"))!;
    await createUser(h.farm, SYSTEM_ACTOR, { name: "made-by-shell", role: "admin", password: "a shell-made password" });
    const answer = await new Client(h.url).mutation("auth.setup", { ...FIRST, token });
    expect(answer.status).toBe(403);
    expect((await new Client(h.url).query<{ setupOpen: boolean }>("auth.me")).data.setupOpen).toBe(false);
  });

  it("stays open beside the local admin's service account and its 0600 token file", async () => {
    const h = await httpFarm();
    const dir = mkdtempSync(join(tmpdir(), "loom-first-start-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    expect(await ensureLocalAdmin(h.farm, dir)).toBe("created");
    expect(await ensureLocalAdmin(h.farm, dir)).toBe("kept");
    const file = join(dir, LOCAL_ADMIN_TOKEN_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const token = (await openSetup(h.farm, undefined))!;
    expect(token).not.toBeNull();
    const local = new Client(h.url, { token: readFileSync(file, "utf8").trim(), origin: null });
    expect((await local.query<{ me: { name: string; kind: string } }>("auth.me")).data.me).toMatchObject({ name: "local-admin", kind: "service" });
    expect((await new Client(h.url).mutation("auth.setup", { ...FIRST, token })).status).toBe(200);
  });

  it("refuses a weak first password without spending the token", async () => {
    const h = await httpFarm();
    const token = (await openSetup(h.farm, undefined))!;
    const weak = await new Client(h.url).mutation("auth.setup", { name: "root", password: "short", token });
    expect(weak.status).toBe(400);
    expect((await new Client(h.url).mutation("auth.setup", { ...FIRST, token })).status).toBe(200);
  });
});
