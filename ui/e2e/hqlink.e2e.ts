import { expect, test } from "@playwright/test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppPage } from "./pages/app";

// HQ's storage for this test: a folder (file://). The real Litestream of the e2e box ships to it;
// the SFTP path is covered by appliance/modules/hqlink/hqlink.test.ts against a real sshd.
let replica = "";
test.beforeAll(() => {
  replica = mkdtempSync(join(tmpdir(), "ironbox-e2e-replica-"));
});
test.afterAll(async ({ request }) => {
  // The e2e box keeps running after this spec: turn its link off again before removing the folder.
  const agent = (await (await request.post("/api/v1/login/agent", { data: { user_name: "admin", password: "admin-pass-1" } })).json()).data;
  const emp = (await (await request.post("/api/v1/login/employee", { headers: { authorization: `token ${agent}` }, data: { pin: "9999" } })).json()).data;
  await request.put("/api/v1/hqlink", { headers: { authorization: `token ${emp}` }, data: { url: null } });
  rmSync(replica, { recursive: true, force: true });
});

test("Link to HQ: set the replica, see it ship and level, check HQ, and an unreachable HQ in plain words", async ({ page }) => {
  test.setTimeout(60_000);
  const app = new AppPage(page);
  await app.openAs("/configuration", "9999");
  await page.getByRole("link", { name: /Link to HQ/ }).click();
  const state = page.getByRole("definition").filter({ has: page.locator("[data-state]") });
  await expect(state).toHaveText("Off: no link to HQ is set up");
  await expect(page.getByRole("button", { name: "Check" })).toBeDisabled();

  // A URL the box may not connect to is refused with the reason; nothing is saved.
  await page.getByLabel("Replica URL").fill("http://hq.example.com/mosta");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(app.toast(/url: must start with sftp:\/\/ or s3:\/\//)).toBeVisible();

  await page.getByLabel("Replica URL").fill(`file://${replica}/mosta`);
  await page.getByLabel("This site's name").fill("Mosta");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(app.toast("Saved; the link restarts")).toBeVisible();
  // Litestream ships the database and the screen, refreshing by itself, shows the link level.
  await expect(state).toHaveText("Up to date", { timeout: 20_000 });
  const facts = page.getByRole("definition");
  // The lag: none when level; a few seconds while other specs write to the shared e2e box.
  await expect(facts.nth(1)).toHaveText(/^(none|\d+ s)$/);
  await expect(facts.nth(3)).toHaveText(/^generation [0-9a-f]{16}, WAL \d+, byte [\d,]+$/);
  await expect(facts.nth(2)).not.toHaveText("never");
  await expect(facts.nth(4)).toHaveText("none");
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByRole("status")).toHaveText(/HQ's storage answered: \d+ snapshots? of this box there/);

  // HQ's server not answering: the state says so in plain words.
  await page.getByLabel("Replica URL").fill("sftp://mosta@127.0.0.1:9/mosta");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(state).toHaveText("Not reaching HQ", { timeout: 20_000 });
  await expect(page.getByRole("alert").filter({ hasText: "HQ's server" })).toBeVisible();
  await expect(page.getByLabel("SSH key")).toHaveValue("");
});

test("Link to HQ: when the first read fails, the next one fills the form (Save never sends empty fields)", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  let failed = 0;
  await page.route("**/api/v1/hqlink", async (route) => {
    if (route.request().method() === "GET" && failed === 0) {
      failed++;
      return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ success: false, message: "Busy" }) });
    }
    return route.continue();
  });
  await page.goto("/hqlink");
  await expect(page.getByRole("definition").filter({ has: page.locator("[data-state]") })).toBeVisible({ timeout: 10_000 });
  expect(failed).toBe(1);
  await expect(page.getByLabel("Warn when behind by more than (seconds)")).toHaveValue(/^\d+$/);
});

test("a shop's admin sees the link but cannot change it (the server refuses it too)", async ({ page }) => {
  const app = new AppPage(page);
  await app.openAs("/hqlink", "5555", "birkirkara", "shop-demo-2026");
  await expect(page.getByRole("definition").filter({ has: page.locator("[data-state]") })).toBeVisible();
  await expect(page.getByText("Only head-quarters staff change the link.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByLabel("Replica URL")).toHaveAttribute("readonly", "");
});
