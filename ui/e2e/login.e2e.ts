import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { EMPTY_BOX, EMPTY_PORT } from "./pages/env";
import { AppPage } from "./pages/app";
import { apiLogin } from "./pages/people";

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
    // The wrong PIN counts toward the shop's PIN lock until it expires or is lifted; lift it
    // so other tests start clean.
    const { token } = await apiLogin(page.request, 9999);
    expect((await page.request.put("/api/v1/login/employee/unlock", { headers: { authorization: `token ${token}` } })).ok()).toBeTruthy();
  });

  test("the session survives a reload; shop logout returns to the login screen", async ({ page }) => {
    const app = new AppPage(page);
    await app.loginThroughScreens("9999");
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
    await app.loginThroughScreens("9999");
    await page.evaluate(() => localStorage.setItem("ironbox.version", "4"));
    await page.reload();
    await expect(app.userName).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("ironbox.version"))).toBe("5");
  });
});

test.describe("first run", () => {
  test("an empty box asks for setup with the code it printed, then its shop and admin (PIN with a leading zero) log in", async ({ page }) => {
    const app = new AppPage(page);
    await page.goto(EMPTY_BOX);
    await expect(page.getByText("Welcome to Ironbox")).toBeVisible();
    // The person at the box reads the one-time code from its console or its data directory.
    const code = readFileSync(`.e2e-data/empty-${EMPTY_PORT}/setup-code`, "utf8").trim();
    await page.getByLabel("Setup code").fill("AAAA-BBBB-CCCC");
    await page.getByLabel("Shop (agent) name").fill("Ironbox Sliema");
    await page.getByLabel("Shop user name").fill("sliema");
    await page.getByLabel("Shop password").fill("sliema-pass-1");
    await page.getByLabel("Administrator's full name").fill("Rita Spiteri");
    await page.getByLabel("Administrator's PIN").fill("0357");
    await expect(page.getByLabel("Administrator's PIN")).toHaveAttribute("inputmode", "numeric");
    await page.getByRole("button", { name: "Set up Ironbox" }).click();
    await expect(app.toast(/^Setup code is wrong/)).toBeVisible();
    await expect(page.getByText("Welcome to Ironbox")).toBeVisible();
    await page.getByLabel("Setup code").fill(code);
    await page.getByRole("button", { name: "Set up Ironbox" }).click();
    await expect(page.getByText("Log this tablet in to your shop.")).toBeVisible();
    await app.loginShop("sliema", "sliema-pass-1");
    await expect(app.pin).toHaveAttribute("inputmode", "numeric");
    await app.enterPin("0357");
    await expect(page.getByTestId("who")).toContainText("Rita Spiteri");
    await expect(app.tiles()).toHaveCount(16);

    // This box is this test's own, so its shop's PIN lock can be tried: after 5 wrong PINs
    // the box answers 429 and the modal shows the box's reason instead of 'Incorrect Pin'.
    await page.getByRole("button", { name: /Logout/ }).click();
    // Each attempt waits for the box's answer: a PIN typed while the last one is checked would be cleared.
    const attempt = (pin: string) => Promise.all([page.waitForResponse((r) => r.url().endsWith("/login/employee")), app.enterPin(pin)]);
    for (let i = 0; i < 5; i++) {
      await attempt("2468");
      await expect(app.toast("Incorrect Pin").last()).toBeVisible();
    }
    await attempt("0357");
    await expect(app.toast(/locked/)).toBeVisible();
    await expect(app.pin).toBeVisible();
  });
});
