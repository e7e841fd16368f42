import { expect, type Page } from "@playwright/test";
import { SESSION_KEYS, STORAGE_VERSION } from "../../lib/sessionKeys";
import { apiLogin } from "./people";

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
  /**
   * The login screens as a person goes through them: shop user and password, then the PIN.
   * login.e2e.ts and the tests about logging in use this; the rest sign in through the API.
   */
  async loginThroughScreens(pin: string, user = "admin", password = "admin-pass-1") {
    await this.open();
    await this.loginShop(user, password);
    await this.signIn(pin);
    await expect(this.page).toHaveURL(/\/home$/);
  }
  /**
   * Signs the tablet in through the API (the same two logins the screens make) and puts the
   * tokens where the UI keeps them, then opens `path`: a second a test instead of the two
   * login screens and the home screen, which every test does not need to see again.
   */
  async openAs(path: string, pin: string, user = "admin", password = "admin-pass-1") {
    const { agentToken, token } = await apiLogin(this.page.request, Number(pin), user, password);
    // Local storage belongs to the box's origin: a small file of the box first, then the tokens.
    await this.page.goto("/build.json");
    await this.page.evaluate(
      ({ keys, version, agentToken, token }) => {
        localStorage.setItem(keys.version, String(version));
        localStorage.setItem(keys.agent, agentToken);
        localStorage.setItem(keys.employee, token);
        localStorage.setItem(keys.activity, String(Date.now()));
      },
      { keys: SESSION_KEYS, version: STORAGE_VERSION, agentToken, token },
    );
    await this.page.goto(path);
  }
  /** Signed in as the employee with `pin` (API logins, see openAs), on the home screen. */
  async loginAs(pin: string, user = "admin", password = "admin-pass-1") {
    await this.openAs("/home", pin, user, password);
    await expect(this.tiles().first()).toBeVisible();
  }
}
