/**
 * /submit takes a job bundle as /templates does (issue 11: a bundle .zip chosen there was read
 * as YAML, "not valid YAML (56:1)"): a .zip, or a folder chosen with webkitdirectory; the template
 * inside becomes the form and the bundle's parameter values fill it. The zip is made here with
 * the project's own zip writer, its template deflated as tools write it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeZip } from "../server/services/zip-test-support";
import { expect, failedLoad, test } from "./fixtures";
import { BASE_URL, statePath } from "./personas";
import { trpcQuery } from "./trpc";

test.use({ storageState: statePath("ana") });

const TEMPLATE = (name: string) => `specificationVersion: jobtemplate-2023-09
name: ${name}
parameterDefinitions:
- {name: Greeting, type: STRING, default: hello}
- {name: Count, type: INT, default: 1}
steps:
- name: Say
  script:
    actions:
      onRun: {command: echo, args: ["{{Param.Greeting}}", "{{Param.Count}}"]}
`;
const VALUES = "parameterValues:\n- {name: Greeting, value: bonjour from the bundle}\n- {name: Count, value: 7}\n- {name: 'deadline:priority', value: 40}\n";

test("a job bundle .zip on /submit fills the form with its values, and submits", async ({ page }) => {
  const name = `bundle-zip-${Date.now()}`;
  // In a top folder, as "compress this folder" makes it; the template deflated, the values stored.
  const zip = makeZip([
    { name: "shot/template.yaml", data: TEMPLATE(name), method: 8 },
    { name: "shot/parameter_values.yaml", data: VALUES },
  ]);
  await page.goto("/submit");
  await page.getByLabel("Template file or job bundle").setInputFiles({ name: "shot.zip", mimeType: "application/zip", buffer: zip });
  await expect(page.getByText("Opened job bundle shot.zip.")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Greeting", exact: true })).toHaveValue("bonjour from the bundle");
  await expect(page.getByRole("spinbutton", { name: "Count", exact: true })).toHaveValue("7");
  await expect(page.getByText(/not valid YAML/)).toHaveCount(0);

  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByText(new RegExp(`${name}: 1 task in 1 step`))).toBeVisible();
  await page.getByRole("button", { name: "Submit" }).click();
  await page.waitForURL(/\/jobs\/job-[a-z2-7]+$/);
  const jobId = page.url().split("/").pop()!;
  const job = await trpcQuery<{ name: string; parameters: Record<string, { value: string }> }>(page.request, "jobs.get", { jobId });
  expect(job.name).toBe(name);
  expect(job.parameters.Greeting?.value).toBe("bonjour from the bundle");
  expect(String(job.parameters.Count?.value)).toBe("7");
});

test("a job bundle folder on /submit fills the form; a broken bundle says where it is broken", async ({ page, allowConsoleError }) => {
  const name = `bundle-folder-${Date.now()}`;
  const parent = mkdtempSync(join(tmpdir(), "loom-e2e-bundle-"));
  const folder = join(parent, "shot");
  try {
    mkdirSync(join(folder, "assets"), { recursive: true });
    writeFileSync(join(folder, "template.yaml"), TEMPLATE(name));
    writeFileSync(join(folder, "parameter_values.yaml"), VALUES);
    // Not the bundle's: a template in a sub-folder is not read.
    writeFileSync(join(folder, "assets", "template.json"), "{}");
    await page.goto("/submit");
    await page.getByLabel("Job bundle folder").setInputFiles(folder);
    await expect(page.getByText("Opened job bundle folder shot.")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Greeting", exact: true })).toHaveValue("bonjour from the bundle");
    await expect(page.getByRole("spinbutton", { name: "Count", exact: true })).toHaveValue("7");

    // A value without its value, in the folder: the farm's reader locates it (and answers 400, which Chromium logs).
    allowConsoleError(failedLoad(400, `${BASE_URL}/api/trpc/templates.readBundle?batch=1`));
    writeFileSync(join(folder, "parameter_values.yaml"), "parameterValues:\n- {name: Greeting}\n");
    await page.getByLabel("Job bundle folder").setInputFiles(folder);
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Could not open job bundle folder shot: shot/parameter_values.yaml (2:3): parameter Greeting has no value");
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
