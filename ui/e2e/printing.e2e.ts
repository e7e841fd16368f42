import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { createClient } from "@libsql/client";
import { expect, type Page, test } from "@playwright/test";
import { AppPage } from "./pages/app";
import { MAIN_PORT } from "./pages/env";
import { shot } from "./pages/shot";

/**
 * The printer dialog against the box's stand-in hardware: printer discovery reads a stand-in
 * sysfs and /dev inside the box's data dir (playwright.config.ts), where a plain file stands
 * in for the USB label printer's /dev/usb/lp0 and collects every job the box sends.
 */
const DATA = resolve(`.e2e-data/main-${MAIN_PORT}`);
/** Writes a box setting straight into the e2e box's database, as an older version or a hand edit would have left it. */
async function storeSetting(key: string, value: string) {
  const db = createClient({ url: `file:${DATA}/ironbox.db` });
  try {
    await db.execute({ sql: "INSERT INTO box_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", args: [key, value] });
  } finally {
    db.close();
  }
}
const LP = `${DATA}/dev/usb/lp0`;

/** One USB printer-class device, laid out as the kernel does (the class link points into devices/). */
function plugLabelPrinter() {
  rmSync(`${DATA}/sys`, { recursive: true, force: true });
  const usb = `${DATA}/sys/devices/pci0000:00/0000:00:14.0/usb1/1-1`;
  mkdirSync(`${usb}/1-1:1.0/usbmisc/lp0`, { recursive: true });
  for (const [f, v] of Object.entries({ idVendor: "1664", idProduct: "0d10", manufacturer: "Argox", product: "OS-214plus series PPLZ", serial: "AX123" }))
    writeFileSync(`${usb}/${f}`, `${v}\n`);
  writeFileSync(`${usb}/1-1:1.0/ieee1284_id`, "MFG:Argox;CMD:ZPL;MDL:OS-214plus;CLS:PRINTER;\n");
  mkdirSync(`${DATA}/sys/class/usbmisc`, { recursive: true });
  symlinkSync("../../devices/pci0000:00/0000:00:14.0/usb1/1-1/1-1:1.0/usbmisc/lp0", `${DATA}/sys/class/usbmisc/lp0`);
  symlinkSync("../../../1-1:1.0", `${usb}/1-1:1.0/usbmisc/lp0/device`);
  mkdirSync(`${DATA}/dev/usb`, { recursive: true });
  writeFileSync(LP, "");
}

const token = (page: Page) => page.evaluate(() => localStorage.getItem("ironbox.employeeToken"));
const maltaDay = () =>
  new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Malta", day: "2-digit", month: "2-digit", year: "numeric" }).format(new Date()).replaceAll("/", "-");

async function counterWithSuit(page: Page) {
  const auth = { authorization: `token ${await token(page)}` };
  const customer = (await (await page.request.post("/api/v1/customers/", { headers: auth, data: { full_name: "Printer Dialog" } })).json()).data;
  await page.goto(`/customers/${customer.id}/new-ticket/0`);
  await expect(page).toHaveURL(/\/new-ticket\/[1-9]\d*$/);
  return { customer, auth, ticketId: Number(page.url().split("/").pop()) };
}

/** On the counter: a Suit 2pc (two pieces, so two labels). */
async function addSuit(page: Page) {
  await page.getByRole("tab", { name: "Dry Cleaning" }).click();
  await page.getByRole("button", { name: "Suit 2pc", exact: true }).click();
  await expect(page.getByTestId("item-row")).toHaveCount(1);
}

/** On the counter: a new ticket with a Suit 2pc, and its printer dialog open. */
async function printDialogWithSuit(page: Page) {
  const opened = await counterWithSuit(page);
  await addSuit(page);
  await page.getByRole("button", { name: "Print", exact: true }).click();
  return { ...opened, dialog: page.getByRole("dialog", { name: `Print ticket #${opened.ticketId}` }) };
}

