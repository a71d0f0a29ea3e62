/**
 * What a wrangler (wes) is told about work that does not run (issue 11 points 3 and 8), on the
 * real farm with its two local workers: the "why isn't it running?" answer for a task behind a
 * running step and for a task no worker can run, a pending step that says a failed step blocks
 * it, a failed action's progress bar standing still, and the Workers page's timeline showing a
 * Session's environment setup apart from its task.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { statePath } from "./personas";
import { submitJob, trpcMutation, trpcQuery } from "./trpc";

test.use({ storageState: statePath("wes") });

const BEHIND_RUNNING = (name: string) => `specificationVersion: jobtemplate-2023-09
name: ${name}
jobEnvironments:
- name: Quick setup
  script:
    actions:
      onEnter: {command: sleep, args: ["1"]}
steps:
- name: Render
  script:
    actions:
      onRun: {command: sleep, args: ["40"]}
- name: Encode
  dependencies: [{dependsOn: Render}]
  script:
    actions:
      onRun: {command: echo, args: [encode]}
`;

const FAILING = (name: string) => `specificationVersion: jobtemplate-2023-09
name: ${name}
steps:
- name: Render
  script:
    actions:
      onRun: {command: sh, args: ["-c", "exit 3"]}
- name: Encode
  dependencies: [{dependsOn: Render}]
  script:
    actions:
      onRun: {command: echo, args: [encode]}
`;

const IMPOSSIBLE = (name: string) => `specificationVersion: jobtemplate-2023-09
name: ${name}
steps:
- name: Comp
  hostRequirements:
    attributes:
    - {name: attr.worker.os.family, anyOf: [windows]}
  script:
    actions:
      onRun: {command: echo, args: [comp]}
`;

interface JobView {
  status: string;
  steps: Array<{ id: string; name: string; status: string; counts: Record<string, number> }>;
}

async function stepOf(page: Page, jobId: string, name: string) {
  const job = await trpcQuery<JobView>(page.request, "jobs.get", { jobId });
  return job.steps.find((s) => s.name === name)!;
}

/** Focuses the first task of the step on screen and asks why it does not run. */
async function askWhy(page: Page, stepName: string) {
  const grid = page.getByRole("grid", { name: `Tasks of step ${stepName}` });
  await grid.getByRole("row").nth(1).click();
  await page.getByRole("button", { name: "Why isn't it running?" }).click();
  return page.getByRole("list", { name: /Reasons task 0 is not running/ });
}

test("a waiting task says why, a blocked step says what blocks it, a failed action's bar stands still, and the Workers page draws setup apart from tasks", async ({ page }, testInfo) => {
  const tag = randomUUID().slice(0, 8);
  const behind = await submitJob(page.request, { template: { text: BEHIND_RUNNING(`e2e-behind-${tag}`), format: "yaml" } });
  const failing = await submitJob(page.request, { template: { text: FAILING(`e2e-failing-${tag}`), format: "yaml" }, settings: { maxRetriesPerTask: 0 } });
  const impossible = await submitJob(page.request, { template: { text: IMPOSSIBLE(`e2e-impossible-${tag}`), format: "yaml" } });

  try {
    // A task behind a step that is still running.
    await expect.poll(async () => (await stepOf(page, behind, "Render")).counts.RUNNING, { timeout: 30_000 }).toBe(1);
    const encode = await stepOf(page, behind, "Encode");
    await page.goto(`/jobs/${behind}?step=${encode.id}`);
    const reasons = await askWhy(page, "Encode");
    await expect(reasons).toContainText("Waiting on step Render: 0 of 1 succeeded.");
    await expect(page.getByRole("button", { name: /^Step Encode/ })).toContainText("waiting for Render (0/1)");
    await page.screenshot({ path: testInfo.outputPath("why-waiting-dependency.png"), fullPage: true });

    // A task no worker can run: the requirement that fails is named.
    await page.goto(`/jobs/${impossible}`);
    const impossibleReasons = await askWhy(page, "Comp");
    await expect(impossibleReasons).toContainText("Not compatible");
    await expect(impossibleReasons).toContainText("attr.worker.os.family");
    await page.screenshot({ path: testInfo.outputPath("why-waiting-incompatible.png"), fullPage: true });

    // A step behind a failed step says it is blocked, in its graph node and its panel.
    await expect.poll(async () => (await stepOf(page, failing, "Render")).counts.FAILED, { timeout: 30_000 }).toBe(1);
    const blocked = await stepOf(page, failing, "Encode");
    await page.goto(`/jobs/${failing}?step=${blocked.id}`);
    await expect(page.getByRole("button", { name: /^Step Encode/ })).toContainText("blocked: Render failed");
    await expect(page.getByText("Pending: blocked: Render failed")).toBeVisible();
    const blockedReasons = await askWhy(page, "Encode");
    await expect(blockedReasons).toContainText("Will not run: step Render failed");

    // The failed action: a bar that stands still (a value, so not indeterminate) next to "no progress reported".
    const render = await stepOf(page, failing, "Render");
    const { tasks } = await trpcQuery<{ tasks: Array<{ id: number; sessionId: string | null }> }>(page.request, "jobs.tasks", { stepId: render.id });
    const sessions = await trpcQuery<Array<{ id: string }>>(page.request, "jobs.sessions", { jobId: failing, taskId: tasks[0]!.id });
    await page.goto(`/jobs/${failing}/sessions/${sessions[0]!.id}?task=${tasks[0]!.id}`);
    const panel = page.getByRole("region", { name: "Action status" });
    await expect(panel).toContainText("Failed");
    await expect(panel).toContainText("no progress reported");
    const bar = panel.getByRole("progressbar");
    await expect(bar).toHaveAttribute("value", "0");
    expect(await bar.evaluate((el) => el.matches(":indeterminate"))).toBe(false);
    await page.goto(`/jobs/${failing}?step=${render.id}`);
    await expect(page.getByRole("grid", { name: "Tasks of step Render" }).getByRole("row").nth(1)).toContainText("Failed");
    expect(await page.locator("progress:indeterminate").count(), "indeterminate (animated) bars on a job with nothing running").toBe(0);

    // The Workers page's timeline: the running job's Session, its environment setup apart from its task, linked to its page.
    await page.goto("/workers");
    const timeline = page.getByRole("region", { name: "Worker timeline" });
    const session = timeline.getByRole("link", { name: new RegExp(`job e2e-behind-${tag}`) });
    await expect(session).toBeVisible();
    await expect(session.locator('[data-kind="setup"]')).toHaveCount(1);
    await expect(session.locator('[data-kind="task"]')).toHaveCount(1);
    await expect(session.locator('[data-kind="setup"]')).toHaveAttribute("title", /^Environment setup · Succeeded/);
    await expect(session).toHaveAttribute("title", /setup 1\.\d s/);
    await timeline.getByRole("combobox", { name: "Window" }).selectOption({ label: "15 min" });
    await expect(session).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("worker-timeline.png"), fullPage: true });
    await session.click();
    await expect(page).toHaveURL(new RegExp(`/jobs/${behind}/sessions/session-`));
  } finally {
    for (const jobId of [behind, failing, impossible]) await trpcMutation(page.request, "jobs.cancel", { jobId });
  }
});
