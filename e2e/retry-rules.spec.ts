/**
 * Retries that help (issue 11 point 4), as a wrangler (wes) sees them: a task that fails until a
 * marker file exists, with a retry delay and a failure rule of one failure per worker, is kept
 * away from both local workers in turn. The job page lists both workers as kept away (and why),
 * the Workers page lists the job on both rows, a viewer sees no clear button, and the wrangler's
 * clear lets one worker take the task again — which then succeeds there, so only a real re-run on
 * the cleared worker can end the job.
 */
import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "./fixtures";
import { statePath } from "./personas";
import { submitJob, trpcQuery } from "./trpc";

test.use({ storageState: statePath("wes") });

const FAILS_UNTIL_MARKER = (name: string) => `specificationVersion: jobtemplate-2023-09
name: ${name}
parameterDefinitions:
- name: Marker
  type: STRING
steps:
- name: Render
  script:
    actions:
      onRun:
        command: bash
        args: ["-c", "if [ ! -e '{{Param.Marker}}' ]; then echo 'licence server down'; exit 1; fi; echo rendered"]
`;

interface FailureRow {
  workerId: string;
  workerName: string;
  failures: number;
  blockedAt: number | null;
}

test("a worker that failed a job is kept away from it, shown on the job and Workers pages, until a wrangler clears it", async ({ page, personaPage }, testInfo) => {
  const tag = randomUUID().slice(0, 8);
  const marker = join(tmpdir(), `loom-e2e-retry-${tag}`);
  rmSync(marker, { force: true });
  const name = `e2e-retry-${tag}`;
  const jobId = await submitJob(page.request, {
    template: { text: FAILS_UNTIL_MARKER(name), format: "yaml" },
    parameterValues: { Marker: marker },
    settings: { maxRetriesPerTask: 10, retryDelaySeconds: 1, maxWorkerFailures: 1 },
  });

  await page.goto(`/jobs/${jobId}`);
  const rule = page.getByRole("region", { name: "Workers kept away" });
  await expect(rule).toContainText("Retries wait 1 s, doubling with each failure (at most 1 h)");
  await expect(rule).toContainText("a worker on which 1 attempt failed gets no more of its tasks");
  // One failure on each local worker: the retry went to the other one, then nobody is left.
  const keptRows = rule.getByRole("row").filter({ hasText: "Kept away since" });
  await expect(keptRows).toHaveCount(2, { timeout: 30_000 });
  await expect(rule).toContainText("exit code 1");
  const failures = await trpcQuery<{ workers: FailureRow[] }>(page.request, "jobs.workerFailures", { jobId });
  expect(failures.workers.map((w) => [w.failures, w.blockedAt !== null])).toEqual([
    [1, true],
    [1, true],
  ]);
  const workerNames = failures.workers.map((w) => w.workerName).sort();
  // The task waits READY with retries left: its row says it is waiting for a retry, not why it would run.
  const grid = page.getByRole("grid", { name: "Tasks of step Render" });
  await expect(grid.getByRole("row").nth(1)).toContainText(/Retry in \d+ s|Retrying/);
  await expect(grid.getByRole("row").nth(1)).toContainText("Ready");
  await page.screenshot({ path: testInfo.outputPath("job-kept-away.png"), fullPage: true });

  // The Workers page says the same from the workers' side.
  await page.goto("/workers");
  for (const workerName of workerNames) {
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: workerName, exact: true }) });
    await expect(row.getByRole("link", { name })).toBeVisible();
  }
  await page.screenshot({ path: testInfo.outputPath("workers-kept-away.png"), fullPage: true });

  // A viewer reads the rule but is offered no clear.
  const vic = await personaPage("vic");
  await vic.goto(`/jobs/${jobId}`);
  const vicRule = vic.getByRole("region", { name: "Workers kept away" });
  await expect(vicRule.getByRole("row").filter({ hasText: "Kept away since" })).toHaveCount(2);
  await expect(vicRule.getByRole("button")).toHaveCount(0);

  // The licence is back; the wrangler clears one worker, which takes the task again and renders it.
  writeFileSync(marker, "fixed\n");
  await page.goto(`/jobs/${jobId}`);
  const cleared = workerNames[0]!;
  await rule.getByRole("button", { name: `Clear ${cleared}` }).click();
  await expect(page.getByRole("dialog")).toContainText(`Clear ${cleared}'s 1 failed attempt on this job?`);
  await page.getByRole("dialog").getByRole("button", { name: "Yes, clear" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Succeeded", { timeout: 30_000 });
  await expect(rule.getByRole("row").filter({ hasText: "Kept away since" })).toHaveCount(1);
  await expect(rule.getByRole("rowheader", { name: cleared, exact: true })).toHaveCount(0);
  const sessions = await trpcQuery<Array<{ workerId: string; actions: Array<{ kind: string; status: string }> }>>(page.request, "jobs.sessions", { jobId });
  const clearedId = failures.workers.find((w) => w.workerName === cleared)!.workerId;
  const succeededOn = sessions.filter((s) => s.actions.some((a) => a.kind === "TASK_RUN" && a.status === "SUCCEEDED")).map((s) => s.workerId);
  expect(succeededOn).toEqual([clearedId]);
  await page.screenshot({ path: testInfo.outputPath("job-cleared.png"), fullPage: true });
  rmSync(marker, { force: true });
});
