import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Page models of the people screens (customers, agents, employees). */
export class PeoplePage {
  constructor(readonly page: Page) {}

  toast(text: string | RegExp) {
    return this.page.locator(".toast", { hasText: text }).last();
  }
  field(label: string) {
    return this.page.getByLabel(label, { exact: true });
  }
  /** A select: its accessible name also holds the chosen option, so match the label's start. */
  select(label: string) {
    return this.page.getByRole("combobox", { name: new RegExp(`^${label}\\b`) });
  }
  button(name: string | RegExp) {
    return this.page.getByRole("button", { name, exact: typeof name === "string" });
  }
  get save() {
    return this.button("Save");
  }
  get search() {
    return this.page.getByRole("searchbox");
  }
  rows() {
    return this.page.locator(".list > li");
  }
  dialog() {
    return this.page.getByRole("alertdialog");
  }
  /** A chip of a toggle group (preferences, localities). */
  chip(group: string, name: string) {
    return this.page.getByRole("group", { name: group }).getByRole("button", { name: new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) });
  }

  async address(locality: string, street: string | null, number = "", name = "") {
    await this.select("Locality").selectOption({ label: locality });
    if (street) {
      // Streets load once the locality is chosen.
      await expect(this.select("Street").locator("option", { hasText: street })).toHaveCount(1);
      await this.select("Street").selectOption({ label: street });
    }
    if (number) await this.field("House number").fill(number);
    if (name) await this.field("House name").fill(name);
  }
  /** Picks the first street of the chosen locality; returns its name. */
  async firstStreet() {
    const opt = this.select("Street").locator("option").nth(1);
    await expect(opt).toBeAttached();
    const name = (await opt.textContent())!;
    await this.select("Street").selectOption({ label: name });
    return name;
  }
}

/**
 * The shop logins this worker has made, kept as a browser keeps its stored session: a shop
 * login checks the password with argon2id (0.4–0.7 s a login on this machine under load), and
 * nearly every test signs in (issue 33). A kept token is checked first (GET /me, a few ms);
 * one a test logged out, or another box's, is replaced by a new login.
 */
const shopTokens = new Map<string, string>();

async function shopToken(request: APIRequestContext, user: string, password: string): Promise<string> {
  const key = JSON.stringify([user, password]);
  const kept = shopTokens.get(key);
  if (kept && (await request.get("/api/v1/me", { headers: { authorization: `token ${kept}` } })).ok()) return kept;
  const a = await request.post("/api/v1/login/agent", { data: { user_name: user, password } });
  expect(a.ok()).toBeTruthy();
  const agentToken = (await a.json()).data as string;
  shopTokens.set(key, agentToken);
  return agentToken;
}

/**
 * Logs into the API as an agent and employee, for set-up and checks outside the UI: the shop's
 * login kept per worker (see shopTokens), the employee's a fresh session each time.
 */
export async function apiLogin(request: APIRequestContext, pin: number, user = "admin", password = "admin-pass-1") {
  const agentToken = await shopToken(request, user, password);
  const e = await request.post("/api/v1/login/employee", { data: { pin }, headers: { authorization: `token ${agentToken}` } });
  expect(e.ok()).toBeTruthy();
  return { agentToken, token: (await e.json()).data as string };
}
