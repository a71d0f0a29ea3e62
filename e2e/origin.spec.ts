/**
 * Every page of the portal, as the admin (who has every control) and as a viewer: it loads
 * without a request leaving the app's origin or a Content Security Policy violation (the
 * fixtures check every test), and every control on it has an accessible name, as Chromium's
 * accessibility tree computes it (what screen readers announce and role locators find).
 */
import { expect, test } from "./fixtures";
import { statePath } from "./personas";
import { submitJob, tokenApi, trpcQuery } from "./trpc";

const PAGES = ["/overview", "/jobs", "/submit", "/templates", "/editor", "/pools", "/workers", "/account", "/admin/users", "/admin/audit", "/admin/retention"];
const ADMIN_PAGES = ["/admin/users", "/admin/audit", "/admin/retention"];

test.use({ storageState: statePath("ada") });

/** Interactive roles that must be named; a line like `- button` (no quoted name) is a nameless one. */
const CONTROL_ROLES = ["button", "link", "textbox", "combobox", "checkbox", "radio", "spinbutton", "slider", "switch", "searchbox", "listbox", "tab", "menuitem", "option"];
const NAMELESS = new RegExp(`^\\s*- (${CONTROL_ROLES.join("|")})(\\s*\\[[^\\]]*\\])*\\s*(:.*)?$`);

test("every page loads from the app's own origin only", async ({ page, requests }) => {
  for (const path of ["/", ...PAGES]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(400);
    await expect(page.locator("main").first()).toBeVisible();
  }
  expect(requests.length).toBeGreaterThan(PAGES.length);
});

test("a viewer reads every page; the admin pages and submitting say which role they need", async ({ personaPage }) => {
  const vic = await personaPage("vic");
  for (const path of PAGES) {
    const response = await vic.goto(path);
    expect(response?.status(), path).toBeLessThan(400);
    await expect(vic.locator("main").first()).toBeVisible();
  }
  for (const path of ADMIN_PAGES) {
    await vic.goto(path);
    await expect(vic.getByRole("heading", { level: 2 }).filter({ hasText: /needs the admin role$/ }), path).toBeVisible();
  }
  await vic.goto("/submit");
  await expect(vic.getByRole("heading", { name: "Submitting jobs needs the artist role" })).toBeVisible();
  await expect(vic.getByLabel("Template file")).toHaveCount(0);
  // The export behind the audit page is refused to a viewer too.
  expect((await vic.request.get("/api/audit/export?format=csv")).status()).toBe(403);
});

test("every control on every page has an accessible name", async ({ page }) => {
  // A job, so the job page and its Session page have their controls too: submitted by a script
  // with the local admin's token (as `npx loom submit` on the server's machine does).
  const script = await tokenApi();
  const jobId = await submitJob(script, {
    template: { format: "yaml", text: "specificationVersion: jobtemplate-2023-09\nname: a11y\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo, args: [hello]}\n" },
  });
  await script.dispose();
  let sessionId: string | undefined;
  await expect
    .poll(async () => {
      sessionId = (await trpcQuery<Array<{ id: string }>>(page.request, "jobs.sessions", { jobId }))[0]?.id;
      return sessionId;
    })
    .toBeDefined();
  for (const path of [...PAGES, `/jobs/${jobId}`, `/jobs/${jobId}/sessions/${sessionId}`]) {
    await page.goto(path);
    await expect(page.locator("main").first()).toBeVisible();
    await page.waitForLoadState("load");
    const tree = await page.locator("body").ariaSnapshot();
    expect(tree, `${path}: the snapshot lists the page's controls`).toMatch(/- (button|link) "/);
    const nameless = tree.split("\n").filter((line) => NAMELESS.test(line));
    expect(nameless, `${path}: controls without an accessible name\n${tree}`).toEqual([]);
  }
});
