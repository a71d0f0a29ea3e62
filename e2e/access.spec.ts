/**
 * Access control as people meet it, in order (each test leaves what the next one reads):
 * 1. an artist cannot cancel another artist's job: the controls are absent from the page, and
 *    the same call made from that page, with that artist's cookie, is refused by the server;
 *    the owner and a wrangler have the controls, and the owner's cancel works;
 * 2. an admin creates a user (disables and enables them; they sign in), is refused demoting the
 *    farm's last admin, and creates a token, shown once, that a script then uses (within its
 *    scope) until it is revoked from the page;
 * 3. the audit page shows all of that: the setup, the user creations, the token, the sign-ins
 *    and the refused cancel, filtered in the URL and exported with the same filter.
 */
import { expect, failedLoad, test } from "./fixtures";
import { BASE_URL, PERSONAS, statePath } from "./personas";
import { submitJob, tokenApi, trpcQuery } from "./trpc";

// Serial: each test reads what the one before left. Generous times: a shared two-core machine runs these.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const HELD = (name: string) => `specificationVersion: jobtemplate-2023-09\nname: ${name}\nsteps:\n- name: Hold\n  script:\n    actions:\n      onRun: {command: sleep, args: ["600"]}\n`;
const JOB_NAME = `ben-e2e-${Date.now()}`;
const NEW_USER = { name: "tia", role: "artist", password: "pw-e2e-artist-003" } as const;
const TOKEN_NAME = "e2e nightly script";

