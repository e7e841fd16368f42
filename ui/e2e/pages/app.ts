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
  /**
   * Enters a PIN and waits until the employee is in (the PIN modal gone: the token is then in
   * storage). Not the URL: /home is already the URL under the PIN modal, so a test that goes
   * on to page.goto() after waiting for /home can load the page before the login answered,
   * and then rightly finds the PIN prompt again (issue 22).
   */
  async signIn(pin: string) {
    await this.enterPin(pin);
    await expect(this.pin).toBeHidden();
  }
  async loginAs(pin: string, user = "admin", password = "admin-pass-1") {
    await this.open();
    await this.loginShop(user, password);
    await this.signIn(pin);
    await expect(this.page).toHaveURL(/\/home$/);
  }
}
