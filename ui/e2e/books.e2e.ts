import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { AppPage } from "./pages/app";

/**
 * Issue 34: a customer's deposit taken on the customer screen and spent with the pay dialog's
 * Balance tender; the accountant's journal downloaded from HQ's configuration in Xero's format
 * with HQ's account code, balanced per journal. HQ staff's Transfer button moves part of the
 * deposit to another shop (one box: applied at once; a refusal shown in words).
 */
const token = (page: Page) => page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
const apiGet = async (page: Page, path: string) => {
  const r = await (await page.request.get(`/api/v1${path}`, { headers: { authorization: `token ${await token(page)}` } })).json();
  if (!r.success) throw new Error(`${path}: ${r.message}`);
  return r.data;
};
const dmy = (d: Date) => new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Malta", day: "2-digit", month: "2-digit", year: "numeric" }).format(d);

test("a deposit taken on the customer screen, spent with the Balance tender; the journal downloads balanced with HQ's code", async ({ page }) => {
  test.setTimeout(90_000);
  const app = new AppPage(page);
  await app.openAs("/home", "9999");
  const owing = ((await apiGet(page, "/tickets/?limit=100")) as { id: number; balance: number; customer_id: number }[]).filter((t) => t.balance > 5);
  expect(owing.length).toBeGreaterThan(0);
  const t = owing[0]!;
  const before = (await apiGet(page, `/customers/${t.customer_id}/balance`)).spendable as number;

  // The customer screen: the balance, a deposit of €50 in cash.
  await page.goto(`/customers/${t.customer_id}`);
  await expect(page.getByTestId("deposit-balance")).toBeVisible();
  await page.getByLabel("Deposit amount").fill("50");
  await page.getByLabel("Deposit tender").selectOption("cash");
  await page.getByRole("button", { name: "Take deposit" }).click();
  await expect(page.getByTestId("deposit-rows")).toContainText("Deposit");
  expect((await apiGet(page, `/customers/${t.customer_id}/balance`)).spendable).toBe(before + 50);

  // The ticket's pay dialog: the Balance tender shows what is spendable; €5 of it paid.
  await page.goto(`/tickets/${t.id}`);
  await page.getByTestId("pay-ticket").click();
  const pay = page.getByRole("dialog", { name: `Pay ticket #${t.id}` });
  await pay.getByRole("button", { name: "Balance", exact: true }).click();
  await expect(pay.getByTestId("pay-deposit")).toContainText("spendable here");
  await pay.getByLabel("Amount").fill("5");
  await pay.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(pay.getByRole("status").first()).toContainText("Paid €5.00 by balance");
  await pay.getByRole("button", { name: "Close" }).click();
  expect((await apiGet(page, `/customers/${t.customer_id}/balance`)).spendable).toBe(before + 45);

  // HQ staff move €10 of it to another shop with the Transfer button: applied at once on one box.
  const held = (await apiGet(page, `/customers/${t.customer_id}/balance`)).by_shop as { agent_id: number; balance: number }[];
  const from = held.find((h) => h.balance >= 10)!;
  const shops = (await apiGet(page, "/agents/")) as { id: number; name: string }[];
  const to = shops.find((s) => s.id !== from.agent_id)!;
  await page.goto(`/customers/${t.customer_id}`);
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  const transfer = page.getByRole("form", { name: "Transfer the deposit" });
  await transfer.getByLabel("Transfer from shop").selectOption(String(from.agent_id));
  await transfer.getByLabel("Transfer to shop").selectOption(String(to.id));
  await transfer.getByLabel("Transfer amount").fill("20000");
  await transfer.getByRole("button", { name: "Transfer", exact: true }).click();
  // Refused: the reason in words, nothing moved.
  await expect(transfer.getByTestId("transfer-problem")).toContainText("Not enough balance at");
  await transfer.getByLabel("Transfer amount").fill("10");
  await transfer.getByRole("button", { name: "Transfer", exact: true }).click();
  await expect(transfer.getByTestId("transfer-state")).toContainText("Transfer of €10.00 applied");
  await expect(transfer.getByTestId("transfer-state")).toContainText(to.name);
  await expect(page.getByTestId("deposit-rows")).toContainText("Transferred in");
  const after = (await apiGet(page, `/customers/${t.customer_id}/balance`)).by_shop as { agent_id: number; balance: number }[];
  expect(after.find((h) => h.agent_id === from.agent_id)!.balance).toBe(from.balance - 10);
  expect(after.find((h) => h.agent_id === to.id)!.balance).toBe((held.find((h) => h.agent_id === to.id)?.balance ?? 0) + 10);

  // HQ's configuration: the journal's account codes and a Xero file of today.
  await page.goto("/configuration");
  await page.getByRole("link", { name: "Accountant's journal" }).click();
  const codes = page.getByTestId("account-codes");
  await codes.getByLabel("Customer deposits (money owed to customers) code").fill("2150");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Account codes saved")).toBeVisible();
  const today = dmy(new Date());
  const form = page.getByRole("form", { name: "Journal" });
  await form.getByRole("textbox", { name: "From" }).fill(today);
  await form.getByRole("textbox", { name: "To" }).fill(today);
  await form.getByRole("textbox", { name: "To" }).press("Tab");
  await form.getByLabel("Format").selectOption("xero");
  const [file] = await Promise.all([page.waitForEvent("download"), form.getByRole("button", { name: "Download" }).click()]);
  const text = readFileSync((await file.path())!, "utf8");
  const rows = parse(text) as string[][];
  expect(rows[0]).toEqual(["Narration", "Date", "Description", "AccountCode", "TaxRate", "Amount", "TrackingName1", "TrackingOption1"]);
  const sums = new Map<string, number>();
  for (const r of rows.slice(1)) sums.set(r[0]!, (sums.get(r[0]!) ?? 0) + Math.round(Number(r[5]) * 100));
  for (const [, s] of sums) expect(s).toBe(0);
  expect(rows.some((r) => r[3] === "2150" && r[1] === today)).toBe(true);
});
