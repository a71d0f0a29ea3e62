/**
 * Signing in and out: a page asked for while signed out sends you to the sign-in page and back;
 * a wrong password and the failed-sign-in limit are told as the server says them; the
 * navigation shows who is signed in and their role; signing out ends the session on the server
 * (the old cookie no longer opens anything).
 */
import { expect, failedLoad, test } from "./fixtures";
import { BASE_URL, PERSONAS } from "./personas";

test.use({ storageState: { cookies: [], origins: [] } });

const vic = PERSONAS.vic;

test("sign in, come back to the page asked for, see who you are, and sign out", async ({ page, context, allowConsoleError }) => {
  // The wrong password below is refused with 401, which Chromium logs.
  allowConsoleError(failedLoad(401, `${BASE_URL}/api/trpc/auth.signIn?batch=1`));
  await page.goto("/workers?pool=nope");
  await expect(page).toHaveURL(/\/login\?next=%2Fworkers%3Fpool%3Dnope$/);
  await expect(page.getByRole("heading", { name: "Sign in to Loom", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Jobs" })).toHaveCount(0);

  const name = page.getByRole("textbox", { name: "User name" });
  const password = page.getByLabel("Password");
  await name.fill(vic.name);
  await password.fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Not signed in: wrong user name or password");

  await password.fill(vic.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/workers\?pool=nope$/);
  const signedIn = page.getByRole("group", { name: "Signed in" });
  await expect(signedIn).toContainText(vic.name);
  await expect(signedIn).toContainText("Viewer");
  // A viewer is not offered what the server would refuse them: no submitting, no admin sections, no worker actions.
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Jobs" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Submit" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Users" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Actions" })).toHaveCount(0);
  // Already signed in, the sign-in page sends you on.
  await page.goto("/login?next=/pools");
  await expect(page).toHaveURL(/\/pools$/);
  const cookie = (await context.cookies()).find((c) => c.name === "loom_session");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe("Lax");

  await signedIn.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/login$/);
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?next=%2Fjobs$/);

  // The cookie the browser held is dead on the server too, not just forgotten by the browser.
  await context.addCookies([cookie!]);
  await page.goto("/jobs");
  await expect(page).toHaveURL(/\/login\?next=%2Fjobs$/);
});

test("the sign-in page says when failed sign-ins hit the limit, and never where a next address points off the portal", async ({ page, allowConsoleError }) => {
  // Every refused sign-in below is logged by Chromium: 401s, then the limit's 429.
  for (const url of [`${BASE_URL}/api/trpc/auth.signIn`, `${BASE_URL}/api/trpc/auth.signIn?batch=1`]) {
    allowConsoleError(failedLoad(401, url));
    allowConsoleError(failedLoad(429, url));
  }
  const name = "nobody-e2e";
  // Ten failures for one account (the farm's limit per account), sent as the sign-in form sends them.
  await page.goto("/login?next=https://evil.example/");
  for (let i = 0; i < 10; i++) {
    const status = await page.evaluate(async (user) => {
      const response = await fetch("/api/trpc/auth.signIn", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: user, password: "wrong password" }) });
      return response.status;
    }, name);
    expect(status).toBe(401);
  }
  await page.getByRole("textbox", { name: "User name" }).fill(name);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(/^Not signed in: too many failed sign-ins for this account; try again in \d+ minutes$/);

  // A real account still signs in (the limit is per account), and lands on the portal, not on evil.example.
  await page.getByRole("textbox", { name: "User name" }).fill(vic.name);
  await page.getByLabel("Password").fill(vic.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/overview$/);
});
