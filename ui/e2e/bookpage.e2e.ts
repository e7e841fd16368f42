import { expect, test } from "@playwright/test";
import { GATEWAY_AUTH, GATEWAY_STAND_IN, GATEWAY_PORT, MAIN_PORT } from "./pages/env";
import { OwnBox } from "./pages/ownBox";

/**
 * Issue 35: a customer books a pickup on the booking page of the public face, on a phone
 * (390 px), without any script: the code comes by SMS through the gateway's stand-in phone.
 * The box is this spec's own (+10), its public face on +3 (the block's free ports).
 */
const PUBLIC_PORT = MAIN_PORT + 3;
const PUBLIC = `http://localhost:${PUBLIC_PORT}`;
const box = new OwnBox(MAIN_PORT + 10, {
  IRONBOX_HTTPS: "0",
  IRONBOX_PUBLIC_PORT: String(PUBLIC_PORT),
  IRONBOX_PUBLIC_URL: PUBLIC,
  IRONBOX_SMS_GATEWAY_URL: `http://${GATEWAY_AUTH.user}:${GATEWAY_AUTH.pass}@127.0.0.1:${GATEWAY_PORT}`,
});

test.beforeAll(async () => {
  test.setTimeout(90_000);
  await box.start();
});
test.afterAll(() => box.remove());

async function staff() {
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const r = await fetch(`${box.url}/api/v1${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `token ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const j = (await r.json()) as { success: boolean; data: any; message?: string };
    if (!j.success) throw new Error(`${method} ${path}: ${j.message}`);
    return j.data;
  };
  const agent = await call("POST", "/login/agent", { user_name: "admin", password: "admin-pass-1" });
  const employee = await call("POST", "/login/employee", { pin: "9999" }, agent);
  return (method: string, path: string, body?: unknown) => call(method, path, body, employee);
}

/** The codes the stand-in phone was given for this mobile, newest last. */
async function codesFor(local: string): Promise<string[]> {
  const out: string[] = [];
  for (const phone of [`+356${local}`, local]) {
    const r = await fetch(`${GATEWAY_STAND_IN}/__received?phone=${encodeURIComponent(phone)}`);
    for (const m of (await r.json()) as { message: string }[]) {
      const code = /^(\d{6}) is your code/.exec(m.message)?.[1];
      if (code) out.push(code);
    }
  }
  return out;
}

test("a known customer books a pickup on a phone: code by SMS, a wrong code says tries left, the day is confirmed; no script, no CSP refusal", async ({
  page,
}) => {
  const api = await staff();
  const local = `799${String(Date.now()).slice(-5)}`;
  const localities = (await api("GET", "/localities/")) as { id: number; name: string }[];
  const bkr = localities.find((l) => l.name === "Birkirkara")!;
  const street = ((await api("GET", `/streets/locality/${bkr.id}`)) as { id: number }[])[0]!.id;
  const address = await api("POST", "/address/", { number: "12", name: "", locality_id: bkr.id, street_id: street });
  await api("POST", "/customers/", { full_name: "Web Booking Customer", mobile: local, address_id: address.id });

  const refused: string[] = [];
  page.on("console", (m) => {
    // (A page answered 422 or 409 is logged as a failed load: that is the page's status, not a refusal.)
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
  });
  await page.setViewportSize({ width: 390, height: 844 });
  const res = await page.goto(`${PUBLIC}/book`);
  expect(res?.headers()["content-security-policy"]).toContain("default-src 'none'");
  await page.getByLabel("Where do we collect?").selectOption({ label: "Birkirkara" });
  await page.getByLabel("Your mobile").fill(local);
  await page.getByRole("button", { name: "Send me a code" }).click();
  await expect(page.getByLabel("The 6-digit code")).toBeVisible();
  await expect.poll(async () => (await codesFor(local)).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const code = (await codesFor(local)).at(-1)!;

  const day = page.getByLabel("Day");
  const chosen = await day.locator("option").nth(0).textContent();
  expect(chosen).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday) \d{2}\/\d{2}\/\d{4}$/);
  await page.getByLabel("The 6-digit code").fill(code === "000000" ? "000001" : "000000");
  await page.getByLabel("Street").fill("Triq il-Kbira");
  await page.getByLabel("House number or name").fill("12");
  await page.getByRole("button", { name: "Book" }).click();
  await expect(page.getByRole("alert")).toHaveText("That code is not right: 4 tries left");

  await page.getByLabel("The 6-digit code").fill(code);
  await page.getByRole("button", { name: "Book" }).click();
  await expect(page.locator("[data-booked]")).toHaveText(`Booked for ${chosen}`);
  await expect(page.getByText("We will confirm by SMS")).toBeVisible();

  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await page.locator("script").count()).toBe(0);
  expect(refused).toEqual([]);
});
