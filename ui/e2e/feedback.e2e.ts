import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, type APIRequestContext, type Page, test } from "@playwright/test";
import { addDays, businessDay } from "../../appliance/domain/dates";
import { dayOfWeek, monthOf, WEEKDAYS, weekDates, weekOf } from "../../appliance/domain/schedule";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";
import { apiLogin } from "./pages/people";
import { shot } from "./pages/shot";

/**
 * Issue 12's smaller screens: the ticket view's Process Feedback (and its reload after label
 * printing), the agent on the customer's ticket list, the State Logs employee filter for an
 * employee, and a shop limited by can_see_action at the counter.
 */

const SIZES = [
  ["tablet", { width: 1280, height: 800 }],
  ["phone", { width: 390, height: 844 }],
] as const;
const SHOP = ["birkirkara", "shop-demo-2026"] as const;
/** Each size prints to its own stand-in printer. */
const LP = { tablet: "lp41", phone: "lp42" } as const;

/** Calls the API with an employee token, unwrapping the envelope. */
function client(request: APIRequestContext, token: string) {
  return async <T = any>(method: string, path: string, data?: unknown): Promise<T> => {
    const r = await request.fetch(`/api/v1${path}`, { method, data, headers: { authorization: `token ${token}` } });
    const json = await r.json();
    if (!json.success) throw new Error(`${method} ${path}: ${r.status()} ${json.message}`);
    return json.data as T;
  };
}
const hqApi = async (request: APIRequestContext) => client(request, (await apiLogin(request, 9999)).token);
const shopApi = async (request: APIRequestContext, pin: number) => client(request, (await apiLogin(request, pin, ...SHOP)).token);

/** A plain file under the box's test device root stands in for a USB label printer (playwright.config.ts). */
function labelPrinterFile(name: string) {
  const lp = resolve(`.e2e-data/main-${MAIN_PORT}/dev/usb/${name}`);
  mkdirSync(resolve(lp, ".."), { recursive: true });
  writeFileSync(lp, "");
  return lp;
}

async function choosePrinter(page: Page, printer: string) {
  await page.evaluate(
    (p) =>
      localStorage.setItem("ironbox.printerChoice", JSON.stringify({ port: "u", printer: p, encoding: "PPLZ", paper: "80mm", variant: "normal", mini: false })),
    printer,
  );
}

