/**
 * The job page a wrangler wants (issue 11, point 7), on the README's 12-step sample
 * (task-parameter-definition-showcase.yaml): every step name readable at the default zoom
 * (screenshot kept in test-results/), the job's parameter values, worker names rather than ids,
 * a task table that sorts by a parameter and by worker as the data says, above the fold on
 * 1280 × 720, and no sideways page scroll at 768 px.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "./fixtures";
import { statePath } from "./personas";
import { submitJob, trpcQuery } from "./trpc";

test.use({ storageState: statePath("wes") });

const SAMPLE = join(process.env.OPENJD_SAMPLES_DIR ?? join(process.cwd(), "..", "shared", "openjd-samples"), "task-parameter-definition-showcase.yaml");
/** The graph's zoom floor (components/graph/step-layout READABLE_ZOOM): names at 14 px bold stay readable. */
const READABLE_ZOOM = 0.7;

interface Job {
  name: string;
  parameters: Record<string, { type: string; value: string }>;
  counts: Record<string, number>;
  steps: Array<{ id: string; name: string; counts: Record<string, number> }>;
}
interface Task {
  index: number;
  workerId: string | null;
  parameters: Record<string, { value: string }>;
}

test.skip(!existsSync(SAMPLE), `the 12-step sample is read from the OpenJD samples: not found at ${SAMPLE} (set OPENJD_SAMPLES_DIR)`);

