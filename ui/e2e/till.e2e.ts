import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";
import { escPosLines } from "./pages/escpos";
import { apiLogin } from "./pages/people";

/**
 * Issue 24, a day at the counter: a cash payment with change, a split over card and another
 * tender, and a refund an employee cannot make alone, approved by a manager's PIN on the tablet.
 */
const token = (page: Page) => page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
const apiGet = async (page: Page, path: string) => {
  const r = await (await page.request.get(`/api/v1${path}`, { headers: { authorization: `token ${await token(page)}` } })).json();
  if (!r.success) throw new Error(`${path}: ${r.message}`);
  return r.data;
};
/** The e2e box's data dir, where printer discovery and the printers' stand-in device files live (playwright.config.ts). */
const DATA = resolve(`.e2e-data/main-${MAIN_PORT}`);
const euros = (n: number) => `€${n.toLocaleString("en-MT", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const cents = (n: number) => Math.round(n * 100);
/** The Idempotency-Key of every request that moves money (issue 31: one per submit, whatever the method). */
function moneyKeys(page: Page): (string | undefined)[] {
  const keys: (string | undefined)[] = [];
  const money = /\/api\/v1\/(tickets\/paidFor|ticketSubCategory\/paidFor|payments\/\d+\/refund|till\/[^/]+\/(close|reopen))/;
  page.on("request", (r) => {
    if (money.test(r.url())) keys.push(r.headers()["idempotency-key"]);
  });
  return keys;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("a day at the counter: cash with change, a card split, a refund a manager approves", async ({ page }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.loginAs("3333"); // an employee at the counter
  const keys = moneyKeys(page);
  const owing = ((await apiGet(page, "/tickets/?limit=100")) as { id: number; balance: number }[]).filter((t) => t.balance > 10);
  expect(owing.length).toBeGreaterThanOrEqual(2);
  const [cashTicket, splitTicket] = owing.slice(-2) as [(typeof owing)[0], (typeof owing)[0]];

  // 1. Cash: the balance by default, a round note handed over, the change due shown large.
  await page.goto(`/tickets/${cashTicket.id}`);
  await expect(page.getByTestId("pay-ticket")).toHaveText(euros(cashTicket.balance));
  await page.getByTestId("pay-ticket").click();
  const pay = page.getByRole("dialog", { name: `Pay ticket #${cashTicket.id}` });
  await expect(pay.getByTestId("pay-balance")).toHaveText(euros(cashTicket.balance));
  await expect(pay.getByLabel("Amount")).toHaveValue(cashTicket.balance.toFixed(2));
  const tendered = Math.ceil(cashTicket.balance / 10) * 10 + 10;
  // Too little handed over is refused before anything is sent.
  await pay.getByLabel("Tendered").fill("1");
  await expect(pay.getByRole("alert")).toHaveText("Less was handed over than the amount");
  await expect(pay.getByRole("button", { name: "Pay", exact: true })).toBeDisabled();
  await pay.getByLabel("Tendered").fill(String(tendered));
  const change = (cents(tendered) - cents(cashTicket.balance)) / 100;
  await expect(pay.getByTestId("pay-change")).toHaveText(euros(change));
  await pay.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByTestId("pay-ticket")).toHaveText("PAID");
  const payments = page.getByTestId("payments");
  await expect(payments).toContainText(`Tendered ${euros(tendered)}, change ${euros(change)}`);
  // The demo ticket may have been part paid before (rows dated by the demo): ours is the one handed over.
  type Row = {
    id: number;
    tender: string;
    amount: number;
    tendered: number | null;
    change: number | null;
    refund_of: number | null;
    approved_by: number | null;
  };
  // One tender is one row per item paid, sharing an instant; the first carries what was handed over.
  const cashRows = (await apiGet(page, `/payments/?ticket=${cashTicket.id}`)) as (Row & { taken_at: string })[];
  const cash = cashRows.find((r) => r.tendered === tendered);
  expect(cash).toMatchObject({ tender: "cash", tendered, change });
  const tender = cashRows.filter((r) => r.taken_at === cash?.taken_at);
  expect(cents(tender.reduce((s, r) => s + r.amount, 0))).toBe(cents(cashTicket.balance));

  // 2. A split: €5 by card, the dialog stays open for the rest by another tender.
  const before = new Set(((await apiGet(page, `/payments/?ticket=${splitTicket.id}`)) as Row[]).map((r) => r.id));
  await page.goto(`/tickets/${splitTicket.id}`);
  await page.getByTestId("pay-ticket").click();
  const split = page.getByRole("dialog", { name: `Pay ticket #${splitTicket.id}` });
  await split.getByRole("button", { name: "Card", exact: true }).click();
  await expect(split.getByLabel("Tendered")).toHaveCount(0); // only cash is handed over
  // A fraction of a cent is refused in the dialog (the box would answer 422), not rounded.
  await split.getByLabel("Amount").fill("5.005");
  await expect(split.getByRole("alert")).toHaveText("Whole cents only (at most two decimals)");
  await expect(split.getByRole("button", { name: "Pay", exact: true })).toBeDisabled();
  await split.getByLabel("Amount").fill("5");
  await expect(split).toContainText(`Split: ${euros((cents(splitTicket.balance) - 500) / 100)} stays to pay`);
  await split.getByRole("button", { name: "Pay", exact: true }).click();
  const rest = (cents(splitTicket.balance) - 500) / 100;
  await expect(split.getByTestId("pay-balance")).toHaveText(euros(rest));
  await expect(split.getByRole("status")).toHaveText(`Paid €5.00 by card. ${euros(rest)} left to pay.`);
  // More than what is left is refused in the dialog.
  await split.getByLabel("Amount").fill(String(rest + 1));
  await expect(split.getByRole("alert")).toHaveText(`More than the balance of ${euros(rest)}`);
  await split.getByLabel("Amount").fill(rest.toFixed(2));
  await split.getByRole("button", { name: "Other", exact: true }).click();
  await split.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page.getByTestId("pay-ticket")).toHaveText("PAID");
  const rows = (await apiGet(page, `/payments/?ticket=${splitTicket.id}`)) as Row[];
  const byTender = (t: string) => cents(rows.filter((r) => !before.has(r.id) && r.tender === t).reduce((s, r) => s + r.amount, 0));
  expect([byTender("card"), byTender("other"), byTender("cash")]).toEqual([500, cents(rest), 0]);

  // 3. A refund of €2 of the cash payment: the employee needs a manager, who types their PIN here.
  await page.goto(`/tickets/${cashTicket.id}`);
  await payments
    .locator("tr", { hasText: `Tendered ${euros(tendered)}` })
    .getByRole("button", { name: "Refund" })
    .click();
  const refund = page.getByRole("dialog", { name: "Refund" });
  await expect(refund.getByLabel("Refund amount")).toHaveValue(cash!.amount.toFixed(2));
  await refund.getByLabel("Refund amount").fill("2");
  await refund.getByLabel("Refund reason").fill("Stain not removed");
  await refund.getByRole("button", { name: "Refund", exact: true }).click();
  const approval = page.getByRole("dialog", { name: "Manager approval" });
  await expect(approval).toBeVisible();
  await approval.getByLabel("Manager PIN").fill("2222");
  await approval.getByRole("button", { name: "Approve" }).click();
  await expect(app.toast("Refunded")).toBeVisible();
  await expect(payments.locator("tr.refund")).toContainText("Refund: Stain not removed");
  await expect(page.getByTestId("pay-ticket")).toHaveText(euros(2));
  const after = ((await apiGet(page, `/payments/?ticket=${cashTicket.id}`)) as Row[]).filter((r) => r.refund_of !== null);
  expect(after).toEqual([expect.objectContaining({ amount: -2, refund_of: cash?.id })]);
  expect(after[0]?.approved_by).not.toBeNull();
  // Cash, card, other (PUT paidFor) and the refund asked twice (refused, then with the PIN): each its own key.
  expect(keys.length).toBe(5);
  for (const k of keys) expect(k).toMatch(UUID);
  expect(new Set(keys).size).toBe(5);

  // 4. The customer's screen lists the same payments and the refund under the ticket.
  const { customer_id } = await apiGet(page, `/tickets/${cashTicket.id}`);
  await page.goto(`/customers/${customer_id}`);
  await page.getByRole("button", { name: `Payments of ticket ${cashTicket.id}`, exact: true }).click();
  const listed = page.getByTestId("customer-ticket-payments").getByTestId("payments");
  await expect(listed).toContainText(`Tendered ${euros(tendered)}, change ${euros(change)}`);
  await expect(listed.locator("tr.refund")).toContainText("Refund: Stain not removed");
});

