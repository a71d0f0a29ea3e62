/**
 * bench:ui's measurements inside headless Chromium. Scripts run in the page before the app's
 * own: one watches every animation frame for the moment a page is interactive (its landmarks
 * drawn and a button hydrated — React has attached its props, so a click does something), one
 * records main-thread long tasks with a PerformanceObserver.
 */
import type { Browser, Page } from "@playwright/test";

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

/**
 * Milliseconds from navigation start until `readiness` holds, in a fresh context (cold page,
 * warm server); null when it does not hold within `timeoutMs`.
 */
export async function timeToInteractive(browser: Browser, url: string, readiness: Readiness, timeoutMs = 20_000): Promise<number | null> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: readinessScript(readiness) });
    await page.goto(url, { waitUntil: "commit" });
    try {
      await page.waitForFunction("window.__benchReadyAt !== undefined", undefined, { timeout: timeoutMs, polling: 100 });
    } catch {
      return null;
    }
    return (await page.evaluate("window.__benchReadyAt")) as number;
  } finally {
    await context.close();
  }
}

/** A page with the long-task observer installed before the app loads. */
export async function observedPage(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript({ content: LONG_TASKS_SCRIPT });
  await page.goto(url);
  return page;
}

/** Long tasks that started at or after `since` (page clock). */
export async function longTasksSince(page: Page, since: number): Promise<number[]> {
  return (await page.evaluate(`(window.__benchLongTasks || []).filter((t) => t.start >= ${Number(since)}).map((t) => t.duration)`)) as number[];
}
