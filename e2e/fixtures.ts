/**
 * The `test` every end-to-end file uses. Each test fails when:
 * - a request leaves the app's own origin (no CDN, no remote font, no telemetry);
 * - the browser reports a Content Security Policy violation (the portal's pages carry a strict
 *   CSP, server/api/security-headers.ts: Monaco, React Flow and Next.js must all work under it).
 * It keeps a full-page screenshot of where each test ended as an artifact (test-results/), and
 * offers `personaPage(name)`: a page signed in as another persona, for tests with two people.
 */
import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { statePath, type PersonaName } from "./personas";

const CSP_MESSAGE = /Content[- ]Security[- ]Policy/i;

export const test = base.extend<{ requests: string[]; cspViolations: string[]; finalScreenshot: void; personaPage: (name: PersonaName) => Promise<Page> }>({
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
  cspViolations: [
    async ({ context }, use) => {
      const violations: string[] = [];
      context.on("console", (message) => {
        if (CSP_MESSAGE.test(message.text())) violations.push(`${message.page()?.url() ?? "?"}: ${message.text()}`);
      });
      await use(violations);
      expect(violations, "Content Security Policy violations reported by the browser").toEqual([]);
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
  personaPage: async ({ browser, baseURL, viewport }, use) => {
    const contexts: BrowserContext[] = [];
    const violations: string[] = [];
    await use(async (name) => {
      const context = await browser.newContext({ baseURL, viewport, storageState: statePath(name) });
      contexts.push(context);
      context.on("console", (message) => {
        if (CSP_MESSAGE.test(message.text())) violations.push(`${name}: ${message.text()}`);
      });
      return context.newPage();
    });
    for (const context of contexts) await context.close();
    expect(violations, "Content Security Policy violations reported by the browser").toEqual([]);
  },
});

export { expect };
