import { expect, type Page } from "@playwright/test";

/** Signs in through the sign-in page of the page's own server and waits until the header names the user. */
export async function signInThroughPage(page: Page, name: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByRole("textbox", { name: "User name" }).fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("group", { name: "Signed in" })).toContainText(name);
}
