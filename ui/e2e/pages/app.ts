import { expect, type Page } from "@playwright/test";

/** Page model of the login, PIN and home screens. */
export class AppPage {
  constructor(readonly page: Page) {}

  async open(path = "/") {
    await this.page.goto(path);
  }
  get userName() {
    return this.page.getByLabel("User name", { exact: true });
  }
  get password() {
    return this.page.getByLabel("Password", { exact: true });
  }
  get pin() {
    return this.page.getByLabel("PIN", { exact: true });
  }
  toast(text: string | RegExp) {
    return this.page.locator(".toast", { hasText: text });
  }
  tiles() {
    return this.page.locator(".tiles .tile-label");
  }

  async loginShop(user = "admin", password = "admin-pass-1") {
    await this.userName.fill(user);
    await this.password.fill(password);
    await this.password.press("Enter");
    await expect(this.pin).toBeVisible();
  }
  async enterPin(pin: string) {
    await this.pin.fill(pin);
    await this.pin.press("Enter");
  }
  async loginAs(pin: string, user = "admin", password = "admin-pass-1") {
    await this.open();
    await this.loginShop(user, password);
    await this.enterPin(pin);
    await expect(this.pin).toBeHidden();
    await expect(this.page).toHaveURL(/\/home$/);
  }
}
