import { expect, test } from "@playwright/test";
import { call, cents } from "./pages/api";
import { AppPage } from "./pages/app";

/**
 * Issue 34 (first half): the pay dialog's On account tender. A ticket of a hotel's customer is
 * charged to the hotel's account; past its credit limit the employee needs a manager's PIN,
 * typed on the tablet. The ticket counts as paid, its rows are of tender account, and the
 * account's balance is the sum of its rows.
 */

test("a hotel's ticket charged on account; past the credit limit a manager approves on the tablet", async ({ page }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.loginAs("2222"); // a manager opens the hotel's account
  const owing = ((await call(page, "GET", "/tickets/?limit=100")).json.data as { id: number; balance: number }[]).filter((t) => t.balance > 1);
  const ticket = owing[0]!;
  const detail = (await call(page, "GET", `/tickets/${ticket.id}`)).json.data as { customer_id?: number; customer: { id: number } };
  const customer = detail.customer_id ?? detail.customer.id;
  const made = await call(page, "POST", "/accounts/", {
    name: "Hotel Phoenicia",
    customer_ids: [customer],
    email: "accounts@phoenicia.example",
    credit_limit: 0,
  });
  expect(made.status).toBe(200);
  const account = made.json.data as { id: number; balance: number };
  expect(account.balance).toBe(0);

  await app.loginAs("3333"); // an employee at the counter
  await page.goto(`/tickets/${ticket.id}`);
  await page.getByTestId("pay-ticket").click();
  const pay = page.getByRole("dialog", { name: `Pay ticket #${ticket.id}` });
  await pay.getByRole("button", { name: "On account" }).click();
  await expect(pay.getByLabel("Tendered")).toHaveCount(0);
  // Before paying: the account, its balance and limit, and that a manager must approve.
  await expect(pay.getByTestId("pay-account")).toContainText("Hotel Phoenicia");
  await expect(pay.getByTestId("pay-account-room")).toHaveText("€0.00");
  await expect(pay.getByTestId("pay-account")).toContainText("a manager's approval is needed");
  await pay.getByRole("button", { name: "Pay", exact: true }).click();
  // The limit is €0: the box asks for a manager, who types their PIN here.
  const approval = page.getByRole("dialog", { name: "Manager approval" });
  await expect(approval).toBeVisible();
  await expect(approval).toContainText("credit limit");
  await approval.getByLabel("Manager PIN").fill("2222");
  await approval.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("pay-ticket")).toHaveText("PAID");
  await expect(page.getByTestId("payments")).toContainText("On account");

  const rows = (await call(page, "GET", `/payments/?ticket=${ticket.id}`)).json.data as { tender: string; amount: number; approved_by: number | null }[];
  const onAccount = rows.filter((r) => r.tender === "account");
  expect(cents(onAccount.reduce((s, r) => s + r.amount, 0))).toBe(cents(ticket.balance));
  expect(onAccount.every((r) => r.approved_by !== null)).toBe(true);
  const after = (await call(page, "GET", `/accounts/${account.id}`)).json.data as { balance: number };
  expect(cents(after.balance)).toBe(cents(ticket.balance));
});
