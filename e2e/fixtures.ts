/**
 * The `test` every end-to-end file uses: it records every request the browser makes and fails
 * the test when one leaves the app's own origin (no CDN, no remote font, no telemetry), and it
 * keeps a full-page screenshot of where each test ended as an artifact (test-results/).
 */
import { test as base, expect } from "@playwright/test";

export const test = base.extend<{ requests: string[]; finalScreenshot: void }>({
  requests: [
    async ({ context, baseURL }, use, testInfo) => {
      const seen: string[] = [];
      context.on("request", (request) => seen.push(request.url()));
      await use(seen);
      const origin = new URL(baseURL as string).origin;
      const foreign = seen.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("blob:"));
      await testInfo.attach("requests.txt", { body: seen.join("\n"), contentType: "text/plain" });
      expect(foreign, `requests that left ${origin}`).toEqual([]);
    },
    { auto: true },
  ],
  // A fixture, not an afterEach hook: a hook registered in this shared module would apply to
  // the first spec file that imports it only.
  finalScreenshot: [
    async ({ page }, use, testInfo) => {
      await use();
      await page.screenshot({ path: testInfo.outputPath("final.png"), fullPage: true });
    },
    { auto: true },
  ],
});

export { expect };
