/**
 * Every page of the portal: it loads without a request leaving the app's origin (the fixture
 * checks every test), and every control on it has an accessible name, as Chromium's
 * accessibility tree computes it (what screen readers announce and role locators find).
 */
import { expect, test } from "./fixtures";
import { submitJob, trpcQuery } from "./trpc";

const PAGES = ["/overview", "/jobs", "/submit", "/templates", "/editor", "/pools", "/workers"];

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

test("every control on every page has an accessible name", async ({ page }) => {
  // A job, so the job page and its Session page have their controls too.
  const jobId = await submitJob(page.request, {
    template: { format: "yaml", text: "specificationVersion: jobtemplate-2023-09\nname: a11y\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo, args: [hello]}\n" },
    settings: { submitter: "e2e-a11y" },
  });
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
