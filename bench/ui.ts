/**
 * `npm run bench:ui [-- --port 3114 --runs 5 --rate 10000 --seconds 5]`: the portal in headless
 * Chromium against `loom serve` (production build in LOOM_NEXT_DIST_DIR, a fresh data folder, no
 * local workers), signed in as the farm's first person (an admin) in every browser context.
 *
 * (a) Job page: a 10,000-task job (9,000 render tasks in a 1,000 × 9 space, 1,000 composites),
 *     READY. Time from navigation start until the step graph and the first task row are drawn
 *     and a button is hydrated, median of --runs cold page loads (fresh context, warm server).
 *     Baseline in the same run: the app's not-found page (layout and navigation only) until its
 *     navigation is hydrated; reported as a ratio. Goal ≤ 1.5 s.
 * (b) Log viewer: a simulated worker holds a task and uploads --rate lines per second for
 *     --seconds through the worker API while its Session page is open in follow mode. Main-thread
 *     long tasks are counted from the first upload until the last line is on screen. Goals: no
 *     long task over 200 ms, the last line shown within 1 s of the last upload.
 *
 * Prints one line per figure; the last line is one JSON object with the figures, goals and met.
 */
import { chromium } from "@playwright/test";
import { serverEnv } from "../server/env";
import { round, sleep, tempFolder } from "./farm-bench-support";
import { numberFlag } from "./number-flag";
import { median } from "./interleaved-rounds";
import { longTasksSince, observedPage, timeToInteractive, untilInPage, type Readiness } from "./ui-browser";
import { bigJob, LogWorker, serveFarm, submit } from "./ui-farm";

const args = process.argv.slice(2);
const port = numberFlag(args, "--port", 3114);
const runs = numberFlag(args, "--runs", 5);
const rate = numberFlag(args, "--rate", 10_000);
const seconds = numberFlag(args, "--seconds", 5);
const GOALS = { jobPageInteractiveMs: 1500, maxLongTaskMs: 200, lastLineLagMs: 1000 };

const JOB_PAGE: Readiness = {
  visible: [".react-flow__node", 'main [role="row"] [role="gridcell"]:not(.loading-row)'],
  button: "main button",
};
const BLANK_PAGE: Readiness = { visible: ["nav"], button: "nav a" };

const LOG_JOB = `specificationVersion: jobtemplate-2023-09
name: bench-ui-log
steps:
- name: Chatty
  script:
    actions:
      onRun: {command: "true"}
`;

const lineText = (n: number) => `[bench] line ${String(n).padStart(9, "0")} render tile ${n % 16}/16 samples 512 rays ${(n * 7919) % 1_000_003} done`;

