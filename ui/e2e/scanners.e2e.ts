import { expect, test } from "@playwright/test";
import { resolve } from "node:path";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";

// The e2e box's device root (playwright.config.ts): a gun path must be a device under it.
const GUN = `${resolve(`.e2e-data/main-${MAIN_PORT}`)}/dev/ttyACM9`;

test("the barcode guns screen lists the box's guns with their state and removes one", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  await page.goto("/configuration");
  await page.getByRole("link", { name: /Barcode guns/ }).click();
  await expect(page.getByRole("heading", { name: "Attached devices" })).toBeVisible();
  // A gun configured for a tty that is not plugged in: it shows, offline or not yet seen.
  const token = await page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
  const put = await page.request.put("/api/v1/scanners/", { headers: { authorization: `token ${token}` }, data: [{ id: "back-gun", name: "Back room gun", kind: "serial", path: GUN, baud: 9600 }] });
  expect(put.ok()).toBe(true);
  await page.reload();
  const row = page.getByRole("list", { name: "Guns" }).getByRole("listitem").filter({ hasText: "Back room gun" });
  await expect(row).toContainText(`${GUN} · 9600 baud`);
  await expect(row.locator(".badge")).toHaveText(/offline|unknown/);
  await row.getByRole("button", { name: "Remove" }).click();
  await expect(page.locator(".toast", { hasText: "Settings saved." })).toBeVisible();
  await expect(page.getByText("No gun is set up.")).toBeVisible();
});
