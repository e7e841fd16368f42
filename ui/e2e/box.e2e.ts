import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import pkg from "../../package.json" with { type: "json" };
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";

/**
 * "The box" (issue 16): the admin's health panel, and the home screen's warning when something
 * needs a person. The e2e box's printers are stand-ins under its data dir (playwright.config.ts):
 * a printer set up at a device path where nothing is plugged in is offline.
 */
const DATA = resolve(`.e2e-data/main-${MAIN_PORT}`);
const auth = async (page: Page) => ({ authorization: `token ${await page.evaluate(() => localStorage.getItem("ironbox.employeeToken"))}` });

test("The box shows printers, disk and version; an offline printer puts a warning on the home screen until it is gone", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const headers = await auth(page);
  const before = (await (await page.request.get("/api/v1/printers/settings", { headers })).json()).data.printers;
  const offline = { id: "back-room", name: "Back room labels", language: "PPLZ", target: { kind: "usblp", path: `${DATA}/dev/usb/lp7` } };
  expect((await page.request.put("/api/v1/printers/", { headers, data: [...before, offline] })).status()).toBe(200);
  try {
    await page.reload();
    const warning = page.getByRole("alert").filter({ hasText: "The box needs attention" });
    await expect(warning).toContainText('Printer "Back room labels" is not connected');
    await warning.click();
    await expect(page).toHaveURL(/\/box$/);

    const printers = page.getByRole("list", { name: "Printers" });
    await expect(printers.getByRole("listitem").filter({ hasText: "Back room labels" })).toContainText("offline");
    await expect(printers.getByRole("listitem").filter({ hasText: "Back room labels" })).toContainText("Last print: never");
    await expect(page.getByRole("list", { name: "Needs attention" })).toContainText('Printer "Back room labels" is not connected');
    const facts = page.getByLabel("Box facts");
    await expect(facts).toContainText(`Version${pkg.version}`);
    await expect(facts).toContainText(/Disk free[\d.]+ [MG]B of [\d.]+ [MG]B \([\d.]+ %\)/);
    await expect(facts).toContainText("Database check");

    // From Configuration too.
    await page.goto("/configuration");
    await page.getByRole("link", { name: "The box" }).click();
    await expect(page).toHaveURL(/\/box$/);
  } finally {
    await page.request.put("/api/v1/printers/", { headers, data: before });
  }
  await page.goto("/home");
  await expect(page.getByRole("link", { name: "Customers" })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "The box needs attention" })).toHaveCount(0);
});

test("Back up now takes a checked copy of the database, and the panel shows it as the last backup", async ({ page }) => {
  const app = new AppPage(page);
  await app.openAs("/box", "9999");
  const facts = page.getByLabel("Box facts");
  await expect(facts).toContainText("Backup disk");
  await page.getByRole("button", { name: "Back up now" }).click();
  await expect(facts).toContainText(/Last backup.*, taken by hand \([\d.]+ MB\)/);
  await expect(facts).toContainText(/last run .*: ok/);
  await expect(page.getByRole("button", { name: "Back up now" })).toBeEnabled();
  // The button is not a loop that rotates the nightly copies away (issue 32).
  await page.getByRole("button", { name: "Back up now" }).click();
  await expect(page.getByText(/A backup was taken by hand less than 10 minutes ago: try again in \d+ minutes?/)).toBeVisible();
});
