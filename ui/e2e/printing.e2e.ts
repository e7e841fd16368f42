import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { AppPage } from "./pages/app";

const token = (page: Page) => page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));

test("labels from the counter reach the label printer, with progress; without a printer 'Select Port'", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const auth = { authorization: `token ${await token(page)}` };
  // A file stands in for /dev/usb/lp0 (the appliance appends each job to it).
  const lp = resolve(`.e2e-data/lp-${Date.now()}`);
  writeFileSync(lp, "");
  await page.request.put("/api/v1/printers/", { headers: auth, data: [{ id: "labels", name: "Label printer", language: "PPLZ", target: { kind: "usblp", path: lp } }] });
  const customer = (await (await page.request.post("/api/v1/customers/", { headers: auth, data: { full_name: "Label Test" } })).json()).data;
  await page.goto(`/customers/${customer.id}/new-ticket/0`);
  await expect(page).toHaveURL(/\/new-ticket\/[1-9]\d*$/);
  await page.getByRole("button", { name: "Labels" }).click();
  await expect(page.locator(".toast", { hasText: "Ticket is empty" })).toBeVisible();
  await page.getByRole("tab", { name: "Dry Cleaning" }).click();
  await page.getByRole("button", { name: "Suit 2pc", exact: true }).click();
  await expect(page.getByTestId("item-row")).toHaveCount(1);
  await page.getByRole("button", { name: "Labels" }).click();
  await expect(page.locator(".toast", { hasText: "Select Port" })).toBeVisible();
  await page.getByLabel("Printer").selectOption("labels");
  await page.getByRole("button", { name: "Labels" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Printed 2 of 2" })).toBeVisible();
  const zpl = readFileSync(lp, "utf8");
  expect(zpl.match(/\^XA/g)).toHaveLength(2); // Jacket and Trousers
  await expect(page.getByTestId("item-row")).toBeVisible();
  const ticketId = Number(page.url().split("/").pop());
  const t = (await (await page.request.get(`/api/v1/tickets/${ticketId}`, { headers: auth })).json()).data;
  expect(t.ticket_sub_categories[0].state).toBe("MARKED");
});