for (const [name, size] of SIZES) {
  test.describe(name, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize(size));

    test("the ticket view shows this week's load of its actions in colour, and reloads it after printing labels", async ({ page, request }) => {
      test.setTimeout(60_000);
      const api = await hqApi(request);
      // An action of this test alone (hidden from the counters), so its load is known exactly.
      const action = await api("POST", "/actions/", { name: `Feedback ${name} ${Date.now() % 100000}`, visible: false });
      const today = businessDay(new Date());
      const tomorrow = addDays(today, 1);
      const week = weekDates(weekOf(today).year, weekOf(today).week);
      for (const month of new Set([...week, tomorrow].map(monthOf)))
        await api("POST", "/configurations/", { month, action_id: action.id, amounts: [4, 4, 4, 4, 4, 4, 4] });
      const shirt = (await api("GET", "/garmentSubCategories/")).find((g: { name: string }) => g.name === "Shirt").id;
      const customer = await api("POST", "/customers/", { full_name: `Feedback ${name}` });
      const ticket = await api("POST", "/tickets/", { customer_id: customer.id });
      const items: { id: number }[] = [];
      for (let i = 0; i < 4; i++)
        items.push(...(await api("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: shirt, actions: [action.id] })));
      // Three of the four are processed today: 3 of 4 is more than half, orange.
      for (const it of items.slice(0, 3)) await api("PUT", `/ticketSubCategory/processDate/${it.id}/${today}T00:00:00.000Z`);
      const printers = await api("GET", "/printers/");
      const lp = labelPrinterFile(LP[name]);
      await api("PUT", "/printers/", [{ id: "feedback-labels", name: "Feedback labels", language: "PPLZ", target: { kind: "usblp", path: lp } }]);
      try {
        const app = new AppPage(page);
        await app.loginAs("9999");
        await choosePrinter(page, "feedback-labels");
        await page.goto(`/tickets/${ticket.id}`);
        const panel = page.getByRole("region", { name: "Process Feedback" });
        const cell = (day: string) => panel.getByLabel(`${action.name} ${WEEKDAYS[dayOfWeek(day)]}:`, { exact: false });
        await expect(cell(today)).toHaveText("3/4");
        await expect(cell(today)).toHaveAttribute("data-colour", "orange");
        await expect(cell(today)).toHaveClass(/load-orange/);
        for (const day of week.filter((d) => d !== today)) {
          await expect(cell(day)).toHaveText("0/4");
          await expect(cell(day)).toHaveAttribute("data-colour", "green");
        }
        await expect(panel.getByRole("row", { name: /today/ })).toBeVisible();
        await shot(page, `process-feedback-${name}`, { fullPage: true });

        // Printing the ticket's labels moves every item to tomorrow (spec §4); the panel reloads.
        await page.getByRole("button", { name: "Print", exact: true }).click();
        await page
          .getByRole("dialog", { name: `Print ticket #${ticket.id}` })
          .getByRole("button", { name: "Print labels" })
          .click();
        await expect(app.toast("Printed 4")).toBeVisible();
        expect(readFileSync(lp, "latin1").match(/\^XA/g)).toHaveLength(4);
        await expect(cell(today)).toHaveText("0/4");
        await expect(cell(today)).toHaveAttribute("data-colour", "green");
        if (week.includes(tomorrow)) {
          await expect(cell(tomorrow)).toHaveText("4/4");
          await expect(cell(tomorrow)).toHaveAttribute("data-colour", "red");
        }
      } finally {
        await api("PUT", "/printers/", printers);
        // Leave no trace for other specs: the action's lines first, then the action (and its configurations).
        const t = await api("GET", `/tickets/${ticket.id}`);
        for (const it of t.ticket_sub_categories) for (const a of it.actions) await api("DELETE", `/ticketSubCategoryActions/?id=${a.id}`);
        await api("DELETE", `/actions/${action.id}`);
      }
    });

    test("the customer's ticket list shows the agent of each ticket", async ({ page, request }) => {
      const api = await shopApi(request, 6666);
      const customer = await api("POST", "/customers/", { full_name: `Agent Column ${name}` });
      const ticket = await api("POST", "/tickets/", { customer_id: customer.id });
      const agent = (await api("GET", `/tickets/${ticket.id}`)).agent as string;
      await new AppPage(page).loginAs("6666", ...SHOP);
      await page.goto(`/customers/${customer.id}`);
      const tickets = page.getByRole("region", { name: "Tickets" });
      await expect(tickets.getByRole("columnheader", { name: "Agent" })).toBeVisible();
      await expect(tickets.getByTestId("customer-ticket").filter({ hasText: `#${ticket.id}` })).toContainText(agent);
      expect(agent).toBe("Ironbox Birkirkara");
    });

    test("State Logs as an employee: the employee filter lists the shop's staff", async ({ page }) => {
      await new AppPage(page).loginAs("6666", ...SHOP);
      await page.goto("/state-logs");
      const filter = page.getByLabel("Employee", { exact: true });
      await expect(filter.getByRole("option")).toHaveText(["Any", "Claire Zammit", "Luke Grech"]);
      await filter.selectOption({ label: "Claire Zammit" });
      await page.getByRole("button", { name: "Search" }).click();
      await expect(filter).toHaveValue(/\d+/);
    });

    test("a shop whose agent has can_see_action does not offer a hidden action at the counter", async ({ page, request }) => {
      const hq = await hqApi(request);
      const clerk = await shopApi(request, 6666);
      const shopId = (await hq("GET", "/agents/")).find((a: { user_name: string }) => a.user_name === SHOP[0]).id;
      const actions: { id: number; name: string }[] = await clerk("GET", "/actions/");
      expect(actions.map((a) => a.name)).toContain("Pressing");
      await hq("PUT", `/agents/${shopId}`, {
        can_see_action: actions
          .filter((a) => a.name !== "Pressing")
          .map((a) => a.id)
          .join(","),
      });
      try {
        const customer = await clerk("POST", "/customers/", { full_name: `Limited ${name}` });
        await new AppPage(page).loginAs("6666", ...SHOP);
        await page.goto(`/customers/${customer.id}/new-ticket/0`);
        await expect(page).toHaveURL(/\/new-ticket\/[1-9]\d*$/);
        const bar = page.getByRole("region", { name: "Actions" });
        await expect(bar.getByRole("button", { name: "Dry Cleaning", exact: true })).toBeVisible();
        await expect(bar.getByRole("button")).toHaveCount(actions.length - 1);
        await expect(bar.getByRole("button", { name: "Pressing", exact: true })).toHaveCount(0);
      } finally {
        await hq("PUT", `/agents/${shopId}`, { can_see_action: null });
      }
    });
  });
}
