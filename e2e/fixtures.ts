/**
 * The `test` every end-to-end file uses. Each test fails when:
 * - a request leaves the app's own origin (no CDN, no remote font, no telemetry);
 * - the browser reports a Content Security Policy violation (the portal's pages carry a strict
 *   CSP, server/api/security-headers.ts: Monaco, React Flow and Next.js must all work under it);
 * - any page logs a console error or throws an uncaught error (issue 11: React's #418, a
 *   server/browser render mismatch, was logged on every live Session page and no test saw it).
 *   A test that expects one exact error (a 404 page's own resource load) says so with
 *   `allowConsoleError`, for that text on that address only.
 * - it leaves one of the farm's two local workers drained or disabled: every later spec shares
 *   them, and a spec expecting both (a retry going to the other worker) failed far from the
 *   cause. The fixture puts the worker back, so only the test that left it fails.
 * It keeps a full-page screenshot of where each test ended as an artifact (test-results/), and
 * offers `personaPage(name)`: a page signed in as another persona, for tests with two people.
 */
import { test as base, expect, type BrowserContext, type ConsoleMessage, type Page } from "@playwright/test";
import { statePath, type PersonaName } from "./personas";
import { tokenApi, trpcMutation, trpcQuery } from "./trpc";

const CSP_MESSAGE = /Content[- ]Security[- ]Policy/i;

/**
 * One console error a test expects: its exact text, about exactly `url` (for "Failed to load
 * resource", the address that answered the error: a 404 page's own address, or the API call a
 * test makes to prove a refusal).
 */
export interface AllowedConsoleError {
  text: string;
  url: string;
}

const STATUS_TEXT = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict", 429: "Too Many Requests" } as const;

/** Chromium's console error for a response of `status` from `url`, for `allowConsoleError`. */
export function failedLoad(status: keyof typeof STATUS_TEXT, url: string): AllowedConsoleError {
  return { text: `Failed to load resource: the server responded with a status of ${status} (${STATUS_TEXT[status]})`, url };
}

interface Watch {
  csp: string[];
  errors: string[];
  allowed: AllowedConsoleError[];
}

/** Where a message came from: the page, and the resource it is about when that is another address. */
function origins(message: ConsoleMessage): string {
  const page = message.page()?.url() ?? "?";
  const about = message.location().url;
  return about && about !== page ? `${page} (${about})` : page;
}

/** Records what a browser context's pages report: CSP violations apart, and every other console error or uncaught error. */
function watch(context: BrowserContext, label: string, into: Watch): void {
  context.on("console", (message) => {
    const text = message.text();
    if (CSP_MESSAGE.test(text)) into.csp.push(`${label}${origins(message)}: ${text}`);
    else if (message.type() === "error" && !into.allowed.some((a) => a.text === text && a.url === message.location().url)) into.errors.push(`${label}${origins(message)}: ${text}`);
  });
  context.on("weberror", (error) => into.errors.push(`${label}${error.page()?.url() ?? "?"}: uncaught ${error.error().stack ?? error.error().message}`));
}

function check(seen: Watch): void {
  expect(seen.csp, "Content Security Policy violations reported by the browser").toEqual([]);
  expect(seen.errors, "console errors and uncaught errors in the browser").toEqual([]);
}

interface FarmWorker {
  id: string;
  name: string;
  drain: string | null;
  disabled: boolean;
}

/**
 * The local workers a test left drained or disabled, each put back (as the local admin, whose
 * token `loom serve` keeps in the data folder), so the next spec finds the farm as it was.
 */
async function restoreWorkers(): Promise<string[]> {
  const api = await tokenApi();
  try {
    const left: string[] = [];
    for (const worker of await trpcQuery<FarmWorker[]>(api, "workers.list", {})) {
      if (worker.drain !== null) {
        left.push(`${worker.name} drained (${worker.drain})`);
        await trpcMutation(api, "workers.undrain", { workerId: worker.id });
      }
      if (worker.disabled) {
        left.push(`${worker.name} disabled`);
        await trpcMutation(api, "workers.setDisabled", { workerId: worker.id, disabled: false });
      }
    }
    return left;
  } finally {
    await api.dispose();
  }
}

export const test = base.extend<{
  requests: string[];
  browserReports: Watch;
  allowConsoleError: (allowed: AllowedConsoleError) => void;
  finalScreenshot: void;
  farmLeftAsFound: void;
  personaPage: (name: PersonaName) => Promise<Page>;
}>({
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
  browserReports: [
    async ({ context }, use) => {
      const seen: Watch = { csp: [], errors: [], allowed: [] };
      watch(context, "", seen);
      await use(seen);
      check(seen);
    },
    { auto: true },
  ],
  allowConsoleError: async ({ browserReports }, use) => {
    await use((allowed) => browserReports.allowed.push(allowed));
  },
  // A fixture, not an afterEach hook: a hook registered in this shared module would apply to
  // the first spec file that imports it only.
  finalScreenshot: [
    async ({ page }, use, testInfo) => {
      await use();
      await page.screenshot({ path: testInfo.outputPath("final.png"), fullPage: true });
    },
    { auto: true },
  ],
  farmLeftAsFound: [
    async ({}, use, testInfo) => {
      await use();
      if (testInfo.project.name === "personas") return;
      expect(await restoreWorkers(), "workers this test left drained or disabled (put back for the next spec)").toEqual([]);
    },
    { auto: true },
  ],
  personaPage: async ({ browser, baseURL, viewport, browserReports }, use) => {
    const contexts: BrowserContext[] = [];
    const seen: Watch = { csp: [], errors: [], allowed: browserReports.allowed };
    await use(async (name) => {
      const context = await browser.newContext({ baseURL, viewport, storageState: statePath(name) });
      contexts.push(context);
      watch(context, `${name}: `, seen);
      return context.newPage();
    });
    for (const context of contexts) await context.close();
    check(seen);
  },
});

export { expect };
