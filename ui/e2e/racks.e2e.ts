import { resolve } from "node:path";
import { createClient } from "@libsql/client";
import { expect, type Page, test } from "@playwright/test";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";

/**
 * Issue 25 "Where is it?": bags go on a rack by scanning the rack's label and then the bags on
 * the tracking screen; the counter finds them at pickup; the unclaimed list shows what waits.
 */
// Each test makes its own ticket through the API first: a busy shared machine needs the time.
test.describe.configure({ timeout: 90_000 });
const DATA = resolve(`.e2e-data/main-${MAIN_PORT}`);
const token = (page: Page) => page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
const j = async (r: Promise<{ json(): Promise<{ data: any }> }>) => (await (await r).json()).data;

/** A confirmed ticket with a suit and a shirt for a new customer with a mobile. */
async function makeTicket(page: Page, name: string) {
  const auth = { authorization: `token ${await token(page)}` };
  const garments = await j(page.request.get("/api/v1/garmentSubCategories/", { headers: auth }));
  const customer = await j(page.request.post("/api/v1/customers/", { headers: auth, data: { full_name: name, mobile: "79001122" } }));
  const t = await j(page.request.post("/api/v1/tickets/", { headers: auth, data: { customer_id: customer.id } }));
  const items: { id: number }[] = [];
  for (const g of ["Suit 2pc", "Shirt"]) {
    const id = garments.find((x: { name: string }) => x.name === g).id;
    items.push(...(await j(page.request.post("/api/v1/ticketSubCategory/", { headers: auth, data: { ticket_id: t.id, garment_sub_category_id: id } }))));
  }
  await j(page.request.put(`/api/v1/tickets/${t.id}/confirm`, { headers: auth }));
  return { ticketId: t.id as number, customerId: customer.id as number, items, auth };
}

test("a rack label then a ticket's bags: the ticket view, the customer's tickets and the Racks screen show where they are", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("3333");
  const { ticketId, customerId } = await makeTicket(page, `Rack Customer ${Date.now() % 100000}`);
  const rack = `Z${Date.now() % 1000}`;

  await page.goto("/tracking");
  const box = page.getByLabel("Scan or type a code");
  // What a gun reads off a rack label: the list waits for the bags.
  await box.fill(`!R!R:Rack ${rack}`);
  await box.press("Enter");
  const bar = page.getByRole("status", { name: "Putting on a rack" });
  await expect(bar).toContainText(`Putting on rack Rack ${rack}`);
  await box.fill(`!T!T:${ticketId}`);
  await box.press("Enter");
  await expect(app.toast(`2 items on Rack ${rack}`)).toBeVisible();
  await expect(page.getByTestId("track-row")).toHaveCount(2);
  await expect(page.getByTestId("track-location")).toHaveText([`On Rack ${rack}`, `On Rack ${rack}`]);
  // Named by garment and ticket, not "#ticket/item".
  await expect(page.getByTestId("track-row").first()).toContainText(`Suit 2pc · ticket #${ticketId}`);
  await bar.getByRole("button", { name: `Done with Rack ${rack}` }).click();
  await expect(bar).toHaveCount(0);

  // The ticket view at pickup says where its bags are, and each item its rack.
  await page.goto(`/tickets/${ticketId}`);
  await expect(page.getByTestId("ticket-where")).toHaveText(`Bags on Rack ${rack}`);
  await expect(page.getByTestId("item-row").first()).toContainText(`On Rack ${rack}`);
  // So does the customer's list of tickets.
  await page.goto(`/customers/${customerId}`);
  // (The customer screen loads several lists at once: slow on a busy machine.)
  await expect(page.getByTestId("customer-ticket").getByTestId("ticket-where")).toHaveText(`Rack ${rack}`, { timeout: 20_000 });
  // And the Racks screen finds it by the ticket number.
  await page.goto("/racks");
  await page.getByLabel("Ticket number").fill(String(ticketId));
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("rack-answer")).toHaveText(`Ticket #${ticketId}: on Rack ${rack}`);
});

test("a rack typed instead of scanned: the listed items move onto it", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("3333");
  const { ticketId } = await makeTicket(page, `Shelf Customer ${Date.now() % 100000}`);
  await page.goto("/tracking");
  const box = page.getByLabel("Scan or type a code");
  await box.fill(String(ticketId));
  await box.press("Enter");
  await expect(page.getByTestId("track-row")).toHaveCount(2);
  await page.getByLabel("Rack or slot").fill("Shelf 3");
  await page.getByRole("button", { name: "Put the list (2) on it" }).click();
  await expect(page.getByTestId("track-location")).toHaveText(["On Shelf 3", "On Shelf 3"]);
  await page.goto(`/tickets/${ticketId}`);
  await expect(page.getByTestId("ticket-where")).toHaveText("Bags on Shelf 3");
});

