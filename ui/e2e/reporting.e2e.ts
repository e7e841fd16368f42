import { readFileSync } from "node:fs";
import { expect, type Download, type Page, test } from "@playwright/test";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { businessDay } from "../../appliance/domain/dates";
import { displayDate, printDate } from "../../appliance/domain/format";
import type { ReportName } from "../../appliance/modules/reports/model";
import { AppPage } from "./pages/app";
import { apiLogin } from "./pages/people";

/** The reporting screen of issue 13: the four downloads, progress, cancel, an empty range. */

const SIZES = [
  ["desktop", { width: 1366, height: 900 }],
  ["tablet", { width: 1280, height: 800 }],
] as const;

const today = businessDay(new Date());
const TITLES: Record<ReportName, string> = {
  salesReport: "Sales report",
  clientReport: "Client report",
  itemReport: "Item report",
  itemStateReport: "Item state report",
  paymentsReport: "Payments report",
  tillReport: "Till report",
};
const fileName = (report: ReportName, ext = "csv") => `${TITLES[report]} ${printDate(today)} ${printDate(today)}.${ext}`;
/** The columns of README's reports, written out here; head quarters' include the shop. */
const COLUMNS: Record<ReportName, string[]> = {
  salesReport: ["Date", "Shop", "Action", "Items", "Gross", "Discounts", "Net", "Net excl. VAT", "VAT 18%", "Paid", "Outstanding", "Takings"],
  clientReport: ["Customer ID", "Customer", "Mobile", "Shop", "Tickets", "Items", "Spent", "Paid", "Owed", "First visit", "Last visit"],
  itemReport: [
    "Item ID",
    "Ticket ID",
    "Date",
    "Shop",
    "Customer",
    "State",
    "Garment",
    "Description",
    "Actions",
    "Quantity",
    "Express",
    "Price",
    "Total",
    "Paid",
    "Commission %",
    "Commission",
  ],
  itemStateReport: ["Item ID", "Ticket ID", "Garment", "Description", "State", "When", "Employee", "Shop", "Note"],
  paymentsReport: ["Date", "Time", "Till day", "Shop", "Ticket ID", "Item ID", "Tender", "Amount", "Tendered", "Change", "Employee", "Refund of", "Reason"],
  tillReport: [
    "Date",
    "Shop",
    "Expected cash",
    "Counted cash",
    "Variance cash",
    "Expected card",
    "Counted card",
    "Variance card",
    "Expected other",
    "Counted other",
    "Variance other",
    "Closed at",
    "Closed by",
    "Note",
    "Reopened at",
  ],
};

type Row = Record<string, string>;
/** The downloaded CSV parsed back by a real CSV parser: the header line and the records. */
function readCsv(path: string): { header: string; rows: Row[] } {
  const text = readFileSync(path, "utf8");
  expect(text.charCodeAt(0), "UTF-8 with a BOM").toBe(0xfeff);
  const header = text.slice(1).split(/\r?\n/, 1)[0]!;
  return { header, rows: parse(text, { bom: true, columns: true, skip_empty_lines: true }) as Row[] };
}

/**
 * A ticket of its own for each run, confirmed today: a new customer, a suit and a shirt both
 * with Pressing, the items then set MARKED (a logged state change).
 */
