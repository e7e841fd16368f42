import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";
import { OwnBox } from "./pages/ownBox";

/**
 * HQ mode (issue 15): head quarters' box with two shops' copies. Two demo shop boxes each take
 * a paid ticket (the same id at both) and ship their database with a real `litestream
 * replicate` to a file:// storage folder (appliance/test/chainSites.ts); this spec
 * starts an HQ-mode box on that storage (port E2E_PORT+9; restores on demand only), restores
 * both sites from the Sites screen, and downloads a chain-wide item report.
 */
// +9: the other specs' own boxes and stand-ins use +1 … +8.
const storage = resolve(`.e2e-data/hq-storage-${MAIN_PORT + 9}`);
const hqBox = new OwnBox(MAIN_PORT + 9, { IRONBOX_HTTPS: "0", IRONBOX_MODE: "hq", IRONBOX_HQ_STORAGE: storage, IRONBOX_HQ_RESTORE_SECONDS: "0" });
const HQ = hqBox.url;
let ticket = 0;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  rmSync(storage, { recursive: true, force: true });
  mkdirSync(storage, { recursive: true });
  const shipped = JSON.parse(execFileSync("node_modules/.bin/bun", ["appliance/test/chainSites.ts", storage], { encoding: "utf8" }).trim()) as {
    mosta: number;
    birkirkara: number;
  };
  expect(shipped.mosta).toBe(shipped.birkirkara);
  ticket = shipped.mosta;
  await hqBox.start();
});

test.afterAll(async () => {
  await hqBox.remove();
  rmSync(storage, { recursive: true, force: true });
});

test("HQ staff restore two shops and download a chain report with both shops' ticket", async ({ page }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.open(`${HQ}/`);
  await app.loginShop();
  await app.signIn("9999");
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
    // The demo's €20 deposit at Mosta, six days ago: held by both copies, nothing taken today (issue 34).
    await expect(row.locator('[data-col="deposits"]')).toHaveText(/^Held €\s?20[.,]00$/);
    await expect(row.locator('[data-col="error"]')).toHaveText("none");
    await expect(row.locator('[data-col="totals"]')).toHaveText("equal to their payments");
    await expect(row.locator('[data-col="lag"]')).not.toHaveText("–");
  }

  // A shop one migration behind: restored and shown with its version and what it means, never read.
  const qormi = table.locator('tr[data-site="qormi"]');
  await qormi.getByRole("button", { name: "Restore qormi now" }).click();
  await expect(app.toast("qormi restored.")).toBeVisible({ timeout: 30_000 });
  await expect(qormi.locator('[data-col="version"]')).toContainText(/schema \d+ · release 0\.0\.1/);
  await expect(qormi.locator('[data-col="version"]')).toContainText("This site is on an older release");
  await expect(qormi.locator('[data-col="version"]')).toContainText("reports for this site wait until it upgrades");
  await expect(qormi.locator('[data-col="last-data"]')).toHaveText("–");
  await expect(table.locator('tr[data-site="mosta"] [data-col="version"] [role="note"]')).toHaveCount(0);

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

  // Issue 34's aged receivables at HQ: the demo's hotel account at Mosta in both copies (same id), or one site's.
  await page.goto(`${HQ}/accounts/aged`);
  const picker = page.getByLabel("Aged receivables site");
  await expect(picker.locator("option")).toHaveText(["All sites", "birkirkara", "mosta", "qormi"]);
  // A copy HQ holds but cannot read (a release behind): chosen, it says why, never an empty report.
  await picker.selectOption("qormi");
  await expect(page.getByTestId("load-failed")).toContainText("older release");
  await expect(page.getByText("No accounts yet.")).toHaveCount(0);
  await picker.selectOption("");
  const aged = page.getByTestId("aged");
  const ofSite = (site: string) => aged.locator(`tbody tr[data-testid^="aged-${site}-"]`);
  await expect(ofSite("birkirkara").first()).toBeVisible();
  const mostaRows = await ofSite("mosta").count();
  expect(mostaRows).toBeGreaterThan(0);
  await picker.selectOption("mosta");
  await expect(ofSite("birkirkara")).toHaveCount(0);
  await expect(aged.locator("tbody tr")).toHaveCount(mostaRows);
  await expect(ofSite("mosta")).toHaveCount(mostaRows);
  const [agedCsv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  const agedRows = parse(readFileSync((await agedCsv.path())!, "utf8"), { bom: true, columns: true }) as Record<string, string>[];
  expect(agedRows.length).toBeGreaterThan(0);
  expect(JSON.stringify(agedRows)).not.toContain("birkirkara");
  expect(JSON.stringify(agedRows)).toContain("mosta");

  // The deposit transfer between boxes: each site's shops by name from its copy (their ids are the site's own).
  const token = await page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
  const made = await (
    await page.request.post(`${HQ}/api/v1/customers/`, {
      headers: { authorization: `token ${token}` },
      data: { full_name: "Transfer Customer", mobile: "79112233" },
    })
  ).json();
  expect(made.success).toBe(true);
  await page.goto(`${HQ}/customers/${made.data.id}`);
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  const transfer = page.getByRole("form", { name: "Transfer the deposit" });
  await transfer.getByRole("checkbox").check();
  await expect(transfer.getByLabel("Transfer from shop")).toBeDisabled();
  await transfer.getByLabel("Transfer from site").selectOption("mosta");
  await expect(transfer.getByLabel("Transfer from shop").locator("option", { hasText: "Ironbox Mosta" })).toHaveCount(1);
  await transfer.getByLabel("Transfer from shop").selectOption({ label: "Ironbox Mosta" });
  await transfer.getByLabel("Transfer to site").selectOption("birkirkara");
  await transfer.getByLabel("Transfer to shop").selectOption({ label: "Ironbox Birkirkara" });
  await transfer.getByLabel("Transfer amount").fill("5");
  await transfer.getByRole("button", { name: "Transfer", exact: true }).click();
  // The from shop was found in Mosta's copy by the id its name stands for (else "from_agent: Shop of mosta"); no such customer there.
  await expect(transfer.getByTestId("transfer-problem")).toContainText("Customer at mosta not found");
});

test("a shop's box offers no Sites tile", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  await expect(app.tiles().filter({ hasText: "Reporting" })).toBeVisible();
  await expect(app.tiles().filter({ hasText: /^Sites$/ })).toHaveCount(0);
});
