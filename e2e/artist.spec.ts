/**
 * The artist (ana, signed in): opens ui-controls-showcase.yaml from ../shared/openjd-samples through the file
 * input, fills the generated form using every control type (line and multi-line edits, spin
 * boxes by typing, by arrow keys and by their buttons, dropdowns, the path fields and the check
 * box), sees a constraint problem as they type and the artist's priority cap, previews (steps,
 * task counts, pools), submits as herself, and lands on the job page, which goes live to
 * SUCCEEDED and shows the task's log.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { statePath } from "./personas";

const SHOWCASE = path.resolve("../shared/openjd-samples/ui-controls-showcase.yaml");
const LINE = `artist-e2e-${Date.now()}`;

test.use({ storageState: statePath("ana") });

test("an artist submits the UI controls showcase through its generated form and watches it succeed", async ({ page }, testInfo) => {
  test.skip(!existsSync(SHOWCASE), `the sample ${SHOWCASE} is not on this machine (it comes from ../shared/openjd-samples)`);
  test.setTimeout(180_000);

  await page.goto("/submit");
  await page.getByLabel("Template file").setInputFiles(SHOWCASE);
  await expect(page.getByText("Opened file ui-controls-showcase.yaml.")).toBeVisible();

  // groupLabel sections are fieldsets named by their legend.
  for (const group of ["Text Controls", "Int Spinners", "Float Spinners", "Dropdown Controls", "Picker Controls"]) {
    await expect(page.getByRole("group", { name: group })).toBeVisible();
  }
  const text = page.getByRole("group", { name: "Text Controls" });

  // LINE_EDIT and MULTILINE_EDIT, with their descriptions wired as descriptions.
  const line = text.getByRole("textbox", { name: "Line Edit Control", exact: true });
  await expect(line).toHaveValue("Default line edit value.");
  await expect(line).toHaveAccessibleDescription(/Unrestricted line of text!/);
  await line.fill(LINE);
  const multi = text.getByRole("textbox", { name: "Multi-line Edit Control", exact: true });
  await multi.fill("first line\nsecond line");

  // SPIN_BOX: INT typed, INT stepped by singleStepDelta, INT bounds checked as you type, FLOAT with decimals stepped.
  await page.getByRole("spinbutton", { name: "Default Int Spinner", exact: true }).fill("7");
  const bigStep = page.getByRole("spinbutton", { name: "Big Step Int Spinner", exact: true });
  await bigStep.press("ArrowUp");
  await expect(bigStep).toHaveValue("153");
  const bounded = page.getByRole("spinbutton", { name: "Bounded Int Spinner", exact: true });
  await bounded.fill("150");
  await expect(bounded).toHaveAttribute("aria-invalid", "true");
  await expect(bounded).toHaveAccessibleDescription(/150 is above the maximum 100/);
  await bounded.fill("-50");
  await expect(bounded).not.toHaveAttribute("aria-invalid", "true");
  await page.getByRole("spinbutton", { name: "Default Float Spinner", exact: true }).fill("2.5");
  const oneDecimal = page.getByRole("spinbutton", { name: "Float Spinner One Decimal", exact: true });
  await oneDecimal.press("ArrowDown");
  await expect(oneDecimal).toHaveValue("99999.9");
  await page.getByRole("button", { name: "Increase Float Spinner Fixed Step" }).click();
  await expect(page.getByRole("spinbutton", { name: "Float Spinner Fixed Step", exact: true })).toHaveValue("0.875");

  // DROPDOWN_LIST of strings, ints and floats.
  await page.getByRole("combobox", { name: "String Dropdown", exact: true }).selectOption("FRIDAY");
  await page.getByRole("combobox", { name: "Int Dropdown", exact: true }).selectOption("9");
  await page.getByRole("combobox", { name: "Float Dropdown", exact: true }).selectOption("9.9");

  // CHOOSE_* path fields, typed (a browser cannot browse the farm's disks), with the template's file filters shown.
  const input = page.getByRole("textbox", { name: /^Input File Picker/ });
  await expect(input).toHaveAccessibleDescription(/Scene Files \(\*\.blend, \*\.mb, \*\.ma, \*\.nk\)/);
  const output = page.getByRole("textbox", { name: /^Output File Picker/ });
  await expect(output).toHaveAccessibleDescription(/EXR Files \(\*\.exr\); JPEG Files \(\*\.jpg, \*\.jpeg\); PNG Files \(\*\.png\); All Files \(\*\)/);
  await output.fill("/tmp/loom-e2e/beauty.exr");
  await input.fill("/tmp/loom-e2e/shot010.blend");
  await page.getByRole("textbox", { name: /^Directory Picker/ }).fill("/tmp/loom-e2e");
  await expect(page.getByText(/Warning:/)).toHaveCount(0);

  // CHECK_BOX (allowedValues True/False) and HIDDEN (not shown, listed with its default).
  const check = page.getByRole("checkbox", { name: 'Check Box "Boolean"', exact: true });
  await expect(check).toBeChecked();
  await check.uncheck();
  await expect(page.getByLabel("This won't show")).toHaveCount(0);
  await expect(page.getByText("2 hidden parameters (submitted with their defaults)")).toBeVisible();

  // Job settings: no submitter to type (the job is ana's), and an artist's priority stops at 70.
  await expect(page.getByLabel("Submitter")).toHaveCount(0);
  const priority = page.getByRole("spinbutton", { name: "Priority" });
  await priority.fill("71");
  await expect(priority).toHaveAccessibleDescription(/from 0 to 70 \(a wrangler can give a job a higher one\)/);
  await priority.fill("70");
  await expect(priority).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Submit" })).toBeDisabled();

  await page.getByRole("button", { name: "Preview" }).click();
  const steps = page.getByRole("table", { name: "Steps" });
  const row = steps.getByRole("row", { name: /CliScript/ });
  await expect(row).toContainText("1 task");
  await expect(row).toContainText(/can run it/);
  await expect(page.getByText(/Job Template GUI Control Showcase: 1 task in 1 step/)).toBeVisible();
  await expect(page.getByRole("figure", { name: "Preview: step dependency graph" })).toBeVisible();
  await expect(page.getByRole("link", { name: "My jobs" })).toHaveAttribute("href", "/jobs?submitter=ana");
  await page.screenshot({ path: testInfo.outputPath("preview.png"), fullPage: true });

  await page.getByRole("button", { name: "Submit" }).click();
  await page.waitForURL(/\/jobs\/job-[a-z2-7]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Job Template GUI Control Showcase");
  await expect(
    page
      .locator(".job-facts > div")
      .filter({ has: page.getByRole("term").getByText("Submitter", { exact: true }) })
      .getByRole("definition"),
  ).toHaveText("ana");
  await expect(page.getByRole("group", { name: "Job actions" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Succeeded", { timeout: 90_000 });

  // The task's log, live on the job page: the script echoes the line edit's value.
  await page
    .getByRole("grid")
    .getByRole("row", { name: /Succeeded/ })
    .first()
    .click();
  await expect(page.getByRole("region", { name: /Latest log/ })).toContainText(LINE);
});

const GPU_JOB = `specificationVersion: jobtemplate-2023-09
name: Needs a GPU
parameterDefinitions:
- {name: Frames, type: STRING, default: 1-4}
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: Frame, type: INT, range: '{{Param.Frames}}'}
  script:
    actions:
      onRun: {command: echo, args: ['{{Task.Param.Frame}}']}
- name: Encode
  dependencies: [{dependsOn: Render}]
  hostRequirements:
    amounts: [{name: amount.worker.gpu, min: 1}]
  script:
    actions:
      onRun: {command: echo}
`;

test("an artist sees located template errors, and which steps no pool can run before submitting", async ({ page }) => {
  await page.goto("/submit");
  const file = page.getByLabel("Template file");
  await file.setInputFiles({ name: "broken.yaml", mimeType: "application/yaml", buffer: Buffer.from(GPU_JOB.replace("dependsOn: Render", "dependsOn: Rendr")) });
  await expect(page.getByRole("region", { name: "Template", exact: true }).getByRole("alert")).toContainText("steps[1].dependencies[0].dependsOn (14:30): unknown step 'Rendr'");
  await expect(page.getByRole("button", { name: "Preview" })).toHaveCount(0);

  await file.setInputFiles({ name: "gpu.yaml", mimeType: "application/yaml", buffer: Buffer.from(GPU_JOB) });
  await page.getByRole("textbox", { name: "Frames", exact: true }).fill("1-4:0");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("region", { name: "Preview", exact: true }).getByRole("alert")).toContainText(
    /steps\[0\]\.parameterSpace\.taskParameterDefinitions\[0\]\.range \(line 9, column \d+\): .*a step must not be zero/,
  );
  await expect(page.getByRole("button", { name: "Submit" })).toBeDisabled();

  await page.getByRole("textbox", { name: "Frames", exact: true }).fill("1-6");
  await page.getByRole("button", { name: "Preview" }).click();
  const steps = page.getByRole("table", { name: "Steps" });
  await expect(steps.getByRole("row", { name: /^Render/ })).toContainText("6 tasks");
  const encode = steps.getByRole("row", { name: /^Encode/ });
  await expect(encode).toContainText("Render");
  await expect(encode).toContainText("No pool can run this step now");
  await expect(encode).toContainText(/needs amount\.worker\.gpu >= 1, worker has none/);
});
