/**
 * Browser sessions over real HTTP: the cookie's attributes, sign-in then calls with the cookie,
 * sign-out, idle and absolute expiry on the farm's clock; and the sign-in rate limits (per
 * account, per address, parallel bursts included), with an audit row for every attempt and no
 * password check once limited.
 */
import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { audit, type Actor } from "../services/audit";
import { Client, httpFarm, PASSWORD, person } from "./http-test-support";
import { sqliteOf } from "../store/store-test-support";
import { recentFailures } from "./sign-in";

/** How many scrypt computations `work` started (each password check is one). */
async function scryptsDuring<T>(work: () => Promise<T>): Promise<{ result: T; scrypts: number }> {
  let scrypts = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === "SCRYPTREQUEST") scrypts++;
    },
  }).enable();
  try {
    return { result: await work(), scrypts };
  } finally {
    hook.disable();
  }
}

function signInRows(farm: import("../context/farm").Farm) {
  return sqliteOf(farm.store)
    .prepare<[], { target_id: string; outcome: string; detail: string | null; address: string | null }>(
      "SELECT target_id, outcome, detail, address FROM audit_log WHERE action = 'auth.sign-in' ORDER BY id",
    )
    .all();
}

describe("session cookies", () => {
  it("are httpOnly, SameSite=Lax, for the whole site, not Secure over plain HTTP", async () => {
    const h = await httpFarm();
    await person(h.farm, "alice", "viewer");
    const answer = await new Client(h.url).signIn("alice");
    expect(answer.status).toBe(200);
    const [cookie] = answer.headers.getSetCookie();
    expect(cookie).toMatch(/^loom_session=loom_ses_[A-Za-z0-9_-]{43}; /);
    const attributes = cookie!.split("; ").slice(1);
    expect(attributes).toEqual(["Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${7 * 24 * 3600}`]);
    // The password and the cookie's value are nowhere in the answer's body.
    expect(answer.text).not.toContain(PASSWORD);
    expect(answer.text).not.toContain("loom_ses_");
  });

  it("are Secure when the farm's public URL is https", async () => {
    const h = await httpFarm({ publicUrl: "https://farm.example" });
    await person(h.farm, "alice", "viewer");
    const [cookie] = (await new Client(h.url).signIn("alice")).headers.getSetCookie();
    expect(cookie!.split("; ")).toContain("Secure");
  });

  it("sign in, then calls work with the cookie; sign out revokes it server-side", async () => {
    const h = await httpFarm();
    await person(h.farm, "alice", "viewer");
    const browser = new Client(h.url);
    expect((await browser.query("jobs.list", {})).status).toBe(401);
    await browser.signIn("alice");
    const cookie = browser.cookie!;
    expect((await browser.query<{ me: { name: string } }>("auth.me")).data.me.name).toBe("alice");
    expect((await browser.query("jobs.list", {})).status).toBe(200);
    const out = await browser.mutation("auth.signOut");
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toMatch(/^loom_session=; .*Max-Age=0/);
    // A copy of the old cookie (another tab, a stolen one) no longer works either.
    const replay = new Client(h.url, { cookie });
    expect((await replay.query<{ me: unknown }>("auth.me")).data.me).toBeNull();
    expect((await replay.query("jobs.list", {})).status).toBe(401);
  });

  it("a wrong password and an unknown name get the same answer, and no cookie", async () => {
    const h = await httpFarm();
    await person(h.farm, "alice", "viewer");
    const wrong = await new Client(h.url).signIn("alice", "not the password");
    const unknown = await new Client(h.url).signIn("nobody", "not the password");
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.error?.message).toBe("wrong user name or password");
      expect(answer.headers.getSetCookie()).toEqual([]);
    }
  });

  it("ends after the idle limit without a request", async () => {
    const h = await httpFarm({ sessionIdleMinutes: 30 });
    await person(h.farm, "alice", "viewer");
    const browser = new Client(h.url);
    await browser.signIn("alice");
    // Used every 20 minutes, it stays alive well past 30 minutes after sign-in…
    for (let i = 0; i < 4; i++) {
      h.clock.now += 20 * 60_000;
      expect((await browser.query("jobs.list", {})).status).toBe(200);
    }
    // …but 31 minutes of silence end it.
    h.clock.now += 31 * 60_000;
    expect((await browser.query("jobs.list", {})).status).toBe(401);
    h.clock.now += 60_000;
    expect((await browser.query<{ me: unknown }>("auth.me")).data.me).toBeNull();
  });

  it("ends at its absolute expiry however busy it is", async () => {
    const h = await httpFarm({ sessionIdleMinutes: 24 * 60, sessionMaxDays: 2 });
    await person(h.farm, "alice", "viewer");
    const browser = new Client(h.url);
    await browser.signIn("alice");
    for (let hours = 12; hours < 48; hours += 12) {
      h.clock.now += 12 * 3_600_000;
      expect((await browser.query("jobs.list", {})).status, `${hours} h after sign-in`).toBe(200);
    }
    h.clock.now += 12 * 3_600_000; // 48 h
    expect((await browser.query("jobs.list", {})).status).toBe(401);
  });
});