async function makeTicket(page: Page, tag: string) {
  const { token } = await apiLogin(page.request, 9999);
  const call = async <T = any>(method: string, path: string, data?: unknown): Promise<T> => {
    const r = await page.request.fetch(`/api/v1${path}`, { method, data, headers: { authorization: `token ${token}` } });
    const json = await r.json();
    if (!json.success) throw new Error(`${method} ${path}: ${r.status()} ${json.message}`);
    return json.data as T;
  };
  const garments = await call<{ id: number; name: string }[]>("GET", "/garmentSubCategories/");
  const actions = await call<{ id: number; name: string }[]>("GET", "/actions/");
  const pressing = actions.find((a) => a.name === "Pressing")!;
  const customer = await call<{ id: number }>("POST", "/customers/", { full_name: `Report Customer ${tag} ${Date.now() % 100000}` });
  const t = await call<{ id: number }>("POST", "/tickets/", { customer_id: customer.id });
  const ids: number[] = [];
  for (const name of ["Suit 2pc", "Shirt"]) {
    const [item] = await call<{ id: number }[]>("POST", "/ticketSubCategory/", {
      ticket_id: t.id,
      garment_sub_category_id: garments.find((g) => g.name === name)!.id,
    });
    await call("POST", "/ticketSubCategoryActions/", { ticket_sub_category_id: item!.id, action_id: pressing.id });
    ids.push(item!.id);
  }
  await call("PUT", `/tickets/${t.id}/confirm`);
  await call("PUT", "/ticketSubCategory/changeState", { Ids: ids, State: "MARKED" });
  return { ticketId: t.id, customerId: customer.id, itemIds: ids };
}

const section = (page: Page, title: string) => page.getByRole("region", { name: title });
const chip = (page: Page, title: string, group: string, name: string) =>
  section(page, title).getByRole("group", { name: group }).getByRole("button", { name, exact: true });

async function download(page: Page, title: string, button: RegExp | string): Promise<Download> {
  const [file] = await Promise.all([page.waitForEvent("download"), section(page, title).getByRole("button", { name: button, exact: true }).click()]);
  return file;
}

const REPORT_BUTTONS = [
  ["Sales report", "Download Sales Report", "salesReport"],
  ["Client report", "Download Client Report", "clientReport"],
  ["Item report", "Download Item Report", "itemReport"],
  ["Item state report", "Download Item State Report", "itemStateReport"],
] as const;

const headerOf = (report: ReportName) => COLUMNS[report].join(",");