test("tracking: the signature box is labelled, the pay button says what it does and opens the pay dialog, success toasts stay clear of Set a state", async ({
  page,
}) => {
  const app = new AppPage(page);
  await app.loginAs("3333");
  const { ticketId, auth, items } = await makeTicket(page, `Pay Customer ${Date.now() % 100000}`);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/tracking");
  const box = page.getByLabel("Scan or type a code");
  await expect(page.getByText("Customer's signature (optional): sign in the box")).toBeVisible();
  // The success toast sits at the top, never over the state picker and Confirm at the bottom. It
  // lasts 1.5 s: where it appeared is recorded as it appears.
  await page.evaluate(() => {
    const w = window as unknown as { toastsSeen: string[] };
    w.toastsSeen = [];
    new MutationObserver((list) => {
      for (const m of list)
        for (const n of m.addedNodes)
          if (n instanceof HTMLElement && n.classList.contains("toast")) w.toastsSeen.push(`${n.parentElement?.className}: ${n.textContent}`);
    }).observe(document.body, { childList: true, subtree: true });
  });
  await box.fill(String(ticketId));
  await box.press("Enter");
  await expect(page.getByTestId("track-row")).toHaveCount(2);
  await expect.poll(() => page.evaluate(() => (window as unknown as { toastsSeen: string[] }).toastsSeen)).toContain("toasts toasts-top: Scan Successful");
  const band = (await page.locator(".toasts-top").boundingBox())!;
  await page.getByRole("heading", { name: "Set a state on every item" }).scrollIntoViewIfNeeded();
  const confirm = (await page.getByRole("button", { name: "Confirm" }).boundingBox())!;
  expect(confirm.y).toBeGreaterThan(band.y + 80);

  const first = page.getByTestId("track-row").first();
  const pay = first.getByRole("button", { name: /^Pay €\d+\.\d\d for this item$/ });
  await pay.click();
  const dialog = page.getByRole("dialog", { name: `Pay Suit 2pc · item ${items[0]!.id} on ticket #${ticketId}` });
  await dialog.getByRole("button", { name: "Card" }).click();
  await dialog.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(first.getByText("PAID", { exact: true })).toBeVisible();
  const payments = await j(page.request.get(`/api/v1/payments/?ticket=${ticketId}`, { headers: auth }));
  expect(payments.map((p: { tender: string }) => p.tender)).toEqual(["card"]);
});

test("unclaimed: an item ready for 45 days is listed with the customer's contact at 30 days, not at 60; an admin sends a reminder", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("1111");
  const name = `Unclaimed Customer ${Date.now() % 100000}`;
  const { ticketId, customerId, items, auth } = await makeTicket(page, name);
  await j(page.request.put("/api/v1/ticketSubCategory/changeState", { headers: auth, data: { Ids: items.map((i) => i.id), State: "AWAITING DELIVERY" } }));
  // Ready 45 days ago: the log row is moved back in the box's database, as time would have.
  const db = createClient({ url: `file:${DATA}/ironbox.db` });
  try {
    await db.execute({
      sql: `UPDATE item_log_states SET logged_at = ? WHERE state = 'AWAITING DELIVERY' AND ticket_sub_category_id IN (${items.map(() => "?").join(",")})`,
      args: [new Date(Date.now() - 45 * 86_400_000).toISOString(), ...items.map((i) => i.id)],
    });
  } finally {
    db.close();
  }

  await page.goto("/unclaimed");
  const rows = page.getByTestId("unclaimed-row").filter({ hasText: `ticket #${ticketId}` });
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(name);
  await expect(rows.first()).toContainText("79001122");
  await expect(rows.first()).toContainText("(45 days)");
  await page.getByRole("tab", { name: "60 days" }).click();
  await expect(page.getByRole("tab", { name: "60 days" })).toHaveAttribute("aria-selected", "true");
  await expect(rows).toHaveCount(0);
  await page.getByRole("tab", { name: "30 days" }).click();
  await expect(rows).toHaveCount(2);

  await page.getByRole("button", { name: /^Send the reminder to \d+ customers?$/ }).click();
  await page.getByRole("button", { name: "OK" }).click();
  await expect(app.toast(/^Reminder queued for \d+ customers?/)).toBeVisible();
  const sent = await j(page.request.get(`/api/v1/messages?customer_id=${customerId}`, { headers: auth }));
  expect(sent).toHaveLength(1);
  expect(sent[0].text).toContain("ready for collection for over 30 days");
});
