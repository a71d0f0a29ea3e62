/**
 * Every page of the portal: it loads without a request leaving the app's origin (the fixture
 * checks every test), and every control on it has an accessible name, as Chromium's
 * accessibility tree computes it (what screen readers announce and role locators find).
 */
import { expect, test } from "./fixtures";

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
  const submitted = await page.request.post("/api/trpc/jobs.submit", {
    data: { template: { format: "yaml", text: "specificationVersion: jobtemplate-2023-09\nname: a11y\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo, args: [hello]}\n" }, settings: { submitter: "e2e-a11y" } },
  });
  expect(submitted.ok()).toBe(true);
  const jobId = ((await submitted.json()) as { result: { data: { jobId: string } } }).result.data.jobId;
  for (const path of [...PAGES, `/jobs/${jobId}`]) {
    await page.goto(path);
    await expect(page.locator("main").first()).toBeVisible();
    await page.waitForLoadState("load");
    const tree = await page.locator("body").ariaSnapshot();
    expect(tree, `${path}: the snapshot lists the page's controls`).toMatch(/- (button|link) "/);
    const nameless = tree.split("\n").filter((line) => NAMELESS.test(line));
    expect(nameless, `${path}: controls without an accessible name\n${tree}`).toEqual([]);
  }
});
