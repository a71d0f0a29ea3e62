/**
 * The admin's day (ada, signed in): create a pool and see its token exactly once; drain a busy worker after its
 * current task and watch it finish that task, go idle and get nothing more while the other
 * worker takes the next job. Jobs are submitted through the tRPC HTTP API, as `loom submit` does
 * (with ada's session here). Everyone else reads pools and workers without their controls.
 */
import type { APIRequestContext } from "@playwright/test";
import { expect, failedLoad, test } from "./fixtures";
import { BASE_URL, statePath } from "./personas";
import { submitJob, trpcMutation, trpcQuery } from "./trpc";

test.use({ storageState: statePath("ada") });

const sleepJob = (name: string, seconds: number) =>
  `specificationVersion: jobtemplate-2023-09\nname: ${name}\nsteps:\n- name: Sleep\n  script:\n    actions:\n      onRun: {command: sleep, args: ["${seconds}"]}\n`;

interface Worker {
  id: string;
  name: string;
  status: string;
  jobId: string | null;
  taskId: number | null;
}

const submit = (request: APIRequestContext, name: string, seconds: number) => submitJob(request, { template: { text: sleepJob(name, seconds), format: "yaml" } });

const jobStatus = async (request: APIRequestContext, jobId: string) => (await trpcQuery<{ status: string }>(request, "jobs.get", { jobId })).status;

test("an admin creates a pool and sees its token once", async ({ page }) => {
  await page.goto("/pools");
  await page.getByLabel("Pool name").fill("e2e-gpu");
  await page.getByLabel("Description").fill("RTX render nodes");
  await page.getByRole("button", { name: "Create pool" }).click();

  const panel = page.getByRole("region", { name: "Token for pool e2e-gpu" });
  await expect(panel).toContainText("you will not see it again");
  const token = await panel.getByRole("textbox", { name: "Token for pool e2e-gpu" }).inputValue();
  expect(token).toMatch(/^loom_[A-Za-z0-9_-]{20,}$/);
  await expect(panel.getByRole("button", { name: "Copy token" })).toBeVisible();
  await expect(page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: /e2e-gpu/ }) })).toContainText("RTX render nodes");

  await panel.getByRole("button", { name: "Done: hide the token" }).click();
  await expect(panel).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await page.reload();
  await expect(page.getByRole("rowheader", { name: /e2e-gpu/ })).toBeVisible();
  expect(await page.content()).not.toContain(token);
  // Arrow keys move between rows, to the same control.
  const rows = page.getByRole("table", { name: "Pools" }).getByRole("row");
  await rows.nth(1).getByRole("button", { name: "Rotate token" }).focus();
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(2).getByRole("button", { name: "Rotate token" })).toBeFocused();
  // Nothing the page can read keeps it either.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain(token);
});

test("pools and workers are read by everyone, and changed by admins only", async ({ personaPage, allowConsoleError }) => {
  const wes = await personaPage("wes");
  await wes.goto("/pools");
  await expect(wes.getByRole("table", { name: "Pools" }).getByRole("rowheader").first()).toBeVisible();
  await expect(wes.getByRole("region", { name: "Create a pool" })).toHaveCount(0);
  await expect(wes.getByRole("button", { name: "Rotate token" })).toHaveCount(0);
  await wes.goto("/workers");
  await expect(wes.getByRole("table", { name: "Workers" })).toBeVisible();
  await expect(wes.getByRole("button", { name: /^Drain/ })).toHaveCount(0);
  // The server refuses it anyway, from the portal's own page with the wrangler's cookie.
  allowConsoleError(failedLoad(403, `${BASE_URL}/api/trpc/pools.create`));
  const status = await wes.evaluate(
    async () => (await fetch("/api/trpc/pools.create", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "e2e-wes" }) })).status,
  );
  expect(status).toBe(403);
});

