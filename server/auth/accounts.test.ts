/**
 * Accounts: the farm always keeps an enabled admin; and a changed role or a disabled account
 * takes effect on the very next call over HTTP, including live views already open (the SSE
 * stream ends at once, without waiting for its next item).
 */
import { describe, expect, it } from "vitest";
import { openStore } from "../db/connection";
import { SYSTEM_ACTOR } from "../services/audit";
import { AppError } from "../context/errors";
import { createFarm } from "../context/farm";
import { submitToFarm } from "../services/submit-job";
import type { Farm } from "../context/farm";
import { createUser, insertUser, listUsers, setUserDisabled, setUserRole, type NewUser } from "./accounts";
import { Client, httpFarm, person, tokenOf } from "./http-test-support";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";
const SUBMIT = { template: { text: JOB, format: "yaml" } };

function memoryFarm() {
  const store = openStore(":memory:");
  return createFarm(store);
}

/** An account made directly (its password hash a placeholder). */
function planted(farm: Farm, user: NewUser) {
  return farm.store.transaction((tx) => insertUser(tx, farm, SYSTEM_ACTOR, user, "scrypt$unused"));
}

async function conflict(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    if (error instanceof AppError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return "no error";
}

describe("the last enabled admin", () => {
  it("cannot be demoted or disabled; with a second admin, either can", async () => {
    const farm = memoryFarm();
    await planted(farm, { name: "root", role: "admin", password: "x" });
    expect(await conflict(() => setUserRole(farm, SYSTEM_ACTOR, "root", "wrangler"))).toBe(
      "CONFLICT: making root wrangler would leave the farm without an enabled admin; make someone else an admin first",
    );
    expect(await conflict(() => setUserDisabled(farm, SYSTEM_ACTOR, "root", true))).toMatch(/^CONFLICT: disabling root would leave the farm without an enabled admin/);
    await planted(farm, { name: "second", role: "admin", password: "x" });
    await setUserRole(farm, SYSTEM_ACTOR, "root", "wrangler");
    // Now `second` is the last one.
    expect(await conflict(() => setUserDisabled(farm, SYSTEM_ACTOR, "second", true))).toMatch(/^CONFLICT/);
    expect((await listUsers(farm)).map((u) => [u.name, u.role, u.disabled])).toEqual([
      ["root", "wrangler", false],
      ["second", "admin", false],
    ]);
  });

  it("counts neither disabled admins nor service accounts", async () => {
    const farm = memoryFarm();
    await planted(farm, { name: "root", role: "admin", password: "x" });
    await planted(farm, { name: "old-admin", role: "admin", password: "x" });
    await createUser(farm, SYSTEM_ACTOR, { name: "local-admin", role: "admin", password: null });
    await setUserDisabled(farm, SYSTEM_ACTOR, "old-admin", true);
    expect(await conflict(() => setUserRole(farm, SYSTEM_ACTOR, "root", "viewer"))).toMatch(/^CONFLICT/);
    // A disabled admin may be demoted; the service account may be disabled.
    await setUserRole(farm, SYSTEM_ACTOR, "old-admin", "viewer");
    await setUserDisabled(farm, SYSTEM_ACTOR, "local-admin", true);
    expect((await listUsers(farm)).filter((u) => u.role === "admin" && !u.disabled).map((u) => u.name)).toEqual(["root"]);
  });
});

describe("changes take effect on the next call", () => {
  it("disabling an account ends its sessions and tokens at once", async () => {
    const h = await httpFarm();
    await person(h.farm, "root", "admin");
    const annId = await person(h.farm, "ann", "artist");
    const admin = new Client(h.url);
    await admin.signIn("root");
    const browser = new Client(h.url);
    await browser.signIn("ann");
    const script = new Client(h.url, { token: (await tokenOf(h.farm, annId, "artist", "submit")).token, origin: null });
    expect((await browser.query("jobs.list", {})).status).toBe(200);
    expect((await script.mutation("jobs.submit", SUBMIT)).status).toBe(200);
    expect((await admin.mutation("users.setDisabled", { name: "ann", disabled: true })).status).toBe(200);
    expect((await browser.query("jobs.list", {})).status).toBe(401);
    expect((await script.mutation("jobs.submit", SUBMIT)).status).toBe(401);
    // Enabling again does not bring the old session or token back.
    expect((await admin.mutation("users.setDisabled", { name: "ann", disabled: false })).status).toBe(200);
    expect((await browser.query("jobs.list", {})).status).toBe(401);
    expect((await script.query("jobs.list", {})).error?.message).toMatch(/revoked/);
    expect((await new Client(h.url).signIn("ann")).status).toBe(200);
  });

  it("a changed role applies to the very next call of an open session", async () => {
    const h = await httpFarm();
    await person(h.farm, "root", "admin");
    await person(h.farm, "ann", "artist");
    const admin = new Client(h.url);
    await admin.signIn("root");
    const browser = new Client(h.url);
    await browser.signIn("ann");
    expect((await browser.mutation("jobs.submit", SUBMIT)).status).toBe(200);
    await admin.mutation("users.setRole", { name: "ann", role: "viewer" });
    expect((await browser.mutation("jobs.submit", SUBMIT)).status).toBe(403);
    expect((await browser.query<{ me: { role: string } }>("auth.me")).data.me.role).toBe("viewer");
    await admin.mutation("users.setRole", { name: "ann", role: "admin" });
    expect((await browser.mutation("pools.create", { name: "render" })).status).toBe(200);
  });

  it.each([
    ["disabled", { disabled: true }],
    ["made a viewer", { role: "viewer" }],
  ] as const)("an open live view ends when its account is %s", async (_what, change) => {
    const h = await httpFarm();
    await person(h.farm, "root", "admin");
    await person(h.farm, "wes", "wrangler");
    const submitted = await submitToFarm(h.farm, { ...SUBMIT, template: { text: JOB, format: "yaml" }, parameterValues: {}, templateDir: null, workingDir: "/tmp", now: h.clock.now });
    if (!submitted.ok) throw new Error("submit failed");
    const admin = new Client(h.url);
    await admin.signIn("root");
    const browser = new Client(h.url);
    await browser.signIn("wes");
    // One job's changes: it sends the job once, then only when that job changes (no periodic refresh).
    const stream = await browser.subscribe("jobs.onChange", { jobId: submitted.jobId });
    expect(await stream.next()).toMatchObject({ event: "connected" });
    expect(await stream.next()).toMatchObject({ event: "message", data: expect.stringContaining(submitted.jobId) });
    const answer = "disabled" in change ? await admin.mutation("users.setDisabled", { name: "wes", ...change }) : await admin.mutation("users.setRole", { name: "wes", ...change });
    expect(answer.status).toBe(200);
    const ended = await stream.next();
    expect(ended).toMatchObject({ event: "serialized-error" });
    expect(JSON.parse(ended!.data)).toMatchObject({ message: "signed out, or your access changed: reload the page", data: { code: "UNAUTHORIZED" } });
    expect(await stream.next()).toBeNull();
  });

  it("an open live view ends when its session signs out elsewhere, or its token is revoked", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "vic", "viewer");
    const browser = new Client(h.url);
    await browser.signIn("vic");
    const token = await tokenOf(h.farm, id, "viewer", "read");
    const sessionView = await browser.subscribe("pools.onChange");
    const tokenView = await new Client(h.url, { token: token.token, origin: null }).subscribe("pools.onChange");
    for (const view of [sessionView, tokenView]) {
      expect(await view.next()).toMatchObject({ event: "connected" });
      expect(await view.next()).toMatchObject({ event: "message" });
    }
    await new Client(h.url, { cookie: browser.cookie }).mutation("auth.signOut");
    expect(await sessionView.next()).toMatchObject({ event: "serialized-error" });
    await browser.signIn("vic");
    await browser.mutation("tokens.revoke", { tokenId: token.id });
    expect(await tokenView.next()).toMatchObject({ event: "serialized-error" });
    expect(await tokenView.next()).toBeNull();
  });
});