describe("sign-in rate limits", () => {
  it("refuse an account after its failures, without checking the password, whatever the name's case", async () => {
    const h = await httpFarm({ loginFailuresPerAccount: 3, loginFailuresPerAddress: 1000 });
    await person(h.farm, "alice", "viewer");
    const client = new Client(h.url);
    for (const name of ["alice", "Alice", "ALICE"]) expect((await client.signIn(name, "wrong guess")).status).toBe(401);
    // Limited now: even the right password is not checked (no scrypt runs), in any case.
    for (const name of ["alice", "aLiCe"]) {
      const { result, scrypts } = await scryptsDuring(() => client.signIn(name));
      expect(result.status).toBe(429);
      expect(result.error).toMatchObject({ data: { code: "TOO_MANY_REQUESTS" }, message: expect.stringContaining("too many failed sign-ins for this account") });
      expect(scrypts).toBe(0);
    }
    // Another account from the same address is not affected.
    await person(h.farm, "bob", "viewer");
    expect((await client.signIn("bob")).status).toBe(200);
    // Every attempt left a row, counted against the account's real name.
    const rows = signInRows(h.farm);
    expect(rows.map((r) => [r.target_id, r.outcome, r.detail])).toEqual([
      ["alice", "refused", "wrong password"],
      ["alice", "refused", "wrong password"],
      ["alice", "refused", "wrong password"],
      ["alice", "refused", "rate-limited (account)"],
      ["alice", "refused", "rate-limited (account)"],
      ["bob", "ok", expect.stringMatching(/^session ses-/)],
    ]);
    expect(rows.every((r) => r.address === "127.0.0.1")).toBe(true);
    // The window passes: alice may try again.
    h.clock.now += 16 * 60_000;
    expect((await client.signIn("alice")).status).toBe(200);
  });

  it("refuse an address after its failures, across accounts", async () => {
    const h = await httpFarm({ loginFailuresPerAccount: 100, loginFailuresPerAddress: 4 });
    await person(h.farm, "alice", "viewer");
    const client = new Client(h.url);
    for (const name of ["a1", "a2", "a3", "a4"]) expect((await client.signIn(name, "guess")).status).toBe(401);
    const { result, scrypts } = await scryptsDuring(() => client.signIn("alice"));
    expect(result.status).toBe(429);
    expect(result.error?.message).toContain("too many failed sign-ins from this address");
    expect(scrypts).toBe(0);
    expect(signInRows(h.farm).map((r) => r.detail)).toEqual(["no such account", "no such account", "no such account", "no such account", "rate-limited (address)"]);
  });

  it("hold under a burst of parallel guesses: no more password checks than the limit", async () => {
    const h = await httpFarm({ loginFailuresPerAccount: 5, loginFailuresPerAddress: 1000 });
    await person(h.farm, "alice", "viewer");
    const client = new Client(h.url);
    const { result, scrypts } = await scryptsDuring(() => Promise.all(Array.from({ length: 30 }, (_, i) => client.signIn("alice", `guess ${i}`))));
    const statuses = result.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(25);
    expect(scrypts).toBe(5);
    expect(signInRows(h.farm)).toHaveLength(30);
  });

  it("count failures only up to the limit: under a flood of attempts each check reads no more rows than that", async () => {
    const h = await httpFarm({ loginFailuresPerAccount: 10, loginFailuresPerAddress: 50 });
    const flood: Actor = { kind: "anonymous", id: null, name: "alice", via: "password", address: "10.0.0.9", userAgent: null };
    await h.farm.store.transaction(async (tx) => {
      for (let i = 0; i < 5_000; i++) await audit(tx, h.farm, flood, { action: "auth.sign-in", target: { kind: "user", id: "alice" }, outcome: "refused", detail: "rate-limited (account)" });
    });
    const since = h.clock.now - 60_000;
    expect(await recentFailures(h.farm, "account", "alice", since)).toBe(10);
    expect(await recentFailures(h.farm, "address", "10.0.0.9", since)).toBe(50);
    expect(await recentFailures(h.farm, "account", "bob", since)).toBe(0);
  });

  it("apply to `loom login`'s token requests too", async () => {
    const h = await httpFarm({ loginFailuresPerAccount: 2, loginFailuresPerAddress: 1000 });
    await person(h.farm, "alice", "artist");
    const client = new Client(h.url, { origin: null });
    const ask = (password: string) => client.mutation<{ token: string; scope: string }>("auth.tokenFromPassword", { name: "alice", password, tokenName: "laptop" });
    expect((await ask("wrong one")).status).toBe(401);
    const good = await ask(PASSWORD);
    expect(good.status).toBe(200);
    expect(good.data).toMatchObject({ token: expect.stringMatching(/^loom_pat_/), scope: "submit" });
    expect((await ask("wrong two")).status).toBe(401);
    expect((await ask(PASSWORD)).status).toBe(429);
  });
});
