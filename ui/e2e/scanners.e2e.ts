import { createClient } from "@libsql/client";
import { expect, test } from "@playwright/test";
import { resolve } from "node:path";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";

// The e2e box's device root (playwright.config.ts): a gun path must be a device under it.
const DATA = resolve(`.e2e-data/main-${MAIN_PORT}`);
const GUN = `${DATA}/dev/ttyACM9`;

// Issue 33: one page for what was two tests. The stored list that no longer validates comes first
// (its server side is scanners.test.ts); saving a good list over it is the gun this test adds.
test("the barcode guns screen shows stored settings that no longer validate as 'settings invalid', lists the box's guns with their state and removes one", async ({
  page,
}) => {
  // As an older version or a hand edit could have left them: a path that is not absolute.
  const db = createClient({ url: `file:${DATA}/ironbox.db` });
  await db.execute({
    sql: "INSERT INTO box_settings (key, value) VALUES ('scanners', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    args: [JSON.stringify([{ id: "old-gun", name: "Old gun", kind: "serial", path: "ttyACM0", baud: 9600 }])],
  });
  db.close();
  const app = new AppPage(page);
  await app.openAs("/configuration", "9999");
  await page.getByRole("link", { name: /Barcode guns/ }).click();
  const banner = page.getByRole("alert").filter({ hasText: "settings invalid" });
  await expect(banner).toContainText("Stored gun settings invalid: #1 path: must be an absolute device path");
  await expect(page.getByText("No gun is set up.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Attached devices" })).toBeVisible();
  // A gun configured for a tty that is not plugged in: it shows, offline or not yet seen.
  const token = await page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
  const put = await page.request.put("/api/v1/scanners/", {
    headers: { authorization: `token ${token}` },
    data: [{ id: "back-gun", name: "Back room gun", kind: "serial", path: GUN, baud: 9600 }],
  });
  expect(put.ok()).toBe(true);
  await page.reload();
  await expect(page.getByText("settings invalid")).toHaveCount(0);
  const row = page.getByRole("list", { name: "Guns" }).getByRole("listitem").filter({ hasText: "Back room gun" });
  await expect(row).toContainText(`${GUN} · 9600 baud`);
  await expect(row.locator(".badge")).toHaveText(/offline|unknown/);
  await row.getByRole("button", { name: "Remove" }).click();
  await expect(page.locator(".toast", { hasText: "Settings saved." })).toBeVisible();
  await expect(page.getByText("No gun is set up.")).toBeVisible();
});
