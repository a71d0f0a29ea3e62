/**
 * Saving over a library name asks first (issue 11: an upload silently replaced an entry of the
 * same name): Replace, Keep both or Cancel on /templates, for uploads and pastes; only the owner
 * (or a wrangler or admin) is offered Replace; and an editor tab holding an older version asks
 * instead of overwriting what another tab saved. Each refused save is a 409 the browser logs:
 * those lines are allowed, for the save addresses only.
 */
import { expect, failedLoad, test } from "./fixtures";
import { BASE_URL, statePath } from "./personas";
import { trpcMutation, trpcQuery } from "./trpc";

test.use({ storageState: statePath("ana") });

const NAME = `dup-${Date.now()}`;
const job = (echo: string, name = NAME) => `specificationVersion: jobtemplate-2023-09\nname: ${name}\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo, args: [${echo}]}\n`;

interface Row {
  id: string;
  name: string;
}

async function library(request: Parameters<typeof trpcQuery>[0]): Promise<Row[]> {
  return (await trpcQuery<Row[]>(request, "templates.list")).filter((r) => r.name.startsWith(NAME));
}

test("an upload over an existing name asks: Cancel keeps it, Keep both adds one, Replace replaces it", async ({ page, personaPage, allowConsoleError }) => {
  for (const path of ["templates.save", "templates.importBundle"]) allowConsoleError(failedLoad(409, `${BASE_URL}/api/trpc/${path}?batch=1`));
  await page.goto("/templates");
  const upload = page.getByLabel("Upload a template or a job bundle");
  const file = (echo: string) => ({ name: `${NAME}.yaml`, mimeType: "application/yaml", buffer: Buffer.from(job(echo)) });
  await upload.setInputFiles(file("one"));
  await expect(page.getByRole("status").filter({ hasText: `Saved “${NAME}”` })).toBeVisible();
  const [first] = await library(page.request);

  // Cancel: nothing changes.
  await upload.setInputFiles(file("two"));
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(new RegExp(`^A template named “${NAME}” exists, saved by ana on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\.`));
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(`Not saved: kept the library's “${NAME}” as it is`);
  expect((await trpcQuery<{ text: string }>(page.request, "templates.get", { id: first!.id })).text).toContain("[one]");

  // Keep both: a second entry beside it.
  await upload.setInputFiles(file("two"));
  await dialog.getByRole("button", { name: "Keep both" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Saved “${NAME} (2)”` })).toBeVisible();
  await expect(page.getByRole("rowheader", { name: `${NAME} (2)` })).toBeVisible();

  // Replace: the first entry holds the new text.
  await upload.setInputFiles(file("three"));
  await dialog.getByRole("button", { name: "Replace" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Updated “${NAME}”` })).toBeVisible();
  expect((await trpcQuery<{ text: string }>(page.request, "templates.get", { id: first!.id })).text).toContain("[three]");
  expect((await library(page.request)).map((r) => r.name).sort()).toEqual([NAME, `${NAME} (2)`]);

  // Another artist pasting under that name is offered Keep both only: it is ana's.
  const ben = await personaPage("ben");
  await ben.goto("/templates");
  await ben.getByLabel("Paste a template").fill(job("bens"));
  await ben.getByRole("textbox", { name: "Name", exact: true }).fill(NAME);
  await ben.getByRole("button", { name: "Save pasted template" }).click();
  const bens = ben.getByRole("dialog");
  await expect(bens).toContainText("only its owner, a wrangler or an admin may replace it");
  await expect(bens.getByRole("button", { name: "Replace" })).toHaveCount(0);
  await bens.getByRole("button", { name: "Keep both" }).click();
  await expect(ben.getByRole("status").filter({ hasText: `Saved “${NAME} (3)”` })).toBeVisible();
  expect((await trpcQuery<{ text: string }>(page.request, "templates.get", { id: first!.id })).text).toContain("[three]");
});

test("an editor tab holding an older version asks before it overwrites another tab's save", async ({ page, context, allowConsoleError }) => {
  allowConsoleError(failedLoad(409, `${BASE_URL}/api/trpc/templates.save?batch=1`));
  const name = `tabs-${Date.now()}`;
  const entry = await trpcMutation<Row>(page.request, "templates.save", { name, text: job("one", name), format: "yaml" });
  const other = await context.newPage();
  for (const tab of [page, other]) {
    await tab.goto(`/editor?template=${entry.id}`);
    await expect(tab.getByLabel("Template name")).toHaveValue(name);
    await expect(tab.locator(".monaco-editor .view-lines")).toBeVisible({ timeout: 30_000 });
  }
  // The first tab saves its own entry: no question.
  await page.getByRole("button", { name: "Save to library" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Updated “${name}” in the library.` })).toBeVisible();
  // The second still holds the version before that one: it is asked, and Cancel keeps the first tab's save.
  await other.getByRole("button", { name: "Save to library" }).click();
  await expect(other.getByRole("dialog")).toContainText(`A template named “${name}” exists, saved by ana on`);
  await other.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(other.getByRole("main").getByRole("alert")).toHaveText(`Not saved: kept the library's “${name}” as it is`);
  await other.close();
});
