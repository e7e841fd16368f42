import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { AppPage } from "./pages/app";
import { shot } from "./pages/shot";

/** The catalogue screens as an admin builds a catalogue (issue 3, "Done when"). */
const saved = (page: Page) => expect(page.locator(".toast", { hasText: "Information Saved" }).last()).toBeVisible();

test("an admin builds a catalogue, reorders, edits the quick grid and prints the price list", async ({ page }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  const stamp = Date.now().toString(36).slice(-4);
  await app.loginAs("9999");

  // Two actions, one a percentage of the other.
  await page.goto("/actions/0");
  await page.getByLabel("Name", { exact: true }).fill(`Steam ${stamp}`);
  await page.getByLabel("Price (€)").fill("10");
  await page.getByLabel("Discount %").fill("150");
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await expect(page.getByLabel("Discount %")).toHaveValue("100");
  await expect(page).toHaveURL(/\/actions\/\d+$/);

  await page.goto("/actions/0");
  await page.getByLabel("Name", { exact: true }).fill(`Express Steam ${stamp}`);
  await page.getByLabel("Is percentage of another action").check();
  await page.getByRole("combobox", { name: "Percentage of" }).selectOption({ label: `Steam ${stamp}` });
  await page.getByLabel("Up-charge (% of that action)").fill("150");
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await expect(page.getByText("Current price: €15.00")).toBeVisible();

  // A category and a garment with pieces.
  await page.goto("/garments/0");
  await page.getByLabel("Name", { exact: true }).fill(`Formal ${stamp}`);
  await page.getByLabel("Type").selectOption("Dry Clean");
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await page.getByRole("link", { name: "Add garment" }).click();
  await page.getByLabel("Name", { exact: true }).fill(`Tuxedo ${stamp}`);
  await page.getByLabel("Pieces", { exact: true }).fill("Jacket, Trousers");
  await page.getByLabel("Choose pieces at the counter").check();
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await expect(page.getByLabel("Pieces", { exact: true })).toHaveValue("Jacket,Trousers");

  // Prices: a flat one, then one as a percentage of it.
  await page
    .getByRole("list", { name: "Prices" })
    .getByRole("link", { name: new RegExp(`^Steam ${stamp}`) })
    .click();
  await page.getByLabel("Price (€)").fill("20");
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await page
    .getByRole("list", { name: "Prices" })
    .getByRole("link", { name: new RegExp(`^Express Steam ${stamp}`) })
    .click();
  await page.getByLabel("Percentage of another price of this garment").check();
  await page.getByLabel("Percent", { exact: true }).fill("60");
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await expect(page.getByRole("list", { name: "Prices" }).getByRole("link", { name: new RegExp(`^Express Steam ${stamp}`) })).toContainText("€12.00");

  // A colour modifier and an EXPRESS one.
  await page.goto("/modifiers/0?type=COLOR");
  await page.getByLabel("Name", { exact: true }).fill(`Teal ${stamp}`);
  await page.getByLabel("Colour swatch instead of an image").check();
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await page.goto("/modifiers/0?type=EXPRESS");
  await page.getByLabel("Name", { exact: true }).fill("Same Day");
  await page.getByLabel("Up-charge (€)").fill("7.5");
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await page.getByRole("button", { name: /EXPRESS/ }).click();
  await expect(page.getByRole("link", { name: /Same Day/ }).first()).toBeVisible();
  await page.getByRole("button", { name: /COLOR/ }).click();
  await expect(page.getByRole("link", { name: new RegExp(`Teal ${stamp}`) }).locator(".swatch")).toBeVisible();

  // Search and reorder: the new category moves to the top, and stays there.
  await page.goto("/garments");
  await page.getByLabel("Search garments").fill(`Tuxedo ${stamp}`);
  await expect(page.getByTestId("category")).toHaveCount(1);
  await page.getByLabel("Search garments").fill("");
  await page.getByRole("button", { name: "Reorder" }).click();
  const moveUp = page.getByRole("button", { name: `Move Formal ${stamp} up` });
  while (await moveUp.isEnabled()) await moveUp.click();
  await page.getByRole("button", { name: "Done reordering" }).click();
  await saved(page);
  await page.reload();
  await expect(page.getByTestId("category").first()).toContainText(`Formal ${stamp}`);

  // The quick grid: change the flat price in place, Enter moves down, save in one go.
  await page.goto("/quickgarments");
  const cell = page.getByLabel(`Tuxedo ${stamp} Steam ${stamp}`, { exact: true });
  await expect(cell).toHaveValue("20.00");
  await cell.fill("25");
  await cell.press("Enter");
  await page.getByRole("button", { name: "Save prices" }).click();
  await expect(page.locator(".toast", { hasText: "Settings saved." })).toBeVisible();
  await expect(cell).toHaveValue("25.00");
  // The percentage price follows: 60 % of €25.
  await expect(page.getByLabel(`Tuxedo ${stamp} Express Steam ${stamp}`, { exact: true })).toHaveValue("15.00");

  // The price list PDF lists the garment and its price.
  await page.goto("/configuration");
  const href = await page.getByRole("link", { name: /Price list/ }).getAttribute("href");
  const pdf = await page.request.get(href!);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  const file = test.info().outputPath("pricelist.pdf");
  writeFileSync(file, await pdf.body());
  const text = execFileSync("pdftotext", ["-layout", file, "-"]).toString();
  expect(text).toContain(`Tuxedo ${stamp}`);
  expect(text).toContain(`Steam ${stamp} €25.00`);
});

