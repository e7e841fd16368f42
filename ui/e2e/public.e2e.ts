import { expect, test } from "@playwright/test";
import { GATEWAY_AUTH, GATEWAY_PORT, MAIN_PORT } from "./pages/env";
import { OwnBox } from "./pages/ownBox";

/**
 * Issue 35: a customer opens the status link of their SMS on a phone (390 px wide). The box is
 * this spec's own, with the public face on a port of its own; the link is read from the queued
 * status message, exactly as the customer receives it.
 */
const PUBLIC_PORT = MAIN_PORT + 12;
const box = new OwnBox(MAIN_PORT + 11, {
  IRONBOX_HTTPS: "0",
  IRONBOX_PUBLIC_PORT: String(PUBLIC_PORT),
  IRONBOX_PUBLIC_URL: `http://localhost:${PUBLIC_PORT}`,
  IRONBOX_SMS_GATEWAY_URL: `http://${GATEWAY_AUTH.user}:${GATEWAY_AUTH.pass}@127.0.0.1:${GATEWAY_PORT}`,
});

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await box.start();
});
test.afterAll(() => box.remove());

async function statusLink(): Promise<{ link: string; ticket: number }> {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${box.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `token ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ success: boolean; data: any }>);
  const agent = (await post("/api/v1/login/agent", { user_name: "admin", password: "admin-pass-1" })).data;
  const employee = (await post("/api/v1/login/employee", { pin: "9999" }, agent)).data;
  // The first demo ticket whose status message can go (a customer with a mobile, a state with words).
  for (let id = 1; id < 200; id++) {
    const r = await post(`/api/v1/messages/${id}/status`, {}, employee);
    const text: string | undefined = r.success ? r.data[0]?.text : undefined;
    const link = text?.match(/http:\/\/localhost:\d+\/s\/[A-Za-z0-9_-]{24}$/)?.[0];
    if (link) return { link, ticket: id };
  }
  throw new Error("no demo ticket took a status message");
}

test("the status link opens a phone-sized page: state, garments, balance, the shop's phone; no script, nothing wider than the phone", async ({ page }) => {
  const { link, ticket } = await statusLink();
  const blocked: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") blocked.push(m.text());
  });
  await page.setViewportSize({ width: 390, height: 844 });
  const res = await page.goto(link);
  expect(res?.status()).toBe(200);
  expect(res?.headers()["content-security-policy"]).toContain("default-src 'none'");
  await expect(page.getByText(`Ticket ${ticket}`, { exact: true })).toBeVisible();
  await expect(page.locator("[data-state]")).not.toBeEmpty();
  await expect(page.getByRole("heading", { name: "Garments" })).toBeVisible();
  await expect(page.locator(".balance")).toHaveText(/To pay: €\d+\.\d\d|Nothing to pay/);
  // The stylesheet loaded under the CSP (the page is styled), and nothing was refused.
  expect(await page.locator("main").evaluate((m) => getComputedStyle(m).maxWidth)).not.toBe("none");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await page.locator("script").count()).toBe(0);
  expect(blocked).toEqual([]);

  // The staff app is not behind the public port.
  expect((await page.goto(`http://localhost:${PUBLIC_PORT}/`))?.status()).toBe(404);
  // A link that opens nothing says so.
  const bad = await page.goto(`http://localhost:${PUBLIC_PORT}/s/AAAAAAAAAAAAAAAAAAAAAAAA`);
  expect(bad?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Link not valid" })).toBeVisible();
});
