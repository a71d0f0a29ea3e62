/**
 * A wrangler (wes, signed in) watches a Session: a job submitted through the API prints lines, a progress and a
 * status message and a redacted secret; its Session page shows the action on the timeline, the
 * lines as they arrive, the progress bar and status text, the secret masked (never the value),
 * search, and a download of the whole log.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "./fixtures";
import { statePath } from "./personas";
import { submitJob, trpcQuery } from "./trpc";

test.use({ storageState: statePath("wes") });

// The secret is put together at run time, so not even the template holds it.
const SCRIPT = [
  'V="hunter""2"',
  'echo "starting render"',
  'for i in 1 2 3; do echo "early line $i"; done',
  'echo "openjd_progress: 50"',
  'echo "openjd_status: Rendering the second half"',
  'echo "openjd_redacted_env: SECRET=$V"',
  'echo "the secret is $V"',
  'while [ ! -f "$1" ]; do sleep 0.1; done',
  'for i in 1 2 3; do echo "late line $i"; done',
].join("\n");

const TEMPLATE = {
  specificationVersion: "jobtemplate-2023-09",
  extensions: ["REDACTED_ENV_VARS"],
  name: "Session view e2e",
  parameterDefinitions: [{ name: "Gate", type: "STRING" }],
  steps: [{ name: "Render", script: { actions: { onRun: { command: "bash", args: ["-c", SCRIPT, "render", "{{Param.Gate}}"] } } } }],
};

test("a Session's timeline, live log, progress, masked secret, search and download", async ({ page }) => {
  const gate = join(tmpdir(), `loom-e2e-gate-${Date.now()}`);
  rmSync(gate, { force: true });
  const jobId = await submitJob(page.request, { template: { text: JSON.stringify(TEMPLATE), format: "json" }, parameterValues: { Gate: gate } });

  // A local worker picks the task up; its Session is what we open.
  let session: { id: string; actions: Array<{ taskId: number | null }> } | undefined;
  await expect
    .poll(async () => {
      const sessions = await trpcQuery<Array<{ id: string; actions: Array<{ taskId: number | null }> }>>(page.request, "jobs.sessions", { jobId });
      session = sessions[0];
      return sessions.length;
    })
    .toBe(1);
  const taskId = session!.actions.find((a) => a.taskId !== null)!.taskId!;
  await page.goto(`/jobs/${jobId}/sessions/${session!.id}?task=${taskId}`);

  const log = page.getByRole("log", { name: "Log lines" });
  await expect(page.getByRole("list", { name: "Session actions" }).getByRole("button", { name: /^Render: running/ })).toBeVisible();
  await expect(log).toContainText("early line 3");
  await expect(page.getByText(/ lines · Live$/)).toBeVisible();
  await expect(page.getByLabel("Status message")).toHaveText("Rendering the second half");
  await expect(page.getByRole("progressbar", { name: "Progress of Render" })).toHaveAttribute("value", "50");
  await expect(page.getByText("50%", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Attempt")).toContainText("1 of 1");

  // The secret: masked where it was declared and where it was printed.
  await expect(log.getByTitle(/^Redacted value/)).toHaveCount(2);
  await expect(log).toContainText("the secret is ********");

  // Lines printed after the page opened arrive without a reload.
  writeFileSync(gate, "go");
  await expect(log).toContainText("late line 3");
  await expect(page.getByRole("list", { name: "Session actions" }).getByRole("button", { name: /^Render: succeeded/ })).toBeVisible();
  // The Session ended: the viewer stops saying "Live" (its stream stays open for late uploads).
  await expect(page.getByText(/ lines · Ended$/)).toBeVisible();
  expect(await page.content()).not.toContain("hunter2");

  // Search: count, step to a match, then keep only matching lines.
  const search = page.getByLabel("Search the log");
  await search.fill("late line");
  await expect(page.getByText("3 matches", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Next match" }).click();
  await expect(page.getByText("1 of 3 matches")).toBeVisible();
  await expect(log.locator(".log-row-current")).toContainText("late line 1");
  await page.getByLabel("Only matching lines").check();
  await expect(log).not.toContainText("early line 1");
  await expect(log.locator("mark")).toHaveCount(3);

  // Download: the whole log from the server, masked as stored.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download log" }).click()]);
  const file = await download.path();
  const text = readFileSync(file, "utf8");
  expect(download.suggestedFilename()).toBe(`session-${session!.id}.log.txt`);
  for (const line of ["starting render", "early line 1", "openjd_progress: 50", "the secret is ********", "late line 3"]) expect(text).toContain(line);
  expect(text).not.toContain("hunter2");
  if (existsSync(gate)) rmSync(gate);
});
