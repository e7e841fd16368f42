import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";

/**
 * HQ mode (issue 15): head quarters' box with two shops' copies. Two demo shop boxes each take
 * a paid ticket (the same id at both) and ship their database with a real `litestream
 * replicate` to a file:// storage folder (appliance/modules/chain/testSites.ts); this spec
 * starts an HQ-mode box on that storage (port E2E_PORT+5; restores on demand only), restores
 * both sites from the Sites screen, and downloads a chain-wide item report.
 */
const HQ_PORT = MAIN_PORT + 5;
const HQ = `http://localhost:${HQ_PORT}`;
const root = resolve(`.e2e-data/hq-${HQ_PORT}`);
const storage = join(root, "storage");
let hq: ChildProcess | null = null;
let ticket = 0;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(storage, { recursive: true });
  const shipped = JSON.parse(execFileSync("node_modules/.bin/bun", ["appliance/modules/chain/testSites.ts", storage], { encoding: "utf8" }).trim()) as {
    mosta: number;
    birkirkara: number;
  };
  expect(shipped.mosta).toBe(shipped.birkirkara);
  ticket = shipped.mosta;
  const data = join(root, "data");
  hq = spawn("node_modules/.bin/bun", ["appliance/main.ts"], {
    env: {
      ...process.env,
      IRONBOX_MODE: "hq",
      IRONBOX_HQ_STORAGE: storage,
      IRONBOX_HQ_RESTORE_SECONDS: "0",
      IRONBOX_PORT: String(HQ_PORT),
      IRONBOX_HTTPS: "0",
      IRONBOX_MDNS: "0",
      IRONBOX_DATA_DIR: data,
      IRONBOX_SYSFS_ROOT: join(data, "sys"),
      IRONBOX_DEV_ROOT: join(data, "dev"),
      IRONBOX_DEMO: "1",
      IRONBOX_ADMIN_USER: "admin",
      IRONBOX_ADMIN_PASSWORD: "admin-pass-1",
      IRONBOX_ADMIN_PIN: "9999",
    },
    stdio: "ignore",
  });
  for (let i = 0; i < 200; i++) {
    const up = await fetch(`${HQ}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the HQ box did not start");
});

test.afterAll(() => {
  hq?.kill();
  rmSync(root, { recursive: true, force: true });
});

test("HQ staff restore two shops and download a chain report with both shops' ticket", async ({ page }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.open(`${HQ}/`);
  await app.loginShop();
  await app.enterPin("9999");
  await expect(page).toHaveURL(/\/home$/);

  await page.locator(".tiles .tile", { hasText: "Sites" }).click();
  await expect(page).toHaveURL(/\/sites$/);
  const table = page.getByRole("table", { name: "Sites" });
  for (const site of ["birkirkara", "mosta"]) {
    const row = table.locator(`tr[data-site="${site}"]`);
    await expect(row.locator('[data-col="last-data"]')).toHaveText("–");
    await row.getByRole("button", { name: `Restore ${site} now` }).click();
    await expect(app.toast(`${site} restored.`)).toBeVisible({ timeout: 30_000 });
    await expect(row.locator('[data-col="last-data"]')).toHaveText(/\d{2}\/\d{2}\/\d{4}/);
    await expect(row.locator('[data-col="takings"]')).not.toHaveText(/€\s?0[.,]00/);
    await expect(row.locator('[data-col="error"]')).toHaveText("none");
    await expect(row.locator('[data-col="lag"]')).not.toHaveText("–");
  }

  await page.getByRole("link", { name: "Chain reports" }).click();
  await expect(page).toHaveURL(/\/sites\/reports$/);
  const section = page.getByRole("region", { name: "Item report" });
  const [download] = await Promise.all([page.waitForEvent("download"), section.getByRole("button", { name: "Download Item Report", exact: true }).click()]);
  const rows = parse(readFileSync((await download.path())!, "utf8"), { bom: true, columns: true }) as Record<string, string>[];
  expect(Object.keys(rows[0]!)[0]).toBe("Site");
  // (site, id): the one ticket id is two tickets, one per shop, each with its own customer.
  const ours = rows.filter((r) => r["Ticket ID"] === String(ticket));
  expect(ours.map((r) => [r.Site, r.Customer]).sort()).toEqual([
    ["birkirkara", "Birkirkara Customer"],
    ["mosta", "Mosta Customer"],
  ]);

  // One site only.
  await page.getByRole("region", { name: "Sites" }).locator("select").selectOption("mosta");
  const [one] = await Promise.all([page.waitForEvent("download"), section.getByRole("button", { name: "Download Item Report", exact: true }).click()]);
  const oneRows = parse(readFileSync((await one.path())!, "utf8"), { bom: true, columns: true }) as Record<string, string>[];
  expect(new Set(oneRows.map((r) => r.Site))).toEqual(new Set(["mosta"]));
});

test("a shop's box offers no Sites tile", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  await expect(app.tiles().filter({ hasText: "Reporting" })).toBeVisible();
  await expect(app.tiles().filter({ hasText: /^Sites$/ })).toHaveCount(0);
});
