import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "@playwright/test";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";
import { OwnBox } from "./pages/ownBox";

/**
 * Issue 23: a box upgraded under an open tablet. The tablet keeps the ticket it is building
 * (no reload in the middle of it), says that the box was updated, and loads the new release
 * when the person moves to another screen. The "new release" is the built UI with another
 * build id (as scripts/build-ui.ts writes it: in index.html and build.json).
 */
const box = new OwnBox(MAIN_PORT + 11, { IRONBOX_HTTPS: "0" });
const next = resolve(`.e2e-data/ui-next-${MAIN_PORT + 11}`);
const NEXT_BUILD = "9.9.9+e2e";
test.use({ baseURL: box.url });
test.beforeAll(async () => {
  rmSync(next, { recursive: true, force: true });
  // The UI the boxes of this run serve (npm test builds its own: scripts/test.sh).
  cpSync(resolve(process.env.IRONBOX_UI_DIR || "ui/dist"), next, { recursive: true });
  const index = resolve(next, "index.html");
  writeFileSync(
    index,
    readFileSync(index, "utf8").replace(/<meta name="ironbox-build" content="[^"]*">/, `<meta name="ironbox-build" content="${NEXT_BUILD}">`),
  );
  writeFileSync(resolve(next, "build.json"), JSON.stringify({ build: NEXT_BUILD, version: "9.9.9" }));
  await box.start();
});
test.afterAll(async () => {
  await box.remove();
  rmSync(next, { recursive: true, force: true });
});

test("an upgrade under an open tablet: the ticket stays, the new release loads on the next screen", async ({ page }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.loginAs("3333");
  const built = await page.locator('meta[name="ironbox-build"]').getAttribute("content");
  expect(built).toBeTruthy();
  expect(built).not.toBe(NEXT_BUILD);

  // A ticket in the making on the counter.
  const token = await page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
  const created = await page.request.post("/api/v1/customers/", {
    headers: { authorization: `token ${token}` },
    data: { full_name: "Release Test", mobile: "79000321" },
  });
  await page.goto(`/customers/${(await created.json()).data.id}/new-ticket/0`);
  await expect(page).toHaveURL(/\/new-ticket\/[1-9]\d*$/);
  const ticketUrl = page.url();
  await page.getByRole("tab", { name: "Laundry" }).click();
  await page.getByRole("button", { name: "Shirt", exact: true }).click();
  await expect(page.getByTestId("item-row")).toHaveCount(1);
  // Marks this page load: a reload would forget it.
  await page.evaluate(() => ((window as unknown as { loadMark: number }).loadMark = 1));

  // The box is upgraded (stopped, started with the new release's UI) while the tablet stays open.
  await box.stop();
  await box.start({ IRONBOX_UI_DIR: next });

  // The next tap talks to the new box: the ticket stays as it was, the page says an update came.
  await page.getByRole("button", { name: "Shirt", exact: true }).click();
  await expect(page.getByTestId("item-row")).toHaveCount(2, { timeout: 15_000 });
  await expect(page.getByRole("status").filter({ hasText: "Ironbox was updated" })).toBeVisible();
  expect(page.url()).toBe(ticketUrl);
  expect(await page.evaluate(() => (window as unknown as { loadMark?: number }).loadMark)).toBe(1);

  // Moving on is the safe moment: the page loads the new release.
  await page.getByRole("button", { name: "Home", exact: true }).click();
  await expect(page.locator('meta[name="ironbox-build"]')).toHaveAttribute("content", NEXT_BUILD, { timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { loadMark?: number }).loadMark)).toBeUndefined();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("status").filter({ hasText: "Ironbox was updated" })).toHaveCount(0);
});