test("an admin drains a busy worker after its task: it finishes, goes idle and gets no more work", async ({ page }) => {
  test.setTimeout(120_000);
  const request = page.request;
  await page.goto("/workers"); // warm: the page is ready before the task's clock starts
  await expect(page.getByRole("rowheader")).toHaveCount(2);

  const first = await submit(request, "admin-drain-long", 10);
  let busy: Worker | undefined;
  await expect
    .poll(async () => {
      busy = (await trpcQuery<Worker[]>(request, "workers.list", {})).find((w) => w.jobId === first && w.taskId !== null);
      return busy?.status;
    })
    .toBe("RUNNING");
  const worker = busy as Worker;

  await page.reload();
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: worker.name, exact: true }) });
  await expect(row.getByRole("link", { name: `Session of ${worker.name} on job admin-drain-long` })).toHaveAttribute("href", new RegExp(`^/jobs/${first}/sessions/`));
  await expect(row).toContainText("Sleep · task 0");
  await row.getByRole("button", { name: "Drain after current task" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Drain ${worker.name} after its current task?`);
  await dialog.getByRole("button", { name: "Drain after task" }).click();

  await expect(row).toContainText("Draining: finishing its task");
  // Still busy with its task: Running until its next sync, then Stopping (drained and busy:
  // sync-worker.ts); which one the row shows depends on when that sync lands.
  await expect(row.getByText(/^(Running|Stopping)$/)).toBeVisible();
  // Still in flight (ASSIGNED until the worker's next sync reports the start): the drain came first.
  expect(["ASSIGNED", "RUNNING"]).toContain(await jobStatus(request, first));

  // The task runs to its end; the worker exits its Session, goes idle and stays drained.
  await expect.poll(() => jobStatus(request, first), { timeout: 30_000 }).toBe("SUCCEEDED");
  await expect(row).toContainText("Drained after task", { timeout: 15_000 });
  await expect(row).toContainText("Idle");
  await expect(row.getByRole("link", { name: /Session of/ })).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Undrain" })).toBeVisible();

  // The next job goes to the other worker; the drained one is given nothing.
  const second = await submit(request, "admin-drain-next", 1);
  await expect.poll(() => jobStatus(request, second), { timeout: 30_000 }).toBe("SUCCEEDED");
  const sessions = await trpcQuery<Array<{ workerId: string }>>(request, "jobs.sessions", { jobId: second });
  expect(sessions.length).toBeGreaterThan(0);
  expect(sessions.every((s) => s.workerId !== worker.id)).toBe(true);
  await expect(row).toContainText("Drained after task");
  await expect(row).toContainText("Idle");

  // Undrain puts it back at once: the farm's two workers are shared by every later spec.
  await row.getByRole("button", { name: "Undrain" }).click();
  await expect(row.getByRole("button", { name: "Drain after current task" })).toBeVisible();
  await expect(row).not.toContainText("Drained");
});

test("the home page is the overview: workers and tasks per status, tasks finished per minute", async ({ page }) => {
  const request = page.request;
  await page.goto("/");
  await expect(page).toHaveURL(/\/overview$/);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Workers by status" })).toContainText("2");
  const before = (await trpcQuery<{ finishedPerMinute: Array<{ succeeded: number }> }>(request, "overview.get", {})).finishedPerMinute.reduce((n, m) => n + m.succeeded, 0);

  // A job finishing while the page is open shows up without a reload.
  const jobId = await submit(request, "admin-overview", 1);
  await expect.poll(() => jobStatus(request, jobId), { timeout: 30_000 }).toBe("SUCCEEDED");
  const chart = page.getByRole("img", { name: /Tasks finished per minute/ });
  await expect(chart).toHaveAccessibleName(new RegExp(`${before + 1} tasks? finished in the last 60 minutes`), { timeout: 15_000 });
  await page.getByText("Show the numbers as a table").click();
  const table = page.getByRole("table", { name: "Tasks finished per minute" });
  await expect(table.getByRole("row")).toHaveCount(61);
});

test("an admin archives finished jobs older than a number of days", async ({ page }) => {
  // A finished job that needed no worker: held, then canceled.
  const jobId = await submitJob(page.request, { template: { text: sleepJob("admin-retention", 600), format: "yaml" }, settings: { initialState: "SUSPENDED" } });
  await trpcMutation(page.request, "jobs.cancel", { jobId });
  await page.goto("/admin/retention");
  const days = page.getByRole("spinbutton", { name: "Older than (days)" });
  await expect(days).toHaveValue("30");
  await expect(page.getByText(/^0 jobs, 0 tasks, 0 log lines: finished jobs that ended before/)).toBeVisible();
  await days.fill("-1");
  await expect(days).toHaveAccessibleDescription(/A whole number of days from 0/);
  await days.fill("0");
  await expect(page.getByText(/^\d+ jobs?, \d+ tasks?, [\d,]+ log lines?: finished jobs/)).not.toHaveText(/^0 jobs/);
  await page.getByRole("radio", { name: /^Archive, then remove/ }).check();
  await page.getByRole("button", { name: /^Archive \d+ jobs?$/ }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Yes, archive" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText(/^Archived and removed \d+ jobs?, .* The archives are in the data folder, under archive\/\.$/);
  await expect(page.getByText(/^0 jobs, 0 tasks, 0 log lines: finished jobs/)).toBeVisible();
  expect((await page.request.get(`/api/trpc/jobs.get?input=${encodeURIComponent(JSON.stringify({ jobId }))}`)).status()).toBe(404);
});
