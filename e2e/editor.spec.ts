/**
 * The artist's editor: a broken template gets a located marker (a Monaco squiggle and an entry
 * "path (line:column): message" in the problems list); the entry moves the cursor to the spot,
 * the fix clears both, and the template saved to the library shows on /templates. The artist
 * is ana, signed in; a viewer reads the library but is offered no save or delete.
 */
import { expect, test } from "./fixtures";
import { statePath } from "./personas";

test.use({ storageState: statePath("ana") });

const BROKEN = `specificationVersion: jobtemplate-2023-09
name: Editor e2e
steps:
- name: Render
  script:
    actions:
      onRun:
        command: ''
`;

test("a broken template is marked where it is wrong, fixed, and saved to the library", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/editor");
  const code = page.locator(".monaco-editor .view-lines");
  await expect(code).toBeVisible({ timeout: 30_000 });
  const problems = page.getByRole("list", { name: "Template errors" });
  await expect(page.getByRole("status").filter({ hasText: "No errors: a valid job template." })).toBeVisible();

  // Paste a broken template over the starter one (typing would be auto-indented line by line).
  await page.evaluate((text) => navigator.clipboard.writeText(text), BROKEN);
  await code.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Control+V");
  await expect.poll(async () => (await code.innerText()).replace(/\u00a0/g, " ")).toContain("command: ''");

  const entry = problems.getByRole("button", { name: /^steps\[0\]\.script\.actions\.onRun\.command \(8:18\): .*empty/ });
  await expect(entry).toBeVisible();
  await expect(problems.getByRole("listitem")).toHaveCount(1);
  await expect(page.locator(".monaco-editor .squiggly-error")).toHaveCount(1);

  // The entry takes the cursor to the error; replace the empty command there.
  await entry.click();
  await expect(page.getByLabel("Cursor position")).toHaveText("Ln 8, Col 18");
  await page.keyboard.press("Shift+End");
  await page.keyboard.insertText("echo");
  await expect.poll(async () => (await code.innerText()).replace(/\u00a0/g, " ")).toContain("command: echo");

  await expect(problems.getByRole("listitem")).toHaveCount(0);
  await expect(page.locator(".monaco-editor .squiggly-error")).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "No errors: a valid job template." })).toBeVisible();

  await page.getByLabel("Template name").fill("Editor e2e fixed");
  await page.getByRole("button", { name: "Save to library" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved “Editor e2e fixed” in the library." })).toBeVisible();
  await expect(page).toHaveURL(/\/editor\?template=tpl-/);

  await page.goto("/templates");
  const row = page.getByRole("row", { name: /Editor e2e fixed/ });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").nth(0)).toHaveText("Job (YAML)");
  await expect(row.getByRole("cell").nth(2)).toHaveText("none");
  await expect(row.getByRole("link", { name: "Submit Editor e2e fixed" })).toHaveAttribute("href", /\/submit\?template=tpl-/);

  // Reopening from the library brings the saved text back into the editor.
  await row.getByRole("link", { name: "Open Editor e2e fixed in the editor" }).click();
  await expect.poll(async () => (await page.locator(".monaco-editor .view-lines").innerText()).replace(/\u00a0/g, " ")).toContain("command: echo");
  await expect(page.getByLabel("Template name")).toHaveValue("Editor e2e fixed");
});

test("the library takes an uploaded template and deletes it after confirmation", async ({ page, personaPage }) => {
  await page.goto("/templates");
  await page.getByLabel("Upload a template or a job bundle").setInputFiles({
    name: "env-vars.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"specificationVersion": "environment-2023-09", "environment": {"name": "Vars", "variables": {"A": "1"}}}'),
  });
  await expect(page.getByRole("status").filter({ hasText: "Saved “env-vars” (environment template, no errors)." })).toBeVisible();
  const row = page.getByRole("row", { name: /env-vars/ });
  await expect(row.getByRole("cell").nth(0)).toHaveText("Environment (JSON)");
  await expect(row.getByRole("link", { name: /^Submit/ })).toHaveCount(0);

  // A viewer sees it, with nothing to change it with; a wrangler may delete anyone's.
  const vic = await personaPage("vic");
  await vic.goto("/templates");
  await expect(vic.getByRole("row", { name: /env-vars/ })).toBeVisible();
  await expect(vic.getByRole("row", { name: /env-vars/ }).getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(vic.getByLabel("Upload a template or a job bundle")).toHaveCount(0);
  await vic.goto("/editor");
  await expect(vic.locator(".monaco-editor .view-lines")).toBeVisible();
  await expect(vic.getByRole("button", { name: "Save to library" })).toHaveCount(0);
  const wes = await personaPage("wes");
  await wes.goto("/templates");
  await expect(wes.getByRole("row", { name: /env-vars/ }).getByRole("button", { name: "Delete" })).toBeVisible();

  await row.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete env-vars" }).click();
  await expect(page.getByRole("row", { name: /env-vars/ })).toHaveCount(0);
});

test("the editor completes fields and documents them from the template schema", async ({ page }) => {
  await page.goto("/editor");
  const code = page.locator(".monaco-editor .view-lines");
  await expect(code).toBeVisible({ timeout: 30_000 });
  await code.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.press("Control+Space");
  const suggestions = page.locator(".monaco-editor .suggest-widget");
  await expect(suggestions).toContainText("jobEnvironments");
  await expect(suggestions).not.toContainText("specificationVersion");
  await page.keyboard.press("Escape");

  await page.locator(".monaco-editor .view-line span", { hasText: /^steps$/ }).hover();
  await expect(page.getByRole("tooltip").filter({ hasText: "The job's steps; at least one." })).toBeVisible();
});

test("the template schemas are published for other editors", async ({ request }) => {
  const job = await request.get("/schema/jobtemplate-2023-09.json");
  expect(job.ok()).toBe(true);
  expect((await job.json()).properties.specificationVersion.const).toBe("jobtemplate-2023-09");
  const env = await request.get("/schema/environment-2023-09.json");
  expect((await env.json()).required).toEqual(["specificationVersion", "environment"]);
  expect((await request.get("/schema/nope.json")).status()).toBe(404);
});