async function main(): Promise<void> {
  const data = tempFolder("loom-bench-ui-");
  const farm = await serveFarm(port, data.path, serverEnv().LOOM_NEXT_DIST_DIR);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  try {
    const bigJobId = await submit(farm, bigJob("bench-ui-10k", 1000, 9), { priority: 10 });

    // (a) Job page vs the app's blank page, alternating, after one unmeasured load of each.
    const jobUrl = `${farm.url}/jobs/${bigJobId}`;
    const blankUrl = `${farm.url}/bench-ui-blank-page`;
    await timeToInteractive(browser, blankUrl, farm.sessionCookie, BLANK_PAGE);
    await timeToInteractive(browser, jobUrl, farm.sessionCookie, JOB_PAGE);
    const jobRuns: Array<number | null> = [];
    const blankRuns: Array<number | null> = [];
    for (let i = 0; i < runs; i++) {
      jobRuns.push(await timeToInteractive(browser, jobUrl, farm.sessionCookie, JOB_PAGE));
      blankRuns.push(await timeToInteractive(browser, blankUrl, farm.sessionCookie, BLANK_PAGE));
    }
    const jobMs = jobRuns.every((r) => r !== null) ? round(median(jobRuns as number[]), 1) : null;
    const blankMs = blankRuns.every((r) => r !== null) ? round(median(blankRuns as number[]), 1) : null;
    console.log(
      `job page (10,000 tasks) interactive: ${jobMs === null ? "never (graph, task rows or a hydrated button missing)" : `median ${jobMs} ms`} [${jobRuns.map((r) => (r === null ? "—" : Math.round(r))).join(", ")}] (goal ≤ ${GOALS.jobPageInteractiveMs} ms)`,
    );
    console.log(`blank page of the app interactive (baseline): median ${blankMs ?? "—"} ms; job page / baseline = ${jobMs !== null && blankMs ? round(jobMs / blankMs) : "—"}`);

    // (b) The Session page following while lines pour in. The worker joins now: no heartbeat was due before.
    const logJobId = await submit(farm, LOG_JOB, { priority: 90 });
    const worker = new LogWorker(farm.url, farm.token);
    await worker.start();
    const heartbeat = setInterval(() => void worker.heartbeat().catch(() => undefined), 5000);
    const page = await observedPage(browser, `${farm.url}/jobs/${logJobId}/sessions/${worker.sessionId}`, farm.sessionCookie);
    await page.getByRole("log", { name: "Log lines" }).waitFor();
    await page.getByText(/lines · Live/).waitFor({ timeout: 20_000 });
    const since = (await page.evaluate("performance.now()")) as number;
    const total = Math.round(rate * seconds);
    const started = Date.now();
    while (worker.sent < total) {
      const due = Math.min(total, Math.round(((Date.now() - started) / 1000) * rate));
      // At most 5,000 lines a request (protocol limit); pace to the wall clock.
      if (due > worker.sent) await worker.upload(Math.min(5000, due - worker.sent), lineText);
      else await sleep(10);
    }
    const ended = Date.now();
    clearInterval(heartbeat);
    const last = lineText(total - 1);
    const shown = await untilInPage(page, `document.querySelector('[role="log"]')?.textContent.includes(${JSON.stringify(last)})`, 30_000);
    const lagMs: number | null = shown ? Date.now() - ended : null;
    const longTasks = await longTasksSince(page, since);
    const shownText =
      (await page
        .getByText(/lines · /)
        .first()
        .textContent()) ?? "";
    const linesShown = Number(/([\d,]+) lines/.exec(shownText)?.[1]?.replace(/,/g, "") ?? "NaN");
    const following = (await page.getByRole("button", { name: /^Follow/ }).getAttribute("aria-pressed")) === "true";
    const ingestSeconds = (ended - started) / 1000;
    const maxLongTask = longTasks.length ? Math.max(...longTasks) : 0;
    console.log(`log ingest: ${total} lines in ${round(ingestSeconds)} s (${Math.round(total / ingestSeconds)} lines/s, target ${rate})`);
    console.log(
      `log viewer: last line on screen ${lagMs === null ? "never (30 s)" : `${lagMs} ms`} after the last upload (goal ≤ ${GOALS.lastLineLagMs} ms); ${linesShown} lines held; still following: ${following}`,
    );
    console.log(
      `main-thread long tasks while following: ${longTasks.length}, longest ${round(maxLongTask, 1)} ms, total ${round(
        longTasks.reduce((a, b) => a + b, 0),
        1,
      )} ms (goal: none over ${GOALS.maxLongTaskMs} ms)`,
    );

    const met = {
      jobPage: jobMs !== null && jobMs <= GOALS.jobPageInteractiveMs,
      longTasks: maxLongTask <= GOALS.maxLongTaskMs,
      lastLine: lagMs !== null && lagMs <= GOALS.lastLineLagMs,
    };
    console.log(
      JSON.stringify({
        jobPage: {
          tasks: 10_000,
          medianMs: jobMs,
          runsMs: jobRuns.map((r) => (r === null ? null : round(r, 1))),
          baselineMedianMs: blankMs,
          ratioToBaseline: jobMs !== null && blankMs ? round(jobMs / blankMs) : null,
        },
        logViewer: {
          lines: total,
          ingestSeconds: round(ingestSeconds),
          linesPerSecond: Math.round(total / ingestSeconds),
          lastLineLagMs: lagMs,
          linesShown,
          following,
          longTasks: longTasks.length,
          maxLongTaskMs: round(maxLongTask, 1),
        },
        goals: GOALS,
        met: { ...met, all: met.jobPage && met.longTasks && met.lastLine },
      }),
    );
  } finally {
    await browser.close();
    await farm.stop();
    data.remove();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