test("printer dialog: search picks the single USB label printer; labels reach it; the counter confirms and returns to the customer", async ({ page }) => {
  plugLabelPrinter();
  const app = new AppPage(page);
  await app.loginAs("9999");
  await page.evaluate(() => localStorage.removeItem("ironbox.printerChoice"));
  const { customer, auth, ticketId } = await counterWithSuit(page);
  await page.getByRole("button", { name: "Print", exact: true }).click();
  await expect(app.toast("Ticket is empty")).toBeVisible();

  await addSuit(page);
  await page.getByRole("button", { name: "Print", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Print ticket #${ticketId}` });
  await expect(dialog.getByRole("tab")).toHaveText(["USB", "Bluetooth", "BLE", "RAWBT", "PDF"]);
  await dialog.getByRole("button", { name: "Print", exact: true }).click();
  await expect(app.toast("Select Port")).toBeVisible();

  // Search resets the choice, finds the one attached printer and takes its encoding.
  await dialog.getByRole("button", { name: "Search" }).click();
  const device = dialog.getByRole("radio", { name: /OS-214plus/ });
  await expect(device).toBeChecked();
  await expect(dialog.getByLabel("Encoding")).toHaveValue("PPLZ");
  await shot(page, "printer-dialog");
  await dialog.getByRole("button", { name: "Print labels" }).click();
  // Printing confirms the ticket, then the counter returns to the customer screen.
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}$`));
  const zpl = readFileSync(LP, "latin1");
  expect(zpl.match(/\^XA/g)).toHaveLength(2); // Jacket and Trousers
  expect(zpl).toContain(`T#${ticketId}`);
  const t = (await (await page.request.get(`/api/v1/tickets/${ticketId}`, { headers: auth })).json()).data;
  expect(t.confirmed_at).not.toBeNull();
  expect(t.ticket_sub_categories[0].state).toBe("MARKED");

  // The receipt from the ticket view: the tablet remembers the printer; ESC/POS prints the receipt.
  await page.goto(`/tickets/${ticketId}`);
  await page.getByRole("button", { name: "Print", exact: true }).click();
  await expect(dialog.getByRole("radio", { name: /OS-214plus/ })).toBeChecked();
  await dialog.getByLabel("Encoding").selectOption("ESCPOS");
  await dialog.getByLabel("Paper").selectOption("58mm");
  await dialog.getByRole("button", { name: "Print receipt" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Printed 1 of 1");
  const bytes = readFileSync(LP, "latin1");
  expect(bytes).toContain(`Ticket #${ticketId}`);
  expect(bytes).toContain("\x1dV"); // the receipt is cut
});

test("a printer that fails shows the printer's reason and reprints from there once it is back", async ({ page }) => {
  plugLabelPrinter();
  const app = new AppPage(page);
  await app.loginAs("9999");
  const { dialog } = await printDialogWithSuit(page);
  await dialog.getByRole("button", { name: "Search" }).click();
  await expect(dialog.getByRole("radio", { name: /OS-214plus/ })).toBeChecked();
  // The printer stops answering after the search: a FIFO nobody reads stands in for it.
  rmSync(LP);
  execFileSync("mkfifo", [LP]);
  await dialog.getByRole("button", { name: "Print labels" }).click();
  await expect(dialog.getByRole("status")).toContainText("Printer returned error during print: The printer is not connected");
  rmSync(LP);
  writeFileSync(LP, ""); // working again
  await dialog.getByRole("button", { name: "Reprint from here" }).click();
  await expect(page).toHaveURL(/\/customers\/\d+$/);
  expect(readFileSync(LP, "latin1").match(/\^XA/g)).toHaveLength(2);
});

test("PDF: Download names the file ticket{id} DD-MM-YYYY.pdf; Preview opens it inline", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const { ticketId, dialog } = await printDialogWithSuit(page);
  await dialog.getByRole("tab", { name: "PDF" }).click();
  const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download" }).click()]);
  expect(download.suggestedFilename()).toBe(`ticket${ticketId} ${maltaDay()}.pdf`);
  // The preview opens without an opener (noopener): watch the context for the new tab.
  const [popup] = await Promise.all([page.context().waitForEvent("page"), dialog.getByRole("button", { name: "Preview" }).click()]);
  await expect.poll(() => popup.url()).toContain(`/tickets/pdf/${ticketId}`);
  const res = await popup.request.get(popup.url());
  expect(res.headers()["content-type"]).toBe("application/pdf");
  expect(res.headers()["content-disposition"]).toMatch(/^inline/);
});

test("BLE from the tablet: pair, print the receipt in chunks of at most 100 bytes, and the journal records it done", async ({ page }) => {
  // A BLE printer behind Web Bluetooth's interface: it records every chunk written to it.
  await page.addInitScript(() => {
    const w = window as unknown as { __ble: number[][] };
    w.__ble = [];
    const characteristic = {
      properties: { write: true, writeWithoutResponse: true },
      writeValueWithoutResponse: async (d: Uint8Array) => void w.__ble.push(Array.from(d)),
      writeValue: async (d: Uint8Array) => void w.__ble.push(Array.from(d)),
    };
    const gatt = {
      connected: false,
      async connect() {
        gatt.connected = true;
        return gatt;
      },
      getPrimaryServices: async () => [{ getCharacteristics: async () => [characteristic] }],
    };
    Object.defineProperty(navigator, "bluetooth", { configurable: true, value: { requestDevice: async () => ({ id: "ble-1", name: "MPT-II", gatt }) } });
  });
  const app = new AppPage(page);
  await app.loginAs("9999");
  const { customer, auth, ticketId, dialog } = await printDialogWithSuit(page);
  await dialog.getByRole("tab", { name: "BLE" }).click();
  await dialog.getByRole("button", { name: "Pair a printer" }).click();
  await expect(dialog.getByRole("radio", { name: "MPT-II" })).toBeChecked();
  await expect(dialog.getByLabel("Encoding")).toHaveValue("ESCPOS");
  await dialog.getByRole("button", { name: "Print receipt" }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}$`));
  const chunks = await page.evaluate(() => (window as unknown as { __ble: number[][] }).__ble);
  expect(chunks.length).toBeGreaterThan(1);
  expect(chunks.every((c) => c.length <= 100)).toBe(true);
  const receipt = Buffer.from(chunks.flat()).toString("latin1");
  expect(receipt).toContain(`Ticket #${ticketId}`);
  const jobs = (await (await page.request.get(`/api/v1/printJobs/?ticket_id=${ticketId}`, { headers: auth })).json()).data;
  expect(jobs.map((j: { printer: string; status: string; kind: string }) => [j.printer, j.kind, j.status])).toEqual([["ble:MPT-II", "receipt", "done"]]);
});

test("Configuration → Printers: an attached printer is added, shows online and prints a test label; a network printer is added and removed", async ({
  page,
}) => {
  plugLabelPrinter();
  const app = new AppPage(page);
  await app.loginAs("9999");
  const auth = { authorization: `token ${await token(page)}` };
  await page.request.put("/api/v1/printers/", { headers: auth, data: [] });
  await page.goto("/configuration");
  await page.getByRole("link", { name: "Printers" }).click();
  await expect(page).toHaveURL(/\/configPrinters$/);
  const attached = page.getByRole("list", { name: "Attached printers" });
  await expect(attached).toContainText("Argox · OS-214plus series PPLZ · S/N AX123");
  await expect(attached).toContainText("label printer");
  await attached.getByRole("button", { name: "Add" }).click();
  await expect(app.toast("Settings saved.")).toBeVisible();
  const printers = page.getByRole("list", { name: "Printers" });
  await expect(printers.getByRole("listitem")).toHaveCount(1);
  await expect(printers).toContainText("online");
  await expect(page.getByText("Nothing attached that is not set up already")).toBeVisible();
  await printers.getByRole("button", { name: "Test print" }).click();
  await expect(app.toast("Test page sent")).toBeVisible();
  await expect.poll(() => readFileSync(LP, "latin1")).toContain("Test label");
  await expect(page.getByRole("list", { name: "Print jobs" }).getByRole("listitem").first()).toContainText(/test.*done/);

  await page.getByLabel("Network printer name").fill("Till");
  await page.getByLabel("Network printer address").fill("192.168.1.50");
  await page.getByRole("button", { name: "Add network printer" }).click();
  await expect(printers.getByRole("listitem")).toHaveCount(2);
  const till = printers.getByRole("listitem").filter({ hasText: "Till" });
  await expect(till).toContainText("192.168.1.50:9100");
  await expect(till).toContainText("unknown");
  await shot(page, "printers");
  await till.getByRole("button", { name: "Remove" }).click();
  await expect(printers.getByRole("listitem")).toHaveCount(1);
  const saved = (await (await page.request.get("/api/v1/printers/", { headers: auth })).json()).data;
  expect(saved.map((p: { language: string; target: { kind: string } }) => [p.language, p.target.kind])).toEqual([["PPLZ", "usblp"]]);
});

test("tracking: the checked items' labels go to the printer this tablet chose", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const auth = { authorization: `token ${await token(page)}` };
  const j = async (r: Promise<{ json(): Promise<{ data: any }> }>) => (await (await r).json()).data;
  // A plain file stands in for a second USB printer, under the box's test device root.
  const lp = `${DATA}/dev/usb/lp7`;
  mkdirSync(`${DATA}/dev/usb`, { recursive: true });
  writeFileSync(lp, "");
  await page.request.put("/api/v1/printers/", {
    headers: auth,
    data: [{ id: "track-labels", name: "Back room labels", language: "PPLA", target: { kind: "usblp", path: lp } }],
  });
  const garments = await j(page.request.get("/api/v1/garmentSubCategories/", { headers: auth }));
  const customer = await j(page.request.post("/api/v1/customers/", { headers: auth, data: { full_name: "Tracking Print" } }));
  const t = await j(page.request.post("/api/v1/tickets/", { headers: auth, data: { customer_id: customer.id } }));
  const [suit] = await j(
    page.request.post("/api/v1/ticketSubCategory/", {
      headers: auth,
      data: { ticket_id: t.id, garment_sub_category_id: garments.find((g: { name: string }) => g.name === "Suit 2pc").id },
    }),
  );
  await j(
    page.request.post("/api/v1/ticketSubCategory/", {
      headers: auth,
      data: { ticket_id: t.id, garment_sub_category_id: garments.find((g: { name: string }) => g.name === "Shirt").id },
    }),
  );
  await page.evaluate(() =>
    localStorage.setItem(
      "ironbox.printerChoice",
      JSON.stringify({ port: "u", printer: "track-labels", encoding: "PPLA", paper: "80mm", variant: "smaller", mini: false }),
    ),
  );
  await page.goto("/tracking");
  const box = page.getByLabel("Scan or type a code");
  await box.fill(`!T!T:${t.id}`);
  await box.press("Enter");
  await expect(page.getByTestId("track-row")).toHaveCount(2);
  await page.getByLabel(`Print label of item ${suit.id}`).check();
  await page.getByRole("button", { name: "Print checked (1)" }).click();
  await expect(app.toast("Printed 1 item")).toBeVisible();
  const ppla = readFileSync(lp, "latin1");
  expect(ppla.match(/\x02L/g)).toHaveLength(2); // Jacket and Trousers, in PPLA
  expect(ppla).toContain(`T#${t.id}  I#${suit.id}`);
});

test("RAWBT: the receipt goes to the RawBT app as an intent carrying its ESC/POS bytes; Close returns to the customer", async ({ page }) => {
  const app = new AppPage(page);
  await app.loginAs("9999");
  const { customer, auth, ticketId, dialog } = await printDialogWithSuit(page);
  await dialog.getByRole("tab", { name: "RAWBT" }).click();
  await dialog.getByLabel("Encoding").selectOption("ESCPOS");
  const handedOver = page.waitForRequest((r) => r.url().startsWith("intent:"));
  await dialog.getByRole("button", { name: "Print receipt" }).click();
  const link = dialog.getByRole("link", { name: "Send to RawBT" });
  const href = (await link.getAttribute("href"))!;
  // The tablet opened the intent by itself, not only offered the link (a request carries no fragment).
  expect((await handedOver).url()).toBe(href.slice(0, href.indexOf("#")));
  expect(href).toMatch(/^intent:base64,[A-Za-z0-9+/=]+#Intent;scheme=rawbt;package=ru\.a402d\.rawbtprinter;end;$/);
  const bytes = Buffer.from(href.slice("intent:base64,".length, href.indexOf("#Intent")), "base64").toString("latin1");
  expect(bytes).toContain(`Ticket #${ticketId}`);
  const jobs = (await (await page.request.get(`/api/v1/printJobs/?ticket_id=${ticketId}`, { headers: auth })).json()).data;
  expect(jobs.map((j: { printer: string; status: string }) => [j.printer, j.status])).toEqual([["rbt:RawBT", "done"]]);
  // Close once the tablet has finished the print (its button enabled again and the count drawn),
  // as a person would; the job list above is the box's word, not the screen's.
  await expect(dialog.getByRole("button", { name: "Print receipt" })).toBeEnabled();
  await expect(dialog.getByRole("status")).toHaveText("Printed 1 of 1");
  // Android hands the intent to RawBT. Desktop Chromium has no app for it and answers with its
  // tab-modal "Open xdg-open?" prompt some 100 ms later, which takes every tap on the page from
  // then on: a mouse click on Close was lost whenever it came after the prompt (two suites side
  // by side, issue 33; see docs/decisions/printer-dialog.md). So the Close tap goes in as the
  // DOM click event the button's handler receives.
  await dialog.getByRole("button", { name: "Close" }).dispatchEvent("click");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}$`));
});

test("Configuration → Printers: stored printer settings that no longer validate show 'settings invalid' with what is wrong; adding a printer replaces them", async ({
  page,
}) => {
  plugLabelPrinter();
  await storeSetting("printers", JSON.stringify([{ id: "till", name: "Till", language: "ZPL2", target: { kind: "tcp", host: "192.168.1.50", port: 9100 } }]));
  const app = new AppPage(page);
  await app.openAs("/configPrinters", "9999");
  const banner = page.getByRole("alert").filter({ hasText: "settings invalid" });
  await expect(banner).toContainText("Stored printer settings invalid: #1 language:");
  await expect(page.getByText("No printer is set up.")).toBeVisible();
  await page.getByRole("list", { name: "Attached printers" }).getByRole("button", { name: "Add" }).click();
  await expect(app.toast("Settings saved.")).toBeVisible();
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("list", { name: "Printers" }).getByRole("listitem")).toHaveCount(1);
  await expect(page.getByText("settings invalid")).toHaveCount(0);
});