test.describe("access control", () => {
  test.use({ storageState: statePath("ana") });

  test("an artist cannot cancel another artist's job", async ({ page, personaPage, allowConsoleError }) => {
    // Ben's job, held (suspended) so it needs no worker.
    const ben = await personaPage("ben");
    const jobId = await submitJob(ben.request, { template: { text: HELD(JOB_NAME), format: "yaml" }, settings: { initialState: "SUSPENDED" } });
    expect((await trpcQuery<{ submitter: string; ownerId: string }>(ben.request, "jobs.get", { jobId })).submitter).toBe("ben");

    // Ana reads it, and is offered no action on it.
    await page.goto(`/jobs/${jobId}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(JOB_NAME);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Suspended");
    await expect(page.getByText("This job is ben's: its owner and wranglers act on it")).toBeVisible();
    await expect(page.getByRole("group", { name: "Job actions" })).toHaveCount(0);
    await expect(page.getByRole("group", { name: "Step actions" })).toHaveCount(0);
    await expect(page.getByRole("group", { name: "Job priority" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Cancel", exact: true })).toHaveCount(0);

    // The server refuses it anyway: jobs.cancel sent from this page (its origin, ana's cookie).
    allowConsoleError(failedLoad(403, `${BASE_URL}/api/trpc/jobs.cancel`));
    const answer = await page.evaluate(async (id) => {
      const response = await fetch("/api/trpc/jobs.cancel", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jobId: id }) });
      return { status: response.status, body: (await response.json()) as { error?: { message?: string } } };
    }, jobId);
    expect(answer.status).toBe(403);
    expect(answer.body.error?.message).toContain("this job is someone else's");
    expect((await trpcQuery<{ status: string }>(page.request, "jobs.get", { jobId })).status).toBe("SUSPENDED");

    // A wrangler has the controls, and so has the owner, whose cancel goes through.
    const wes = await personaPage("wes");
    await wes.goto(`/jobs/${jobId}`);
    await expect(wes.getByRole("group", { name: "Job actions" }).getByRole("button", { name: "Cancel", exact: true })).toBeEnabled();
    await expect(wes.getByRole("group", { name: "Job priority" }).getByRole("spinbutton")).toHaveAttribute("max", "100");
    await ben.goto(`/jobs/${jobId}`);
    await expect(ben.getByRole("group", { name: "Job priority" }).getByRole("spinbutton")).toHaveAttribute("max", "70");
    await ben.getByRole("group", { name: "Job actions" }).getByRole("button", { name: "Cancel", exact: true }).click();
    await ben.getByRole("dialog").getByRole("button", { name: "Yes, cancel" }).click();
    await expect(ben.getByRole("group", { name: "Job actions" }).getByRole("status")).toContainText("Canceled 1 task");
    await expect(ben.getByRole("heading", { level: 1 })).toContainText("Canceled");
  });

  test("an admin creates a user and a token", async ({ personaPage, browser, baseURL, allowConsoleError }) => {
    // Demoting the only admin below is refused with 409, which Chromium logs.
    allowConsoleError(failedLoad(409, `${BASE_URL}/api/trpc/users.setRole?batch=1`));
    const admin = await personaPage("ada");
    await admin.goto("/admin/users");
    const create = admin.getByRole("region", { name: "Create a user" });
    await create.getByRole("textbox", { name: "User name" }).fill(NEW_USER.name);
    await create.getByRole("combobox", { name: "Role" }).selectOption(NEW_USER.role);
    await create.getByLabel("Initial password").fill(NEW_USER.password);
    await create.getByRole("button", { name: "Create user" }).click();
    const main = admin.getByRole("main");
    await expect(main.getByRole("status")).toHaveText(`Created ${NEW_USER.name}.`);
    await expect(admin.getByRole("row").filter({ has: admin.getByRole("rowheader", { name: NEW_USER.name, exact: true }) })).toContainText("Artist");

    // The server keeps an enabled admin: demoting the only one is refused, and the page says why.
    const self = admin.getByRole("row").filter({ has: admin.getByRole("rowheader", { name: new RegExp(`^${PERSONAS.ada.name}`) }) });
    await self.getByRole("combobox", { name: `Role of ${PERSONAS.ada.name}` }).selectOption("artist");
    await self.getByRole("button", { name: "Change role" }).click();
    await admin.getByRole("dialog").getByRole("button", { name: "Make an artist" }).click();
    await expect(main.getByRole("alert")).toContainText("would leave the farm without an enabled admin");
    await expect(self.getByRole("combobox", { name: `Role of ${PERSONAS.ada.name}` })).toHaveValue("admin");

    // Disabled, then enabled again: the page shows each state the server answers with.
    const tiaRow = admin.getByRole("row").filter({ has: admin.getByRole("rowheader", { name: NEW_USER.name, exact: true }) });
    await tiaRow.getByRole("button", { name: "Disable" }).click();
    await admin
      .getByRole("dialog")
      .getByRole("button", { name: `Disable ${NEW_USER.name}` })
      .click();
    await expect(tiaRow.getByText("Disabled", { exact: true })).toBeVisible();
    await tiaRow.getByRole("button", { name: "Enable" }).click();
    await expect(tiaRow.getByText("Enabled", { exact: true })).toBeVisible();

    // The new user signs in with the initial password.
    // A browser of tia's own (explicitly empty: contexts made in a test otherwise start with the test's storage state).
    const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const tia = await context.newPage();
    await tia.goto("/login");
    await tia.getByRole("textbox", { name: "User name" }).fill(NEW_USER.name);
    await tia.getByLabel("Password").fill(NEW_USER.password);
    await tia.getByRole("button", { name: "Sign in" }).click();
    await expect(tia.getByRole("group", { name: "Signed in" })).toContainText(NEW_USER.name);
    await expect(tia.getByRole("group", { name: "Signed in" })).toContainText("Artist");
    await context.close();

    // A token: made on the account page, shown once.
    await admin.goto("/account");
    await admin.getByRole("textbox", { name: "Token name" }).fill(TOKEN_NAME);
    await admin.getByRole("combobox", { name: "Scope" }).selectOption("read");
    await admin.getByRole("combobox", { name: "Expires after" }).selectOption("30");
    await admin.getByRole("button", { name: "Create token" }).click();
    const panel = admin.getByRole("region", { name: `New token ${TOKEN_NAME}` });
    await expect(panel).toContainText("you will not see it again");
    await expect(panel.getByRole("button", { name: "Copy token" })).toBeVisible();
    const token = await panel.getByRole("textbox", { name: `Token ${TOKEN_NAME}` }).inputValue();
    expect(token).toMatch(/^loom_pat_[A-Za-z0-9_-]{20,}$/);
    await panel.getByRole("button", { name: "Done: hide the token" }).click();
    await expect(panel).toHaveCount(0);
    expect(await admin.content()).not.toContain(token);
    const row = admin
      .getByRole("table", { name: "Your tokens" })
      .getByRole("row")
      .filter({ has: admin.getByRole("rowheader", { name: TOKEN_NAME }) });
    await expect(row).toContainText("read");
    await expect(row).toContainText("Active");
    await expect(row).toContainText("in 30 days");
    await expect(row).toContainText("never");

    // A script with it: it reads as the admin, and its read scope stops it changing anything.
    const script = await tokenApi(token);
    const me = await trpcQuery<{ me: { name: string; scope: string } }>(script, "auth.me");
    expect(me.me).toMatchObject({ name: PERSONAS.ada.name, scope: "read" });
    expect((await trpcQuery<{ total: number }>(script, "jobs.list", {})).total).toBeGreaterThan(0);
    const refused = await script.post("/api/trpc/pools.create", { data: { name: "e2e-not-made" } });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain("this token's scope is 'read'");
    await script.dispose();

    // Its last use, and from where, show in the list.
    await admin.reload();
    await expect(row).toContainText("from 127.0.0.1");
    await expect(row).not.toContainText("never");

    // Revoked from the page, it stops working for the script at once.
    await row.getByRole("button", { name: "Revoke" }).click();
    await admin
      .getByRole("dialog")
      .getByRole("button", { name: `Revoke ${TOKEN_NAME}` })
      .click();
    await expect(row).toContainText("Revoked");
    const after = await tokenApi(token);
    const dead = await after.get(`/api/trpc/jobs.list?input=${encodeURIComponent("{}")}`);
    expect(dead.status()).toBe(401);
    expect(await dead.text()).toContain("this token was revoked");
    await after.dispose();
  });

  test("the audit page shows those actions", async ({ personaPage }) => {
    const admin = await personaPage("ada");
    await admin.goto("/admin/audit");
    const log = admin.getByRole("table", { name: "Audit log" });
    const rows = log.getByRole("row");
    const filters = admin.getByRole("search", { name: "Filter the audit log" });
    const apply = async (patch: { group?: string; action?: string; actor?: string; outcome?: string }) => {
      await filters.getByRole("button", { name: "Clear filters" }).click();
      await expect(admin).toHaveURL(/\/admin\/audit$/);
      if (patch.group) await filters.getByRole("combobox", { name: "Action group" }).selectOption(patch.group);
      if (patch.action) await filters.getByRole("combobox", { name: "Action", exact: true }).selectOption(patch.action);
      if (patch.actor) await filters.getByRole("textbox", { name: "Actor", exact: true }).fill(patch.actor);
      if (patch.outcome) await filters.getByRole("combobox", { name: "Outcome" }).selectOption(patch.outcome);
      await filters.getByRole("button", { name: "Apply filters" }).click();
    };

    // The first-start setup: the admin, created through the setup address.
    await apply({ action: "auth.setup" });
    await expect(admin).toHaveURL(/\/admin\/audit\?action=auth.setup$/);
    await expect(rows.filter({ hasText: "auth.setup" })).toHaveCount(1);
    await expect(rows.filter({ hasText: "auth.setup" })).toContainText(`user ${PERSONAS.ada.name}`);

    // Every account the admin made.
    await apply({ action: "user.create", actor: PERSONAS.ada.name });
    // (Each check names its action too: until the filtered page arrives, the table still shows the previous one.)
    for (const name of ["ana", "ben", "wes", "vic", NEW_USER.name]) await expect(rows.filter({ hasText: "user.create" }).filter({ hasText: `user ${name}` }), name).toHaveCount(1);

    // The token, by its name and scope (never its value).
    await apply({ action: "token.create", actor: PERSONAS.ada.name });
    const created = rows.filter({ hasText: "token.create" }).filter({ hasText: TOKEN_NAME });
    await expect(created).toHaveCount(1);
    await expect(created).toContainText("scope: read");

    // Sign-ins: each persona's, and the new user's.
    await apply({ group: "auth.", outcome: "ok" });
    await expect(admin).toHaveURL(/group=auth\.&outcome=ok/);
    for (const name of ["ana", "ben", "wes", "vic", NEW_USER.name])
      await expect(
        rows
          .filter({ hasText: "auth.sign-in" })
          .filter({ hasText: `user ${name}` })
          .first(),
        name,
      ).toBeVisible();

    // The refused cancel: ana, jobs.cancel, refused.
    await apply({ actor: "ana", outcome: "refused" });
    const refusal = rows.filter({ hasText: "access.refused" }).filter({ hasText: "jobs.cancel" });
    await expect(refusal).toHaveCount(1);
    await expect(refusal).toContainText("this job is someone else's");
    await expect(refusal.getByText("refused", { exact: true })).toBeVisible();

    // The export holds the same rows as the filtered page.
    const csvLink = admin.getByRole("link", { name: "Export CSV" });
    await expect(csvLink).toHaveAttribute("href", "/api/audit/export?format=csv&actor=ana&outcome=refused");
    const csv = await admin.request.get((await csvLink.getAttribute("href"))!);
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\n");
    expect(lines[0]).toMatch(/^id,time,actorKind,actorName/);
    expect(lines.filter((l) => l.includes("access.refused") && l.includes("jobs.cancel"))).toHaveLength(1);
    const jsonl = await admin.request.get((await admin.getByRole("link", { name: "Export JSON lines" }).getAttribute("href"))!);
    const entries = (await jsonl.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { action: string; actorName: string; outcome: string });
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.actorName === "ana" && e.outcome === "refused")).toBe(true);
  });
});
