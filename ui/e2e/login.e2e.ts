import { expect, test } from "@playwright/test";
import { EMPTY_BOX } from "./pages/env";
import { AppPage } from "./pages/app";

test.describe("shop login", () => {
  test("empty fields ask for both", async ({ page }) => {
    const app = new AppPage(page);
    await app.open();
    await app.userName.fill("   ");
    await app.password.press("Enter");
    await expect(app.toast("Username & Password required")).toBeVisible();
  });

  test("wrong credentials say so", async ({ page }) => {
    const app = new AppPage(page);
    await app.open();
    await app.userName.fill("admin");
    await app.password.fill("not-the-password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.locator(".form-error")).toHaveText("Wrong username/password");
    await expect(app.toast("Wrong username/password")).toBeVisible();
    await expect(app.pin).toBeHidden();
  });

  test("right credentials open the PIN modal; a wrong PIN says 'Incorrect Pin'; the right one opens home", async ({ page }) => {
    const app = new AppPage(page);
    await app.open();
    await app.loginShop();
    await app.enterPin("1234");
    await expect(app.toast("Incorrect Pin")).toBeVisible();
    await app.enterPin("9999");
    await expect(app.pin).toBeHidden();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByTestId("who")).toContainText("Administrator");
  });

  test("the session survives a reload; shop logout returns to the login screen", async ({ page }) => {
    const app = new AppPage(page);
    await app.loginAs("9999");
    await page.reload();
    await expect(app.tiles().first()).toBeVisible();
    await page.getByRole("button", { name: "Log out shop" }).click();
    await page.getByRole("button", { name: "OK" }).click();
    await expect(app.userName).toBeVisible();
    await page.reload();
    await expect(app.userName).toBeVisible();
  });

  test("storage older than version 5 is cleared at start", async ({ page }) => {
    const app = new AppPage(page);
    await app.loginAs("9999");
    await page.evaluate(() => localStorage.setItem("ironbox.version", "4"));
    await page.reload();
    await expect(app.userName).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("ironbox.version"))).toBe("5");
  });
});

test.describe("first run", () => {
  test("an empty box asks for setup, then its shop and admin can log in", async ({ page }) => {
    const app = new AppPage(page);
    await page.goto(EMPTY_BOX);
    await expect(page.getByText("Welcome to Ironbox")).toBeVisible();
    await page.getByLabel("Shop (agent) name").fill("Ironbox Sliema");
    await page.getByLabel("Shop user name").fill("sliema");
    await page.getByLabel("Shop password").fill("sliema-pass-1");
    await page.getByLabel("Administrator's full name").fill("Rita Spiteri");
    await page.getByLabel("Administrator's PIN").fill("1357");
    await page.getByRole("button", { name: "Set up Ironbox" }).click();
    await expect(page.getByText("Log this tablet in to your shop.")).toBeVisible();
    await app.loginShop("sliema", "sliema-pass-1");
    await app.enterPin("1357");
    await expect(page.getByTestId("who")).toContainText("Rita Spiteri");
    await expect(app.tiles()).toHaveCount(14);

    // This box is this test's own, so its shop's PIN lock can be tried: after 5 wrong PINs
    // the box answers 429 and the modal shows the box's reason instead of 'Incorrect Pin'.
    await page.getByRole("button", { name: /Logout/ }).click();
    // Each attempt waits for the box's answer: a PIN typed while the last one is checked would be cleared.
    const attempt = (pin: string) => Promise.all([page.waitForResponse((r) => r.url().endsWith("/login/employee")), app.enterPin(pin)]);
    for (let i = 0; i < 5; i++) {
      await attempt("2468");
      await expect(app.toast("Incorrect Pin").last()).toBeVisible();
    }
    await attempt("1357");
    await expect(app.toast(/locked/)).toBeVisible();
    await expect(app.pin).toBeVisible();
  });
});
