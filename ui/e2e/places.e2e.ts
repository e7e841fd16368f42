import { expect, test } from "@playwright/test";
import { AppPage } from "./pages/app";

test("an admin adds a locality, one of its streets and a preference", async ({ page }) => {
  const app = new AppPage(page);
  const stamp = Date.now().toString(36).slice(-4);
  await app.openAs("/configuration", "9999");
  await page.getByRole("link", { name: /Places & preferences/ }).click();
  await page.getByLabel("New locality").fill(`Marsaxlokk ${stamp}`);
  await page.getByLabel("New locality").press("Enter");
  await page
    .getByRole("list", { name: "Localities" })
    .getByRole("button", { name: `Marsaxlokk ${stamp}` })
    .click();
  await page.getByLabel("New street").fill("Xatt is-Sajjieda");
  await page.getByLabel("New street").press("Enter");
  await expect(page.getByRole("list", { name: "Streets" })).toContainText("Xatt is-Sajjieda");
  await page.getByLabel("New preference").fill(`Light starch ${stamp}`);
  await page.getByLabel("New preference").press("Enter");
  await expect(page.getByLabel("Preferences")).toContainText(`Light starch ${stamp}`);
  // A delivery state for the new locality, then renamed.
  await page.getByLabel("New delivery state").fill(`Marsaxlokk ${stamp}`);
  await page.getByLabel("New delivery state").press("Enter");
  const states = page.getByRole("list", { name: "Delivery states" });
  await expect(states).toContainText(`Marsaxlokk ${stamp}`);
  page.once("dialog", (d) => d.accept(`M'Xlokk ${stamp}`));
  await states
    .getByRole("listitem")
    .filter({ hasText: `Marsaxlokk ${stamp}` })
    .getByRole("button", { name: "Rename" })
    .click();
  await expect(states).toContainText(`M'Xlokk ${stamp}`);
  // The pickers on other screens read the same lists.
  const streets = await page.request.get("/api/v1/localities/", {
    headers: { authorization: `token ${await page.evaluate(() => localStorage.getItem("ironbox.employeeToken"))}` },
  });
  expect((await streets.json()).data.map((l: { name: string }) => l.name)).toContain(`Marsaxlokk ${stamp}`);
});