for (const [name, size] of SIZES) {
  test.describe(name, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize(size));

    test("each of the four reports downloads with the server's file name, its columns and its rows", async ({ page }) => {
      const app = new AppPage(page);
      await app.loginAs("9999");
      const t = await makeTicket(page, name);
      await page.goto("/reporting");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Reporting");
      // One date range for the four (issue 25): two date fields on the screen, not eight.
      await expect(section(page, "Dates").getByLabel("From")).toHaveValue(displayDate(today));
      await expect(section(page, "Dates").getByLabel("To")).toHaveValue(displayDate(today));
      await expect(page.locator(".date-field")).toHaveCount(2);
      for (const title of ["Sales report", "Client report", "Item report", "Item state report"]) {
        await expect(section(page, title).getByText(displayDate(today), { exact: true })).toBeVisible();
      }
      await expect(section(page, "Item report").getByLabel("Commission %")).toHaveValue("0");

      // Sales, for Pressing only (the multi-select sends actions as a repeated key).
      await chip(page, "Sales report", "Actions", "Pressing").click();
      let file = await download(page, "Sales report", "Download Sales Report");
      expect(file.suggestedFilename()).toBe(fileName("salesReport"));
      let csv = readCsv((await file.path())!);
      expect(csv.header).toBe(headerOf("salesReport"));
      expect(csv.rows.length).toBeGreaterThan(0);
      expect(new Set(csv.rows.map((r) => r.Action))).toEqual(new Set(["Pressing"]));
      expect(csv.rows.reduce((n, r) => n + Number(r.Items), 0)).toBeGreaterThanOrEqual(2);
      await expect(page.getByTestId("salesReport-status")).toHaveText(
        `Saved ${fileName("salesReport")}: ${csv.rows.length} row${csv.rows.length === 1 ? "" : "s"}`,
      );

      // Clients: the new customer, one ticket of two items.
      file = await download(page, "Client report", "Download Client Report");
      expect(file.suggestedFilename()).toBe(fileName("clientReport"));
      csv = readCsv((await file.path())!);
      expect(csv.header).toBe(headerOf("clientReport"));
      const client = csv.rows.find((r) => Number(r["Customer ID"]) === t.customerId);
      expect(client).toMatchObject({ Tickets: "1", Items: "2" });
      await expect(page.getByTestId("clientReport-status")).toContainText(`: ${csv.rows.length} row`);

      // Items at 10 % commission: both items of the ticket, with the commission on their total.
      await section(page, "Item report").getByLabel("Commission %").fill("10");
      file = await download(page, "Item report", "Download Item Report");
      expect(file.suggestedFilename()).toBe(fileName("itemReport"));
      csv = readCsv((await file.path())!);
      expect(csv.header).toBe(headerOf("itemReport"));
      const items = csv.rows.filter((r) => Number(r["Ticket ID"]) === t.ticketId);
      expect(items.map((r) => Number(r["Item ID"])).sort()).toEqual([...t.itemIds].sort());
      for (const r of items) {
        expect(r["Commission %"]).toBe("10");
        expect(r.Commission).toBe((Math.round(Number(r.Total) * 10) / 100).toFixed(2));
        expect(r.Date).toBe(printDate(today));
      }
      await expect(page.getByTestId("itemReport-status")).toContainText(`: ${csv.rows.length} row`);

      // The same as xlsx, read back by a real xlsx reader.
      file = await download(page, "Item report", "Download Item Report as Excel");
      expect(file.suggestedFilename()).toBe(fileName("itemReport", "xlsx"));
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile((await file.path())!);
      const sheet = book.worksheets[0]!;
      expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(COLUMNS.itemReport);
      expect(sheet.actualRowCount - 1).toBe(csv.rows.length);

      // Item states, MARKED only: both items' change.
      await chip(page, "Item state report", "States", "MARKED").click();
      file = await download(page, "Item state report", "Download Item State Report");
      expect(file.suggestedFilename()).toBe(fileName("itemStateReport"));
      csv = readCsv((await file.path())!);
      expect(csv.header).toBe(headerOf("itemStateReport"));
      expect(new Set(csv.rows.map((r) => r.State))).toEqual(new Set(["MARKED"]));
      expect(
        csv.rows
          .filter((r) => Number(r["Ticket ID"]) === t.ticketId)
          .map((r) => Number(r["Item ID"]))
          .sort(),
      ).toEqual([...t.itemIds].sort());
    });

    test("an empty range says so and saves nothing; from after to cannot be sent", async ({ page }) => {
      const app = new AppPage(page);
      await app.openAs("/reporting", "9999");
      let saved = 0;
      page.on("download", () => saved++);
      const sales = section(page, "Sales report");
      const dates = section(page, "Dates");
      await dates.getByLabel("From").fill("01/01/2001");
      await dates.getByLabel("To").fill("02/01/2001");
      await dates.getByLabel("To").press("Tab");
      await sales.getByRole("button", { name: "Download Sales Report", exact: true }).click();
      await expect(page.getByTestId("salesReport-status")).toHaveText("No rows for these dates and filters: there is nothing to download.");
      await sales.getByRole("button", { name: "Download Sales Report as Excel" }).click();
      await expect(page.getByTestId("salesReport-status")).toHaveText("No rows for these dates and filters: there is nothing to download.");
      await dates.getByLabel("From").fill("03/01/2001");
      await dates.getByLabel("From").press("Tab");
      await expect(dates.getByText("From must not be after To")).toBeVisible();
      for (const [title, button] of REPORT_BUTTONS) await expect(section(page, title).getByRole("button", { name: button, exact: true })).toBeDisabled();
      expect(saved).toBe(0);
    });

    test("one date range drives all four downloads; a report may take its own dates", async ({ page }) => {
      const app = new AppPage(page);
      await app.openAs("/reporting", "9999");
      const asked: URL[] = [];
      page.on("request", (r) => r.url().includes("/tickets/") && new URL(r.url()).searchParams.has("from") && asked.push(new URL(r.url())));
      const dates = section(page, "Dates");
      await dates.getByLabel("From").fill("01/01/2001");
      await dates.getByLabel("To").fill("02/01/2001");
      await dates.getByLabel("To").press("Tab");
      for (const [title, button, report] of REPORT_BUTTONS) {
        await expect(section(page, title).getByTestId(`${report}-dates`)).toHaveText("01/01/2001 – 02/01/2001");
        await section(page, title).getByRole("button", { name: button, exact: true }).click();
        await expect(page.getByTestId(`${report}-status`)).toHaveText("No rows for these dates and filters: there is nothing to download.");
      }
      expect(asked.map((u) => [u.searchParams.get("from"), u.searchParams.get("to")])).toEqual(Array(4).fill(["2001-01-01", "2001-01-02"]));

      // The item report takes its own dates; the others keep the shared ones.
      const items = section(page, "Item report");
      await items.getByLabel("Own dates").check();
      await expect(items.getByLabel("From")).toHaveValue("01/01/2001");
      await items.getByLabel("From").fill("01/02/2001");
      await items.getByLabel("To").fill("03/02/2001");
      await items.getByLabel("To").press("Tab");
      asked.length = 0;
      await items.getByRole("button", { name: "Download Item Report", exact: true }).click();
      await section(page, "Sales report").getByRole("button", { name: "Download Sales Report", exact: true }).click();
      await expect.poll(() => asked.length).toBe(2);
      const by = (report: string) => asked.find((u) => u.pathname.endsWith(`/${report}`))!;
      expect([by("itemReport").searchParams.get("from"), by("itemReport").searchParams.get("to")]).toEqual(["2001-02-01", "2001-02-03"]);
      expect([by("salesReport").searchParams.get("from"), by("salesReport").searchParams.get("to")]).toEqual(["2001-01-01", "2001-01-02"]);
    });

    test("a download shows its rows as they stream and can be cancelled; nothing is saved", async ({ page }) => {
      // The box's real answer, slowed to one line every 400 ms, so the progress and the
      // cancel can be seen mid-stream. Aborting the fetch stops the slowed stream too.
      await page.addInitScript(() => {
        const real = window.fetch.bind(window);
        const slowed = async (input: RequestInfo | URL, init?: RequestInit) => {
          const res = await real(input, init);
          if (!String(input).includes("/tickets/csv/") || !res.body) return res;
          const lines = (await res.text()).split(/(?<=\n)/);
          const enc = new TextEncoder();
          const body = new ReadableStream<Uint8Array>({
            async start(c) {
              init?.signal?.addEventListener("abort", () => c.error(new DOMException("aborted", "AbortError")));
              for (const line of lines) {
                if (init?.signal?.aborted) return;
                c.enqueue(enc.encode(line));
                await new Promise((r) => setTimeout(r, 400));
              }
              c.close();
            },
          });
          return new Response(body, { status: res.status, headers: res.headers });
        };
        window.fetch = slowed as typeof fetch;
      });
      const app = new AppPage(page);
      await app.loginAs("9999");
      await makeTicket(page, `${name}-cancel`);
      await page.goto("/reporting");
      let saved = 0;
      page.on("download", () => saved++);
      const items = section(page, "Item report");
      await items.getByRole("button", { name: "Download Item Report", exact: true }).click();
      await expect(page.getByTestId("itemReport-status")).toHaveText(/^[12] rows? so far…$/);
      await items.getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByTestId("itemReport-status")).toHaveText("Download cancelled");
      await expect(items.getByRole("button", { name: "Download Item Report", exact: true })).toBeEnabled();
      await page.waitForTimeout(1000);
      expect(saved).toBe(0);
    });
  });
}

// A manager typing /reporting lands on /home: ui/app/routes.test.ts (the gate itself: home.e2e.ts).
