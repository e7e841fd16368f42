import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { addDays } from "../../appliance/domain/dates";
import { apiDate, displayDate } from "../../appliance/domain/format";
import { weekOf } from "../../appliance/domain/schedule";
import { AppPage } from "./pages/app";
import { GATEWAY_AUTH, GATEWAY_PORT, GATEWAY_STAND_IN, MAIN_PORT, SMS_WEBHOOK_SECRET } from "./pages/env";
import { OwnBox } from "./pages/ownBox";

/**
 * Issue 35, end to end: a customer books a pickup on a phone at HQ's public face; the booking
 * goes down, signed, to the Birkirkara shop box (enrolled with HQ, shipping its database to HQ's
 * storage with Litestream), which puts it on its scheduler and driver's run and texts the
 * confirmation with the status link; the link opens at HQ (from the shop's copy); the customer's
 * SKIP through the gateway stand-in takes the stop off the run. Ports E2E_PORT+13..+15.
 */
const TOKEN = "e2e-bookings-enrolment-token-0123456789";
const HQ_PUBLIC = MAIN_PORT + 14;
const storage = mkdtempSync(join(tmpdir(), "ironbox-e2e-bookings-"));
const sms = {
  IRONBOX_SMS_GATEWAY_URL: `http://${GATEWAY_AUTH.user}:${GATEWAY_AUTH.pass}@127.0.0.1:${GATEWAY_PORT}`,
  IRONBOX_SMS_WEBHOOK_SECRET: SMS_WEBHOOK_SECRET,
};
const hq = new OwnBox(MAIN_PORT + 13, {
  IRONBOX_HTTPS: "0",
  IRONBOX_MODE: "hq",
  IRONBOX_HQ_TOKEN: TOKEN,
  IRONBOX_HQ_STORAGE: storage,
  IRONBOX_HQ_RESTORE_SECONDS: "2",
  IRONBOX_PUBLIC_PORT: String(HQ_PUBLIC),
  IRONBOX_PUBLIC_URL: `http://localhost:${HQ_PUBLIC}`,
  ...sms,
});
let shop: OwnBox;
let town = 0;

async function login(url: string, pin = "9999"): Promise<string> {
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${url}/api/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `token ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ data: string }>);
  return (await post("/login/employee", { pin }, (await post("/login/agent", { user_name: "admin", password: "admin-pass-1" })).data)).data;
}
function client(url: string, token: string) {
  return async <T = any>(method: string, path: string, data?: unknown): Promise<T> => {
    const r = await fetch(`${url}${path.startsWith("/public") ? "" : "/api/v1"}${path}`, {
      method,
      headers: { "content-type": "application/json", authorization: `token ${token}` },
      body: data === undefined ? undefined : JSON.stringify(data),
    });
    const json = (await r.json()) as { success: boolean; data: T; message?: string };
    if (!json.success) throw new Error(`${method} ${path}: ${r.status} ${json.message}`);
    return json.data;
  };
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await hq.start();
  // A locality whose van runs every day (5 stops), published to the shop as reference data: any
  // weekday or month's end, tomorrow has room.
  const hqApi = client(hq.url, await login(hq.url));
  town = (await hqApi<{ id: number }>("POST", "/localities/", { name: "Bookville" })).id;
  await hqApi("POST", "/streets/", { locality_id: town, name: "Triq il-Booking" });
  const settings = await hqApi<unknown[]>("GET", "/pickupDeliveries/");
  const daily = [0, 1, 2, 3, 4, 5, 6].map((day_of_week) => ({ season: "OFFSEASON", day_of_week, quantity: 5, localities: [town] }));
  await hqApi("POST", "/pickupDeliveries/", [...settings, ...daily]);
  const published = await hqApi("POST", "/reference/publish");
  // The shop's own token for its bookings downlink (the chain-wide one reads no site's envelopes).
  const siteToken = await hqApi<{ token: string }>("POST", "/reference/siteToken", { site: "birkirkara" });
  shop = new OwnBox(MAIN_PORT + 15, {
    IRONBOX_HTTPS: "0",
    IRONBOX_HQ_URL: hq.url,
    IRONBOX_HQ_PUBLIC_KEY: published.public_key,
    IRONBOX_HQ_TOKEN: TOKEN,
    IRONBOX_HQ_SITE_TOKEN: siteToken.token,
    IRONBOX_SITE_NAME: "birkirkara",
    IRONBOX_REPLICA_URL: `file://${storage}/birkirkara`,
    IRONBOX_PUBLIC_URL: `http://localhost:${HQ_PUBLIC}`,
    ...sms,
  });
  await shop.start();
  const shopApi = client(shop.url, await login(shop.url));
  await expect.poll(async () => (await shopApi("GET", "/reference/status")).version, { timeout: 30_000 }).toBe(1);
  // The Birkirkara driver drives Bookville too.
  const driver = (await shopApi<{ id: number; full_name: string }[]>("GET", "/employees/")).find((e) => e.full_name === "Mark Farrugia")!.id;
  await shopApi("PUT", `/employees/localities/${driver}`, [town]);
});
test.afterAll(async () => {
  await shop?.remove();
  await hq.remove();
  rmSync(storage, { recursive: true, force: true });
});

