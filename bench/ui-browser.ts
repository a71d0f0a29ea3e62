/**
 * bench:ui's measurements inside headless Chromium. Scripts run in the page before the app's
 * own: one watches every animation frame for the moment a page is interactive (its landmarks
 * drawn and a button hydrated — React has attached its props, so a click does something), one
 * records main-thread long tasks with a PerformanceObserver. Every context carries the signed-in
 * person's session cookie (pages redirect anyone else to /login).
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { SESSION_COOKIE } from "../server/auth/authenticate";

/** What makes a page interactive, as CSS selectors that must all be present. */
export interface Readiness {
  /** Each must match a visible element. */
  visible: string[];
  /** A button matching this must be enabled and hydrated. */
  button: string;
}

// Page scripts are plain text: functions compiled by tsx carry helpers (__name) the page lacks.

/** Installed before navigation: records performance.now() (ms since navigation start) of the first ready frame. */
function readinessScript(readiness: Readiness): string {
  return `(() => {
    const readiness = ${JSON.stringify(readiness)};
    const shown = (selector) => {
      const el = document.querySelector(selector);
      if (!el) return false;
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.height > 0;
    };
    const hydrated = (el) => Object.keys(el).some((key) => key.startsWith("__reactProps$") && typeof el[key]?.onClick === "function");
    const check = () => {
      const button = [...document.querySelectorAll(readiness.button)].find((b) => !b.disabled && hydrated(b));
      if (button && readiness.visible.every(shown)) {
        window.__benchReadyAt = performance.now();
        return;
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })();`;
}

const LONG_TASKS_SCRIPT = `(() => {
  window.__benchLongTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__benchLongTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: "longtask", buffered: true });
})();`;

/** A fresh context signed in with `sessionCookie` (the `loom_session` value) for `url`'s origin. */
async function signedInContext(browser: Browser, url: string, sessionCookie: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addCookies([{ name: SESSION_COOKIE, value: sessionCookie, url: new URL(url).origin, httpOnly: true, sameSite: "Lax" }]);
  return context;
}

/**
 * Milliseconds from navigation start until `readiness` holds, in a fresh signed-in context
 * (cold page, warm server); null when it does not hold within `timeoutMs`.
 */
export async function timeToInteractive(browser: Browser, url: string, sessionCookie: string, readiness: Readiness, timeoutMs = 20_000): Promise<number | null> {
  const context = await signedInContext(browser, url, sessionCookie);
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: readinessScript(readiness) });
    await page.goto(url, { waitUntil: "commit" });
    try {
      if (!(await untilInPage(page, "window.__benchReadyAt !== undefined", timeoutMs))) return null;
    } finally {
      notSentToSignIn(page);
    }
    return (await page.evaluate("window.__benchReadyAt")) as number;
  } finally {
    await context.close();
  }
}

/**
 * Resolves true on the first animation frame where `condition` (a page expression) holds, false
 * after `timeoutMs`. Not page.waitForFunction: that compiles its predicate with eval inside the
 * page, which the portal's Content-Security-Policy (no 'unsafe-eval') refuses, so it never resolves.
 */
export async function untilInPage(page: Page, condition: string, timeoutMs: number): Promise<boolean> {
  return (await page.evaluate(`new Promise((resolve) => {
    const deadline = performance.now() + ${Number(timeoutMs)};
    const check = () => {
      if (${condition}) resolve(true);
      else if (performance.now() > deadline) resolve(false);
      else requestAnimationFrame(check);
    };
    check();
  })`)) as boolean;
}

/** A page with the long-task observer installed before the app loads. */
export async function observedPage(browser: Browser, url: string, sessionCookie: string): Promise<Page> {
  const context = await signedInContext(browser, url, sessionCookie);
  const page = await context.newPage();
  await page.addInitScript({ content: LONG_TASKS_SCRIPT });
  await page.goto(url);
  notSentToSignIn(page);
  return page;
}

/** A page the server sent to /login would measure the sign-in form, not the page asked for. */
function notSentToSignIn(page: Page): void {
  if (new URL(page.url()).pathname === "/login") throw new Error(`${page.url()}: redirected to sign in (the session cookie was not accepted)`);
}

/** Long tasks that started at or after `since` (page clock). */
export async function longTasksSince(page: Page, since: number): Promise<number[]> {
  return (await page.evaluate(`(window.__benchLongTasks || []).filter((t) => t.start >= ${Number(since)}).map((t) => t.duration)`)) as number[];
}
