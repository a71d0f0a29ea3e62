/**
 * Runs before every spec (the `personas` project): the farm starts with no account. The first
 * admin is created through the one-time setup address `loom serve` printed (checked as typed,
 * then signed in), and that admin creates the other personas on the Users page. Each persona
 * then signs in on the sign-in page, and its browser state is saved for the specs.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { expect, test } from "./fixtures";
import { PERSONAS, setupToken, statePath, type PersonaName } from "./personas";

const admin = PERSONAS.ada;

test("first-run setup creates the admin, who creates the other personas", async ({ page, browser, baseURL }) => {
  test.setTimeout(300_000);
  mkdirSync(dirname(statePath("ada")), { recursive: true });

  // A farm without accounts says so on the sign-in page, and points to the setup address.
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?next=%2Fjobs$/);
  await expect(page.getByRole("heading", { name: "This farm has no accounts yet" })).toBeVisible();
  await expect(page.getByText("/setup?token=", { exact: false })).toBeVisible();

  // A wrong token is refused before any form is shown.
  await page.goto("/setup?token=not-the-token-at-all");
  await expect(page.getByRole("main").getByRole("alert")).toContainText("It was used already");
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");

  await page.goto(`/setup?token=${encodeURIComponent(setupToken())}`);
  const form = page.getByRole("form", { name: "Create the first admin" });
  const name = form.getByRole("textbox", { name: "Admin name" });
  const password = form.getByLabel("Password", { exact: true });
  const again = form.getByLabel("Password again");
  const create = form.getByRole("button", { name: "Create admin and sign in" });
  // Checked as typed, by the same rules as the server's.
  await name.fill("a d");
  await expect(name).toHaveAccessibleDescription(/A user name is 3 to 64 letters/);
  await name.fill(admin.name);
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  await password.fill("short");
  await expect(password).toHaveAccessibleDescription("A password needs at least 10 characters.");
  await password.fill(`xx${admin.name}xxxxxxxx`);
  await expect(password).toHaveAccessibleDescription("A password must not contain the user name.");
  await password.fill(admin.password);
  await again.fill(`${admin.password}!`);
  await expect(again).toHaveAccessibleDescription("The two passwords differ.");
  await expect(create).toBeDisabled();
  await again.fill(admin.password);
  await create.click();

  // Signed in as the new admin, on the Users page.
  await page.waitForURL(/\/admin\/users$/);
  const signedIn = page.getByRole("group", { name: "Signed in" });
  await expect(signedIn).toContainText(admin.name);
  await expect(signedIn).toContainText("Admin");
  await expect(page.getByRole("rowheader", { name: new RegExp(`^${admin.name}`) })).toBeVisible();

  // The setup address is spent.
  const other = await browser.newPage({ baseURL, storageState: { cookies: [], origins: [] } });
  await other.goto(`/setup?token=${encodeURIComponent(setupToken())}`);
  await expect(other.getByRole("main").getByRole("alert")).toContainText("It was used already");
  await other.close();

  // The admin creates everyone else.
  const createUser = page.getByRole("region", { name: "Create a user" });
  for (const persona of Object.values(PERSONAS).filter((p) => p.name !== admin.name)) {
    await createUser.getByRole("textbox", { name: "User name" }).fill(persona.name);
    await createUser.getByRole("combobox", { name: "Role" }).selectOption(persona.role);
    await createUser.getByLabel("Initial password").fill(persona.password);
    await createUser.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByRole("main").getByRole("status")).toHaveText(`Created ${persona.name}.`);
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: persona.name, exact: true }) });
    await expect(row).toContainText(persona.role[0]!.toUpperCase() + persona.role.slice(1));
    await expect(row.getByRole("combobox", { name: `Role of ${persona.name}` })).toHaveValue(persona.role);
  }
  await page.context().storageState({ path: statePath("ada") });

  // Each persona signs in on the sign-in page; its cookie is what the specs use.
  for (const persona of Object.values(PERSONAS).filter((p) => p.name !== admin.name)) {
    const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
    const login = await context.newPage();
    await login.goto("/overview");
    await expect(login).toHaveURL(/\/login\?next=%2Foverview$/);
    await login.getByRole("textbox", { name: "User name" }).fill(persona.name);
    await login.getByLabel("Password").fill(persona.password);
    await login.getByRole("button", { name: "Sign in" }).click();
    await login.waitForURL(/\/overview$/);
    await expect(login.getByRole("group", { name: "Signed in" })).toContainText(persona.name);
    await context.storageState({ path: statePath(persona.name as PersonaName) });
    await context.close();
  }
});
