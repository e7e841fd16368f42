import { expect, test } from "@playwright/test";
import { AppPage } from "./pages/app";

test("the barcode guns screen lists the box's guns with their state and removes one", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  await page.goto("/configuration");
  await page.getByRole("link", { name: /Barcode guns/ }).click();
  await expect(page.getByRole("heading", { name: "Attached devices" })).toBeVisible();
  // A gun configured for a tty that is not plugged in: it shows, offline or not yet seen.
  const token = await page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
  const put = await page.request.put("/api/v1/scanners/", { headers: { authorization: `token ${token}` }, data: [{ id: "back-gun", name: "Back room gun", kind: "serial", path: "/dev/ttyACM9", baud: 9600 }] });
  expect(put.ok()).toBe(true);
  await page.reload();
  const row = page.getByRole("list", { name: "Guns" }).getByRole("listitem").filter({ hasText: "Back room gun" });
  await expect(row).toContainText("/dev/ttyACM9 · 9600 baud");
  await expect(row.locator(".badge")).toHaveText(/offline|unknown/);
  await row.getByRole("button", { name: "Remove" }).click();
  await expect(page.locator(".toast", { hasText: "Settings saved." })).toBeVisible();
  await expect(page.getByText("No gun is set up.")).toBeVisible();
});
