import { existsSync, rmSync, writeFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { call, cents } from "./pages/api";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";
import { OwnBox } from "./pages/ownBox";
import { attachments, type Mail, smtpStandIn } from "./pages/smtp";

/**
 * Issue 34's Done-when: a browser test bills a hotel. Its charges fall on three days of one
 * month, so the spec runs its own box under libfaketime with a timestamp file it rewrites
 * between days (the box has no test clock and charges carry the payment's time), and the
 * browser follows with Playwright's clock (the UI drops a token its own clock calls expired);
 * the month is two months before the real date, so the test runs on any day, month ends included.
 */
const FAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";
const clockFile = `/tmp/ironbox-hotel-clock-${MAIN_PORT}`;
/** The box's day (its clock file) and the browser's (Playwright's clock), 10:00 UTC. */
async function setDay(page: Page | null, day: string) {
  writeFileSync(clockFile, `@${day} 10:00:00\n`);
  await page?.clock.setSystemTime(new Date(`${day}T10:00:00Z`));
}

const pad = (n: number) => String(n).padStart(2, "0");
const real = new Date();
const first = new Date(Date.UTC(real.getUTCFullYear(), real.getUTCMonth() - 2, 1));
const month = `${first.getUTCFullYear()}-${pad(first.getUTCMonth() + 1)}`;
const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
const next = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 3));
const billedOn = `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-03`;
const dmy = (day: string) => `${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const DAYS = [`${month}-05`, `${month}-12`, `${month}-20`];

let smtp: Awaited<ReturnType<typeof smtpStandIn>>;
const box = new OwnBox(MAIN_PORT + 10, {
  IRONBOX_HTTPS: "0",
  LD_PRELOAD: FAKETIME,
  FAKETIME_TIMESTAMP_FILE: clockFile,
  FAKETIME_NO_CACHE: "1",
  // Timers and the event loop keep real time; only the calendar moves.
  FAKETIME_DONT_FAKE_MONOTONIC: "1",
});
test.use({ baseURL: box.url });
test.beforeAll(async () => {
  expect(existsSync(FAKETIME), "libfaketime (Debian's faketime) is needed to date the charges").toBe(true);
  await setDay(null, DAYS[0]!);
  smtp = await smtpStandIn();
  await box.start({ IRONBOX_SMTP_URL: smtp.url, IRONBOX_SMTP_FROM: "Ironbox <shop@ironbox.mt>" });
});
test.afterAll(async () => {
  await box.remove();
  await smtp?.close();
  rmSync(clockFile, { force: true });
});

/** The money shown in a cell (€1,234.50) in cents. */
async function shown(page: Page, testId: string): Promise<number> {
  const t = (await page.getByTestId(testId).first().innerText()).replace(/[€,\s]/g, "");
  return Math.round(Number(t) * 100);
}

async function waitForMail(mails: Mail[]): Promise<Mail> {
  await expect.poll(() => mails.length, { timeout: 30_000 }).toBeGreaterThan(0);
  return mails[0]!;
}

test("bills a hotel: three charges in a month, an invoice e-mailed with its PDF, a part payment and a credit note; statement, aged report and balance agree; the journal balances each day", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const app = new AppPage(page);
  await page.clock.install({ time: new Date(`${DAYS[0]}T10:00:00Z`) });
  await app.loginAs("2222"); // a manager
  // Three owing tickets of the manager's shop's customers: an account bills its own shop's.
  const me = ((await call(page, "GET", "/me")).json.data as { agent: { id: number; name: string } }).agent;
  const shop = me.id;
  const candidates = ((await call(page, "GET", "/tickets/?limit=100")).json.data as { id: number; balance: number }[]).filter((t) => t.balance > 1);
  const owing: { id: number; balance: number }[] = [];
  const customers = new Map<number, { full_name: string; mobile: string }>();
  for (const t of candidates) {
    if (owing.length === 3) break;
    const d = (await call(page, "GET", `/tickets/${t.id}`)).json.data as { customer_id?: number; customer: { id: number } };
    const customer = d.customer_id ?? d.customer.id;
    const c = (await call(page, "GET", `/customers/${customer}`)).json.data as { agent_id: number | null; full_name: string; mobile: string };
    if (c.agent_id !== shop) continue;
    owing.push(t);
    customers.set(customer, c);
  }
  expect(owing).toHaveLength(3);

  // The account, through the screen.
  await page.goto("/accounts");
  await page.getByRole("button", { name: "New account" }).click();
  const form = page.getByRole("form", { name: "New account" });
  await form.getByLabel("Account name").fill("Hotel Phoenicia");
  // The customers are found by name or phone and shown by name, never typed as numbers.
  for (const c of customers.values()) {
    await form.getByLabel("Find a customer").fill(c.mobile || c.full_name);
    await form.getByLabel("Find a customer").press("Enter");
    await form.getByTestId("account-found").getByRole("button", { name: c.full_name }).first().click();
    await expect(form.getByTestId("account-members")).toContainText(c.full_name);
  }
  await expect(form.getByTestId("account-members").getByRole("button")).toHaveCount(customers.size);
  await form.getByLabel("Billing e-mail").fill("accounts@phoenicia.example");
  await form.getByLabel("VAT number").fill("MT 1234-5678");
  await form.getByLabel("Credit limit (€)").fill("2000");
  await form.getByRole("button", { name: "Open account" }).click();
  await expect(page).toHaveURL(/\/accounts\/\d+$/);
  const accountId = Number(/\/accounts\/(\d+)$/.exec(page.url())![1]);

  // Three tickets charged on account on three days of the month, at the counter.
  for (const [n, day] of DAYS.entries()) {
    await setDay(page, day);
    await app.loginAs("3333");
    const t = owing[n]!;
    await page.goto(`/tickets/${t.id}`);
    await page.getByTestId("pay-ticket").click();
    const pay = page.getByRole("dialog", { name: `Pay ticket #${t.id}` });
    await pay.getByRole("button", { name: "On account" }).click();
    await expect(pay.getByTestId("pay-account")).toContainText("Hotel Phoenicia");
    await expect(pay.getByTestId("pay-account")).not.toContainText("approval");
    await pay.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page.getByTestId("pay-ticket")).toHaveText("PAID");
  }
  const charged = owing.reduce((s, t) => s + cents(t.balance), 0);

  // Billing day: the month invoiced through the account's screen.
  await setDay(page, billedOn);
  await app.loginAs("2222");
  await page.goto(`/accounts/${accountId}`);
  await expect(page.getByTestId("account-balance")).toHaveText(/€/);
  expect(await shown(page, "account-balance")).toBe(charged);
  // The account's charged tickets: the three of the month, none invoiced yet.
  const charges = page.getByTestId("account-charges").locator("tbody tr");
  await expect(charges).toHaveCount(3);
  await expect(charges.filter({ hasText: "Not invoiced" })).toHaveCount(3);
  const period = page.getByRole("form", { name: "Invoice a period" });
  await period.getByLabel("Invoice from", { exact: true }).fill(dmy(`${month}-01`));
  await period.getByLabel("Invoice to", { exact: true }).fill(dmy(`${month}-${pad(lastDay)}`));
  await period.getByLabel("Invoice to", { exact: true }).press("Tab");
  await period.getByRole("button", { name: "Invoice", exact: true }).click();
  // Each charged ticket now names the invoice that billed it.
  await expect(charges.filter({ hasText: "Not invoiced" })).toHaveCount(0);
  await page.getByTestId("account-invoices").getByRole("link").first().click();
  await expect(page).toHaveURL(/\/invoices\/\d+$/);
  const invoicePage = new URL(page.url()).pathname;
  await expect(page.getByTestId("invoice-due")).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
  expect(await shown(page, "invoice-total")).toBe(charged);
  await expect(page.getByTestId("invoice-lines").locator("tbody tr")).not.toHaveCount(0);

  // Sent: the e-mail reaches the SMTP stand-in with the PDF attached.
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByTestId("invoice-sent")).toContainText("accounts@phoenicia.example");
  const mail = await waitForMail(smtp.mails);
  expect(mail.to).toBe("accounts@phoenicia.example");
  const pdf = attachments(mail.raw).find((a) => a.name.endsWith(".pdf"));
  expect(pdf?.name).toMatch(/\.pdf$/);
  expect(pdf!.body.subarray(0, 4).toString("latin1")).toBe("%PDF");
  // A second send asks first; cancelled, nothing more leaves.
  await page.getByRole("button", { name: "Send", exact: true }).click();
  await expect(page.getByRole("alertdialog", { name: "Send again?" })).toBeVisible();
  await page.getByRole("alertdialog", { name: "Send again?" }).getByRole("button", { name: "Cancel" }).click();

  // A credit note of €5.00 on the invoice.
  await page.getByRole("button", { name: "Credit", exact: true }).click();
  await page.getByLabel("Credit amount").fill("5.00");
  await page.getByLabel("Credit reason").fill("A shirt returned stained");
  await page.getByRole("button", { name: "Issue credit note" }).click();
  await expect(page.getByTestId("credit-notes")).toContainText("A shirt returned stained");
  expect(await shown(page, "invoice-open")).toBe(charged - 500);

  // A part payment of €10.00 on the account's screen.
  await page.goto(`/accounts/${accountId}`);
  await page.getByLabel("Payment amount").fill("10.00");
  await page.getByRole("button", { name: "Take payment" }).click();
  const owed = charged - 500 - 1000;
  await expect.poll(() => shown(page, "account-balance")).toBe(owed);
  // The invoice lists what settled it: the credit note and the part payment, and what is left.
  await page.goto(invoicePage);
  const settled = page.getByTestId("invoice-allocations").locator("tbody tr");
  await expect(settled).toHaveCount(2);
  await expect(settled.filter({ hasText: "Credit note" })).toContainText("€5.00");
  await expect(settled.filter({ hasText: "Payment (bank transfer)" })).toContainText("€10.00");
  expect(await shown(page, "invoice-open")).toBe(owed);
  // The list names the shop that bills the account, not its number (HQ's lists every shop's).
  await page.goto("/accounts");
  await expect(page.getByTestId("accounts").locator("tr", { hasText: "Hotel Phoenicia" }).locator("td").nth(1)).toHaveText(me.name);
  await page.goto(`/accounts/${accountId}`);

  // The statement from the month's first day to billing day, and the aged report: to the cent.
  await page.getByLabel("Statement from", { exact: true }).fill(dmy(`${month}-01`));
  await page.getByLabel("Statement to", { exact: true }).fill(dmy(billedOn));
  await page.getByLabel("Statement to", { exact: true }).press("Tab");
  await expect(page.getByTestId("statement")).toContainText(dmy(billedOn));
  expect(await shown(page, "statement-opening")).toBe(0);
  expect((await shown(page, "statement-closing")) + (await shown(page, "statement-not-invoiced"))).toBe(owed);
  await page.goto("/accounts/aged");
  const row = page.getByTestId(`aged-${accountId}`);
  await expect(row).toBeVisible();
  const cell = async (col: string) => Math.round(Number((await row.locator(`[data-col="${col}"]`).innerText()).replace(/[€,\s]/g, "")) * 100);
  expect(await cell("balance")).toBe(owed);
  expect((await cell("not_invoiced")) + (await cell("d0_30")) + (await cell("d31_60")) + (await cell("d61_90")) + (await cell("d90_plus"))).toBe(owed);

  // The journal of the month and billing day balances on each day (HQ's admin downloads it).
  await app.loginAs("9999");
  const journal = await call(page, "GET", `/accounting/journal?from=${month}-01&to=${billedOn}&format=csv`);
  expect(journal.status).toBe(200);
  const lines = journal.text
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r\n/)
    .slice(1);
  const perDay = new Map<string, number>();
  for (const l of lines) {
    const c = l.split(",");
    // date, shop, number, code, name, description, debit, credit (no commas in these demo texts)
    const d = c[0]!;
    perDay.set(d, (perDay.get(d) ?? 0) + cents(Number(c.at(-2) || 0)) - cents(Number(c.at(-1) || 0)));
  }
  for (const day of DAYS) expect(perDay.has(dmy(day))).toBe(true);
  for (const [day, diff] of perDay) expect(`${day}: ${diff}`).toBe(`${day}: 0`);

  // A phone (390 px): the screens fit; wide tables scroll inside themselves, not the page.
  await app.loginAs("2222");
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of [`/accounts/${accountId}`, invoicePage, "/accounts/aged", "/accounts"]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 2 }).first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
  }
});
