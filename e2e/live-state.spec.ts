/**
 * Live state that matches what runs (issue 11), as a wrangler (wes) sees it on the job page: a
 * job environment whose setup takes a few seconds shows as "Entering <name>" on the tasks that
 * wait on it, and every task shows Running within a second of the moment its worker started it
 * (the worker's own start time, which the API gives), also the tasks that came to a worker in
 * the answer to its previous task's end.
 */
import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { statePath } from "./personas";
import { submitJob, trpcQuery } from "./trpc";

test.use({ storageState: statePath("wes") });

// A job of about 30 s on the e2e farm's two workers: 5 s of setup, then two 12 s tasks on each.
const TASKS = 4;
const TASK_SECONDS = 12;

const TEMPLATE = (name: string) => `specificationVersion: jobtemplate-2023-09
name: ${name}
jobEnvironments:
- name: Slow setup
  script:
    actions:
      onEnter:
        command: sleep
        args: ["5"]
steps:
- name: Shots
  parameterSpace:
    taskParameterDefinitions:
    - name: Shot
      type: INT
      range: "1-${TASKS}"
  script:
    actions:
      onRun:
        command: sleep
        args: ["${TASK_SECONDS}"]
`;

interface TaskRow {
  index: number;
  status: string;
  startedAt: number | null;
}

test("an environment setup shows as such, and every task of a 30 s job shows Running within a second of its start", async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const name = `e2e-live-${randomUUID().slice(0, 8)}`;
  const jobId = await submitJob(page.request, { template: { text: TEMPLATE(name), format: "yaml" } });
  await page.goto(`/jobs/${jobId}`);
  const grid = page.getByRole("grid", { name: "Tasks of step Shots" });
  await expect(grid.getByRole("row")).toHaveCount(TASKS + 1);

  // Record, in the page, when each task's row first says Running (the page's clock is this machine's).
  await page.evaluate(`(() => {
    window.__runningSeenAt = {};
    const look = () => {
      for (const row of document.querySelectorAll('[role="grid"] [role="row"]')) {
        const cells = row.querySelectorAll('[role="gridcell"]');
        if (cells.length < 2) continue;
        const index = cells[0].textContent.trim();
        if (!(index in window.__runningSeenAt) && cells[1].textContent.includes("Running")) window.__runningSeenAt[index] = Date.now();
      }
      requestAnimationFrame(look);
    };
    look();
  })()`);

  // The setup runs 5 s: the tasks waiting on it say so, with the environment's name and a growing time.
  const firstRow = grid.getByRole("row").nth(1);
  await expect(firstRow).toContainText(/Entering Slow setup, \d/, { timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath("entering-environment.png"), fullPage: true });

  await expect(page.getByRole("heading", { level: 1 })).toContainText("Succeeded", { timeout: 90_000 });
  const stepId = (await trpcQuery<{ steps: Array<{ id: string }> }>(page.request, "jobs.get", { jobId })).steps[0]!.id;
  const { tasks } = await trpcQuery<{ tasks: TaskRow[] }>(page.request, "jobs.tasks", { stepId });
  const seen = (await page.evaluate("window.__runningSeenAt")) as Record<string, number>;
  const lags = tasks.map((task) => ({ task: task.index, lagMs: (seen[String(task.index)] ?? Number.POSITIVE_INFINITY) - (task.startedAt ?? Number.NaN) }));
  testInfo.annotations.push({ type: "running-lag", description: JSON.stringify(lags) });
  for (const { task, lagMs } of lags) expect(lagMs, `task ${task}: Running shown ${lagMs} ms after it started`).toBeLessThan(1_000);
});