test("the 12-step sample's job page: readable graph, parameters, worker names, sorting, fold and 768 px", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const pathValue = `/tmp/loom-e2e-showcase-${randomUUID().slice(0, 8)}`;
  const jobId = await submitJob(page.request, { template: { text: readFileSync(SAMPLE, "utf8"), format: "yaml" }, parameterValues: { PathValue: pathValue } });
  const getJob = () => trpcQuery<Job>(page.request, "jobs.get", { jobId });
  // Worker names only show on tasks that ran: wait for some of the first step's tasks to end.
  await expect.poll(async () => (await getJob()).steps[0]!.counts.SUCCEEDED, { timeout: 90_000 }).toBeGreaterThan(20);
  const job = await getJob();
  expect(job.steps).toHaveLength(12);

  // The default viewport: every step whole on screen, at a readable zoom, its full name shown or on hover.
  await page.goto(`/jobs/${jobId}`);
  const graph = page.getByRole("figure", { name: `Steps of job ${job.name}` });
  await expect(graph.locator(".react-flow__node")).toHaveCount(12);
  await expect.poll(() => graph.locator(".react-flow__viewport").evaluate((el) => new DOMMatrixReadOnly(getComputedStyle(el).transform).a)).toBeGreaterThanOrEqual(READABLE_ZOOM);
  const frame = (await graph.boundingBox())!;
  for (const step of job.steps) {
    const button = graph.getByRole("button", { name: new RegExp(`^Step ${step.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:`) });
    await expect(button).toBeVisible();
    const box = (await button.boundingBox())!;
    expect(box.height, step.name).toBeGreaterThanOrEqual(92 * READABLE_ZOOM - 1);
    expect(box.x >= frame.x && box.y >= frame.y && box.x + box.width <= frame.x + frame.width && box.y + box.height <= frame.y + frame.height, `${step.name} inside the frame`).toBe(true);
    const name = button.locator("strong");
    await expect(name).toHaveAttribute("title", step.name);
    // Whole on screen (two lines at most), or cut with the full name on hover (checked above).
    const shown = await name.evaluate((el) => ({
      whole: el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1,
      fontPx: parseFloat(getComputedStyle(el).fontSize),
      text: el.textContent,
    }));
    expect(shown.text).toBe(step.name);
    expect(shown.whole, `${step.name} is not cut`).toBe(true);
    expect(shown.fontPx * READABLE_ZOOM).toBeGreaterThanOrEqual(9.5);
  }
  await page.screenshot({ path: testInfo.outputPath("job-page-12-steps.png"), fullPage: true });

  // The job's parameter values, as the job holds them (PathValue as written at submission).
  const parameters = page.getByRole("group", { name: "Parameters" });
  for (const [name, p] of Object.entries(job.parameters)) {
    const item = parameters.locator(`[data-parameter="${name}"]`);
    await expect(item.locator("dt")).toContainText(p.type);
    await expect(item.locator("dd")).toHaveText(p.value);
  }
  expect(job.parameters.PathValue!.value).toBe(pathValue);

  // Worker names where the Workers page has them; the id only on hover; the link goes to its row there.
  const workers = await trpcQuery<Array<{ id: string; name: string }>>(page.request, "workers.list", {});
  const names = new Map(workers.map((w) => [w.id, w.name]));
  const grid = page.getByRole("grid", { name: `Tasks of step ${job.steps[0]!.name}` });
  const workerLinks = grid.locator("a.worker-link");
  await expect(workerLinks.first()).toBeVisible();
  for (const link of (await workerLinks.all()).slice(0, 10)) {
    const id = (await link.getAttribute("title"))!;
    expect(names.has(id), `${id} is a worker`).toBe(true);
    await expect(link).toHaveText(names.get(id)!);
    expect(await link.getAttribute("href")).toBe(`/workers#worker-${id}`);
  }

  // Sorted by the Foo parameter, descending (two clicks), as the data says: largest value first, ties in task order.
  const stepTasks = await trpcQuery<{ tasks: Task[] }>(page.request, "jobs.tasks", { stepId: job.steps[0]!.id, limit: 1000 });
  const byFoo = [...stepTasks.tasks].sort((a, b) => Number(b.parameters.Foo!.value) - Number(a.parameters.Foo!.value) || a.index - b.index).map((t) => String(t.index));
  const fooHeader = grid.getByRole("columnheader", { name: "Foo" });
  await fooHeader.getByRole("button").click();
  await expect(fooHeader).toHaveAttribute("aria-sort", "ascending");
  await fooHeader.getByRole("button").click();
  await expect(fooHeader).toHaveAttribute("aria-sort", "descending");
  const firstCells = async (n: number) => (await grid.locator('[role="row"][aria-rowindex]:not(.task-head) > [role="gridcell"]:first-child').allTextContents()).slice(0, n);
  await expect.poll(() => firstCells(8)).toEqual(byFoo.slice(0, 8));

  // Sorted by worker name: the shown names are in order, tasks that never ran last.
  const workerHeader = grid.getByRole("columnheader", { name: "Worker" });
  await workerHeader.getByRole("button").click();
  await expect(workerHeader).toHaveAttribute("aria-sort", "ascending");
  const now = await trpcQuery<{ tasks: Task[] }>(page.request, "jobs.tasks", { stepId: job.steps[0]!.id, limit: 1000 });
  const byWorker = [...now.tasks]
    .sort((a, b) => {
      const [na, nb] = [a.workerId === null ? null : (names.get(a.workerId) ?? a.workerId), b.workerId === null ? null : (names.get(b.workerId) ?? b.workerId)];
      if (na === nb) return a.index - b.index;
      if (na === null || nb === null) return na === null ? 1 : -1;
      return na < nb ? -1 : 1;
    })
    .map((t) => String(t.index));
  await expect.poll(() => firstCells(8)).toEqual(byWorker.slice(0, 8));
  // The retries column says what its two numbers are.
  await expect(grid.getByRole("columnheader", { name: "Retries" }).getByRole("button")).toHaveAttribute("title", /Failed attempts \/ attempts lost to infrastructure/);

  // 1280 × 720: the task table starts above the fold.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/jobs/${jobId}`);
  await expect(grid).toBeVisible();
  // Its headings and first row are whole on screen without scrolling.
  const firstRow = grid.locator('[role="row"][aria-rowindex="2"]');
  await expect(firstRow).toBeVisible();
  const row = (await firstRow.boundingBox())!;
  expect(row.y + row.height, "bottom of the task table's first row on 1280 × 720").toBeLessThanOrEqual(720);
  await page.screenshot({ path: testInfo.outputPath("job-page-1280x720.png") });

  // 768 px wide: no sideways page scroll (the task table scrolls inside itself).
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto(`/jobs/${jobId}`);
  await expect(grid).toBeVisible();
  await expect(graph.locator(".react-flow__node")).toHaveCount(12);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.screenshot({ path: testInfo.outputPath("job-page-768.png"), fullPage: true });
  expect(overflow, "page wider than the window at 768 px").toBeLessThanOrEqual(0);
});
