/**
 * The wrangler's day (wes, signed in): jobs submitted through the API (as `loom submit` or a pipeline would)
 * while the job table is open, found there live, opened, canceled with confirmation; and a job
 * whose even frames fail gets its failed tasks selected in bulk and retried. The failure depends
 * on a marker file the test creates before retrying, so a retried task can only succeed by
 * running again, which the test checks in the job's Sessions too.
 */
import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { statePath } from "./personas";
import { submitJob, trpcQuery } from "./trpc";

test.use({ storageState: statePath("wes") });

const LONG = (name: string) => `specificationVersion: jobtemplate-2023-09
name: ${name}
steps:
- name: Sleep
  script:
    actions:
      onRun:
        command: sleep
        args: ["600"]
`;

const FLAKY = (name: string) => `specificationVersion: jobtemplate-2023-09
name: ${name}
parameterDefinitions:
- name: Marker
  type: STRING
steps:
- name: Frames
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-6"
  script:
    actions:
      onRun:
        command: bash
        args:
        - "-c"
        - |
          if [ $(( {{Task.Param.Frame}} % 2 )) -eq 0 ] && [ ! -e "{{Param.Marker}}" ]; then echo "frame {{Task.Param.Frame}} fails"; exit 1; fi
          echo "frame {{Task.Param.Frame}} ok"
`;

const submit = (request: APIRequestContext, text: string, parameterValues: Record<string, string> = {}) =>
  submitJob(request, { template: { text, format: "yaml" }, parameterValues, settings: { maxRetriesPerTask: 0 } });

test("a wrangler cancels a running job and retries failed tasks in bulk", async ({ page }, testInfo) => {
  const tag = randomUUID().slice(0, 8);
  const marker = join(tmpdir(), `loom-e2e-marker-${tag}`);
  rmSync(marker, { force: true });
  const longName = `e2e-long-${tag}`;
  const flakyName = `e2e-flaky-${tag}`;

  // The job table, searched by name before the job exists: its row appears when it is submitted
  // and turns Running, without a reload; then it is opened by keyboard.
  await page.goto("/jobs");
  await page.getByRole("searchbox", { name: "Search" }).fill(longName);
  await expect(page).toHaveURL(new RegExp(`q=${longName}`));
  const jobs = page.getByRole("table", { name: "Jobs" });
  await expect(jobs).toContainText("No jobs match this view.");
  await expect(page.getByText("Live", { exact: true })).toBeVisible();
  const longId = await submit(page.request, LONG(longName));
  const flakyId = await submit(page.request, FLAKY(flakyName), { Marker: marker });
  const row = jobs.getByRole("row").filter({ hasText: longName });
  await expect(row).toHaveCount(1);
  await expect(row.getByText("Running", { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath("jobs-table.png"), fullPage: true });
  await row.getByRole("link", { name: longName }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/jobs/${longId}`));

  // Cancel it, confirming in the dialog; the page shows CANCELED as it happens.
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toContainText(longName);
  await expect(heading).toContainText("Running");
  await page.getByRole("group", { name: "Job actions" }).getByRole("button", { name: "Cancel", exact: true }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Cancel job ${longName}`);
  await dialog.getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page.getByRole("group", { name: "Job actions" }).getByRole("status")).toContainText("Canceled 1 task");
  await expect(heading).toContainText("Canceled");
  // Canceled is not "done": the bar and the counts say what ended how.
  await expect(page.getByRole("img", { name: `Job ${longName}: 0% succeeded · 1 canceled; 1 canceled` })).toBeVisible();
  await expect(page.getByText("1 (0% succeeded · 1 canceled)")).toBeVisible();
  await expect(page.getByRole("grid", { name: "Tasks of step Sleep" }).getByRole("row").nth(1)).toContainText("Canceled");

  // A view kept in the URL: failed jobs of this submitter (wes: a job's submitter is who submitted it).
  await page.goto(`/jobs?status=FAILED&submitter=wes`);
  await expect(page.getByRole("button", { name: "My jobs" })).toHaveAttribute("aria-pressed", "true");
  const failedRow = page.getByRole("table", { name: "Jobs" }).getByRole("row").filter({ hasText: flakyName });
  await expect(failedRow).toHaveCount(1, { timeout: 60_000 });
  await failedRow.getByRole("link", { name: flakyName }).click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${flakyId}`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Failed");

  // Only the failed tasks, all of them selected from the keyboard.
  const grid = page.getByRole("grid", { name: "Tasks of step Frames" });
  await expect(grid.getByRole("row").filter({ hasText: "Succeeded" })).toHaveCount(3);
  await page.getByLabel("Show tasks").selectOption("FAILED");
  await expect(grid.getByRole("row").filter({ hasText: "Failed" })).toHaveCount(3);
  await grid.focus();
  await page.keyboard.press("ControlOrMeta+a");
  await expect(page.getByText("3 selected", { exact: true })).toBeVisible();
  await expect(grid.locator('[role="row"][aria-selected="true"]')).toHaveCount(3);

  // The fix is in place before retrying: only a real re-run can succeed now.
  writeFileSync(marker, "fixed\n");
  const selectedActions = page.getByRole("group", { name: "Selected task actions" });
  await selectedActions.getByRole("button", { name: "Retry failed" }).click();
  await expect(page.getByRole("dialog")).toContainText("Retry failed 3 selected tasks of step Frames");
  await page.getByRole("dialog").getByRole("button", { name: "Yes, retry failed" }).click();
  await expect(selectedActions.getByRole("status")).toContainText("Retried 3 tasks");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Succeeded", { timeout: 60_000 });

  // Each even frame ran twice: first failed, then succeeded; odd frames ran once (runs queued
  // behind a failure in the same Session are NEVER_ATTEMPTED and ran later: not attempts).
  const sessions = await trpcQuery<Array<{ actions: Array<{ kind: string; taskId: number | null; status: string }> }>>(page.request, "jobs.sessions", { jobId: flakyId });
  const tasks = await trpcQuery<{ tasks: Array<{ id: number; parameters: { Frame: { value: string } } }> }>(page.request, "jobs.tasks", {
    stepId: (await trpcQuery<{ steps: Array<{ id: string }> }>(page.request, "jobs.get", { jobId: flakyId })).steps[0]!.id,
  });
  const runs = sessions.flatMap((s) => s.actions).filter((a) => a.kind === "TASK_RUN" && a.status !== "NEVER_ATTEMPTED");
  for (const task of tasks.tasks) {
    const frame = Number(task.parameters.Frame.value);
    const statuses = runs.filter((a) => a.taskId === task.id).map((a) => a.status);
    expect(statuses, `frame ${frame}`).toEqual(frame % 2 === 0 ? ["FAILED", "SUCCEEDED"] : ["SUCCEEDED"]);
  }
  rmSync(marker, { force: true });
});