test("end of day: a manager counts the drawer, the variance shows in colour, a second close is refused", async ({ page }) => {
  test.setTimeout(60_000);
  const app = new AppPage(page);
  await app.loginAs("2222"); // a manager
  const keys = moneyKeys(page);
  await expect(app.tiles().filter({ hasText: "End of day" })).toHaveCount(1);
  await app.tiles().filter({ hasText: "End of day" }).click();
  await expect(page).toHaveURL(/\/till$/);
  const day = await page.evaluate(() => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Malta" }).format(new Date()));
  const till = await apiGet(page, `/till/${day}`);
  const drawer = page.getByRole("region", { name: "Drawer" });
  await expect(drawer.getByRole("heading", { level: 2 })).toHaveText(`Drawer of ${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}`);
  await expect(drawer.getByTestId("till")).toContainText(`Cash${euros(till.expected.cash)}`);
  // A euro too many in the drawer: red; the card slips agree: green.
  await drawer.getByLabel("Counted cash").fill(((cents(till.expected.cash) + 100) / 100).toFixed(2));
  await drawer.getByLabel("Counted card").fill(till.expected.card.toFixed(2));
  await drawer.getByLabel("Counted other").fill(till.expected.other.toFixed(2));
  await expect(drawer.getByTestId("variance-cash")).toHaveText("€1.00");
  await expect(drawer.getByTestId("variance-cash")).toHaveCSS("color", "rgb(185, 28, 28)");
  await expect(drawer.getByTestId("variance-card")).toHaveCSS("color", "rgb(21, 128, 61)");
  await expect(drawer.getByTestId("variance-summary")).toHaveText("Cash €1.00 over");
  // A variance needs a note first (issue 31): without one nothing is closed.
  await drawer.getByRole("button", { name: "Close the drawer" }).click();
  await expect(drawer.getByRole("alert")).toContainText("The drawer is Cash €1.00 over: say why in the note.");
  expect((await apiGet(page, `/till/${day}`)).closed).toBeNull();
  await drawer.getByLabel("Note").fill("One euro over");
  await drawer.getByRole("button", { name: "Close the drawer" }).click();
  // Then a confirmation that names it; Cancel leaves the drawer open.
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Cash €1.00 over. Close the drawer anyway?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  expect((await apiGet(page, `/till/${day}`)).closed).toBeNull();
  await drawer.getByRole("button", { name: "Close the drawer" }).click();
  await confirm.getByRole("button", { name: "Close with the variance" }).click();
  await expect(drawer.getByRole("status")).toContainText("One euro over");
  await expect(drawer.getByRole("button", { name: "Close the drawer" })).toHaveCount(0);
  expect(keys).toEqual([expect.stringMatching(UUID)]);
  const closed = await apiGet(page, `/till/${day}`);
  expect(closed.closed).toMatchObject({ counted: { cash: (cents(till.expected.cash) + 100) / 100 }, variance: { cash: 1, card: 0, other: 0 } });
  // A second close answers 409; only an admin may reopen.
  const auth = { authorization: `token ${await token(page)}` };
  const again = await page.request.post(`/api/v1/till/${day}/close`, { headers: auth, data: { counted: { cash: 0, card: 0, other: 0 } } });
  expect(again.status()).toBe(409);
  expect((await page.request.post(`/api/v1/till/${day}/reopen`, { headers: auth })).status()).toBe(403);
  await expect(drawer.getByRole("button", { name: "Reopen" })).toHaveCount(0);

  // The Z report on the shop's receipt printer (a stand-in /dev/usb file collects the bytes), read back.
  const lp = `${DATA}/dev/usb/lp5`;
  mkdirSync(`${DATA}/dev/usb`, { recursive: true });
  writeFileSync(lp, "");
  const printers = await apiGet(page, "/printers/");
  const receipt = { id: "till-receipts", name: "Till receipts", language: "ESCPOS", target: { kind: "usblp", path: lp } };
  const adminAuth = { authorization: `token ${(await apiLogin(page.request, 9999)).token}` };
  const saved = await page.request.put("/api/v1/printers/", {
    headers: adminAuth,
    data: [...printers.filter((p: { id: string }) => p.id !== receipt.id), receipt],
  });
  expect(saved.ok()).toBeTruthy();
  await drawer.getByRole("button", { name: "Print Z report" }).click();
  await expect(drawer.getByTestId("z-status")).toHaveText("Z report printed", { timeout: 15_000 });
  const z = escPosLines(readFileSync(lp));
  expect(z.slice(0, 3)).toEqual(["Z REPORT", expect.any(String), `Day ${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}`]);
  const at = z.indexOf("Cash");
  expect(z.slice(at, at + 4)).toEqual([
    "Cash",
    `Expected ${euros(till.expected.cash)}`,
    `Counted ${euros((cents(till.expected.cash) + 100) / 100)}`,
    "Variance €1.00",
  ]);
  expect(z).toContain(`Payments ${String(till.payments)}`);
  expect(z).toContain(`Refunds ${String(till.refunds)}`);
  expect(z).toContain("One euro over");
  // And as a PDF, downloaded from the same screen.
  const download = page.waitForEvent("download");
  await drawer.getByRole("button", { name: "Z report PDF" }).click();
  const file = await (await download).path();
  const text = execFileSync("pdftotext", ["-layout", file, "-"]).toString();
  expect(text).toContain(`Day ${day.slice(8)}/${day.slice(5, 7)}/${day.slice(0, 4)}`);
  expect(text).toMatch(new RegExp(`Cash\\s+${euros(till.expected.cash).replace(".", "\\.")}\\s+\\S+\\s+€1\\.00`));
  expect(text).toContain("One euro over");
});
