/** Every page of the portal loads without a request leaving the app's origin (the fixture checks). */
import { expect, test } from "./fixtures";

const PAGES = ["/", "/jobs", "/submit", "/templates", "/editor", "/pools", "/workers", "/overview"];

test("every page loads from the app's own origin only", async ({ page, requests }) => {
  for (const path of PAGES) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBeLessThan(400);
    await expect(page.locator("main").first()).toBeVisible();
  }
  expect(requests.length).toBeGreaterThan(PAGES.length);
});