// A non-admin typing the catalogue's screens lands on /home: ui/app/routes.test.ts (issue 33).
test("deleting asks first and says so", async ({ page }) => {
  const app = new AppPage(page);
  await app.openAs("/actions/0", "9999");
  await page.getByLabel("Name", { exact: true }).fill("Throwaway");
  await page.getByRole("button", { name: "Save" }).click();
  await saved(page);
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Are you sure?");
  await page.getByRole("button", { name: "OK" }).click();
  await expect(page.locator(".toast", { hasText: "Action Removed" })).toBeVisible();
  await expect(page).toHaveURL(/\/actions$/);
});

test("the demo catalogue shows in every screen", async ({ page }) => {
  const app = new AppPage(page);
  await app.openAs("/garments", "9999");
  await expect(page.getByTestId("category").filter({ hasText: "Dry Clean" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: "Suit 2pc" }).first()).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, "garments-tablet");
  await page.goto("/modifiers");
  await page.getByRole("button", { name: /EXPRESS/ }).click();
  for (const name of ["Same Day", "Next Day", "Sixth Day"]) await expect(page.getByRole("link", { name: new RegExp(name) }).first()).toBeVisible();
  await shot(page, "modifiers-tablet");
  await page.goto("/quickgarments");
  await expect(page.locator(".price-grid tbody tr").first()).toBeVisible();
  await shot(page, "quickgarments-tablet");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/actions");
  await expect(page.getByRole("link", { name: /Dry Cleaning/ })).toBeVisible();
  await shot(page, "actions-phone");
});

test("a shop's admin sees the catalogue and places read-only: no add, save or delete, and a note says why; HQ still edits", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("5555", "birkirkara", "shop-demo-2026");
  const note = page.getByRole("note").filter({ hasText: "Shared by every shop: only head-quarters staff change it." });

  await page.goto("/actions");
  await expect(note).toBeVisible();
  await expect(page.getByRole("link", { name: "Add action" })).toHaveCount(0);
  await page.locator(".row-link").first().click();
  await expect(page).toHaveURL(/\/actions\/\d+$/);
  await expect(page.getByLabel("Name", { exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);

  await page.goto("/garments");
  await expect(note).toBeVisible();
  await expect(page.getByRole("link", { name: "Add category" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Reorder" })).toHaveCount(0);
  await page.goto("/modifiers");
  await expect(note).toBeVisible();
  await expect(page.getByRole("link", { name: "Add modifier" })).toHaveCount(0);
  await page.goto("/quickgarments");
  await expect(note).toBeVisible();
  await expect(page.getByRole("button", { name: "Save prices" })).toHaveCount(0);
  await expect(page.locator("table.price-grid input").first()).toBeDisabled();

  await page.goto("/configPlaces");
  await expect(note).toBeVisible();
  await expect(page.getByLabel("Localities").getByRole("button").first()).toBeVisible();
  for (const box of ["New locality", "New delivery state", "New preference"]) await expect(page.getByLabel(box)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Rename" })).toHaveCount(0);

  // Control: head quarters' admin (on this tablet, once the shop is logged out) has the controls.
  await page.evaluate(() => localStorage.clear());
  await app.openAs("/actions", "9999");
  await expect(page.getByRole("link", { name: "Add action" })).toBeVisible();
  await expect(note).toHaveCount(0);
  await page.goto("/configPlaces");
  await expect(page.getByLabel("New locality")).toBeVisible();
});