test("a pickup booked on a phone reaches the shop's run, is confirmed by SMS with a working link, and SKIP takes it off", async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const mobile = `799${String(Date.now()).slice(-5)}`;
  const shopApi = client(shop.url, await login(shop.url));
  // The customer is known at the shop only: HQ's public face sends the code through its own
  // channel and finds the customer's shop in its copy of the shop's database.
  const bkr = town;
  const street = (await shopApi<{ id: number }[]>("GET", `/streets/locality/${bkr}`))[0]!.id;
  const address = await shopApi<{ id: number }>("POST", "/address/", { number: "3", name: "", locality_id: bkr, street_id: street });
  await shopApi("POST", "/customers/", { full_name: "Online Booking Customer", mobile, address_id: address.id });
  const quiet = await shopApi("GET", "/messaging/settings/quietHours");
  await shopApi("PUT", "/messaging/settings/quietHours", { ...quiet, enabled: false });

  // The customer, on a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  // The booking page on HQ's public face (server-rendered forms, no script).
  const pub = `http://localhost:${HQ_PUBLIC}`;
  // Tomorrow, whatever weekday or month's end: the shop's reminder goes the day before a pickup,
  // and SKIP answers that reminder.
  const tomorrow = addDays(apiDate(new Date()), 1);
  await page.goto(`${pub}/book`);
  await page.getByLabel("Where do we collect?").selectOption({ value: String(bkr) });
  await page.getByLabel("Your mobile").fill(mobile);
  await page.getByRole("button", { name: "Send me a code" }).click();
  await expect(page.getByLabel("The 6-digit code")).toBeVisible();
  // What the stand-in phone took for the customer, under either spelling of the number.
  const received = async () => {
    const out: string[] = [];
    for (const phone of [`+356${mobile}`, mobile]) {
      const r = await request.get(`${GATEWAY_STAND_IN}/__received?phone=${encodeURIComponent(phone)}`);
      out.push(...((await r.json()) as { message: string }[]).map((m) => m.message));
    }
    return out;
  };
  await expect.poll(async () => (await received()).some((m) => /\b\d{6}\b/.test(m)), { timeout: 30_000 }).toBe(true);
  const code = (await received()).map((m) => m.match(/\b(\d{6})\b/)?.[1]).find(Boolean)!;
  await page.getByLabel("The 6-digit code").fill(code);
  await page.getByLabel("Street").fill("Triq il-Kbira");
  await page.getByLabel("House number or name").fill("7");
  await page.getByLabel("Day").selectOption({ value: tomorrow });
  await page.getByLabel("Note for the driver").fill("Blue door");
  await page.getByRole("button", { name: "Book" }).click();
  await expect(page.locator("[data-booked]")).toContainText("Booked for");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Down at the shop within a minute (HQ routes it once its copy of the shop knows the phone).
  type Booking = { ticket_id: number | null; day: string; status: string };
  let mine: Booking | undefined;
  await expect
    .poll(
      async () => {
        mine = (await shopApi<(Booking & { phone: string })[]>("GET", "/bookings/")).find((b) => b.phone === `+356${mobile}`);
        return mine?.ticket_id ? mine.status : null;
      },
      { timeout: 120_000, intervals: [2_000] },
    )
    .toMatch(/^(applied|moved)$/);
  const day = mine!.day;
  expect(day).toBe(tomorrow);

  // The confirmation with the status link, through the gateway stand-in.
  await expect.poll(async () => (await received()).find((m) => m.includes("Your pickup")), { timeout: 60_000 }).toBeTruthy();
  const confirmation = (await received()).find((m) => m.includes("Your pickup"))!;
  const link = confirmation.match(/http:\/\/localhost:\d+\/s\/[A-Za-z0-9_-]{24}/)![0];

  // Staff: the Bookings screen, the scheduler's driver's run.
  const app = new AppPage(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await app.open(`${shop.url}/`);
  await app.loginShop();
  await app.signIn("4444"); // Mark Farrugia drives Birkirkara
  const w = weekOf(day);
  await page.goto(`${shop.url}/scheduling?year=${w.year}&week=${w.week}&day=${day}&view=driver`);
  const stop = page.getByTestId("run-stop").filter({ hasText: "Online Booking Customer" });
  await expect(stop).toBeVisible();

  // The shop's admin sees it on the Bookings screen (another browser), the day as DD/MM/YYYY.
  const desk = await browser.newContext();
  try {
    const deskPage = await desk.newPage();
    const admin = new AppPage(deskPage);
    await admin.open(`${shop.url}/`);
    await admin.loginShop();
    await admin.signIn("9999");
    await deskPage.goto(`${shop.url}/bookings`);
    const card = deskPage.getByTestId("booking").filter({ hasText: "Online Booking Customer" });
    await expect(card.getByTestId("booking-day")).toHaveText(displayDate(day));
    await expect(card).toContainText(`ticket #${mine!.ticket_id}`);
  } finally {
    await desk.close();
  }

  // The status page opens from the link on the phone (HQ reads it from the shop's copy).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(async () => (await page.request.get(link)).status(), { timeout: 60_000, intervals: [2_000] }).toBe(200);
  await page.goto(link);
  await expect(page.getByText(`Ticket ${mine!.ticket_id}`, { exact: true })).toBeVisible();

  // The shop's reminder for tomorrow's pickup reaches the phone; SKIP answers it through the
  // gateway's signed webhook, to the shop box.
  await expect.poll(async () => (await received()).some((m) => m.endsWith("Reply YES to confirm or SKIP")), { timeout: 60_000 }).toBe(true);
  const body = JSON.stringify({
    deviceId: "e2e-phone",
    event: "sms:received",
    id: `e2e-${Date.now()}`,
    payload: { message: "SKIP", phoneNumber: `+356${mobile}`, receivedAt: new Date().toISOString(), messageId: "e2e", simNumber: 1 },
    webhookId: "e2e-hook",
  });
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = createHmac("sha256", SMS_WEBHOOK_SECRET)
    .update(body + ts)
    .digest("hex");
  const r = await request.post(`${shop.url}/api/v1/messaging/inbound`, {
    data: body,
    headers: { "content-type": "application/json", "x-timestamp": ts, "x-signature": signature },
  });
  expect((await r.json()).data).toMatchObject({ action: "skipped" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${shop.url}/scheduling?year=${w.year}&week=${w.week}&day=${day}&view=driver`);
  await expect(
    page
      .getByTestId("run-stop")
      .first()
      .or(page.getByText(/no stops/i)),
  ).toBeVisible();
  await expect(stop).toHaveCount(0);
});
