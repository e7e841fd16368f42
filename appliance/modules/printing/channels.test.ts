import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { escPosText } from "../../../drivers/printers/escpos";
import { parseScan } from "../../domain/scancodes";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/** The tablet's own channels (BLE, RawBT), port and encoding checks, device rows, and restart recovery. */
let box: TestBox;
let admin: string;
let ticketId: number;
const ok = async (method: string, path: string, body?: unknown, token = admin) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const fresh = async () => {
  const garments = await ok("GET", "/garmentSubCategories/");
  const c = await ok("POST", "/customers/", { full_name: "Channel Customer" });
  const t = await ok("POST", "/tickets/", { customer_id: c.id });
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garments.find((g: { name: string }) => g.name === "Suit 2pc").id });
  return t.id as number;
};

beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
  mkdirSync(join(box.dir, "dev/usb"), { recursive: true });
  writeFileSync(join(box.dir, "dev/usb/lp3"), "");
  await ok("PUT", "/printers/", [
    { id: "labels", name: "Label printer", language: "PPLZ", target: { kind: "usblp", path: join(box.dir, "dev/usb/lp3") } },
    { id: "gone", name: "Unplugged", language: "ESCPOS", target: { kind: "usblp", path: join(box.dir, "dev/usb/lp9") } },
    { id: "lan", name: "Till", language: "ESCPOS", target: { kind: "tcp", host: "127.0.0.1", port: 9 } },
  ]);
  ticketId = await fresh();
});
afterAll(() => box.close());

test("nothing changes when a print is refused: 'Select Port', a receipt in PPLZ, labels in ESC/POS, an empty ticket", async () => {
  const refuse = async (path: string, body: object) => {
    const r = await box.call("POST", `/api/v1/print/${path}`, { token: admin, body: { ticket_id: ticketId, ...body } });
    expect(r.status).toBe(422);
    return r.json.message as string;
  };
  expect(await refuse("labels", { port: "u" })).toBe("Select Port");
  expect(await refuse("receipt", { port: "b" })).toBe("Select Port");
  expect(await refuse("receipt", { printer: "labels" })).toContain("receipts print in ESC/POS");
  expect(await refuse("labels", { port: "ble", encoding: "ESCPOS" })).toContain("labels print in PPLZ or PPLA");
  const t = await ok("GET", `/tickets/${ticketId}`);
  expect(t.confirmed_at).toBeNull();
  expect(t.ticket_sub_categories[0].state).not.toBe("MARKED");
  expect(await ok("GET", `/printJobs/?ticket_id=${ticketId}`)).toEqual([]);
  const empty = await ok("POST", "/tickets/", { customer_id: t.customer_id });
  expect(await refuse("labels", { ticket_id: empty.id, printer: "labels" })).toBe("Ticket is empty");
});

test("BLE: the box journals the jobs and hands the bytes to the tablet, which reports each one", async () => {
  const r = await ok("POST", "/print/labels", { ticket_id: ticketId, port: "ble", device: "MPT-II", encoding: "PPLA" });
  expect(r.jobs).toHaveLength(2); // Jacket, Trousers
  const first = Buffer.from(r.payloads[0].data, "base64").toString("latin1");
  expect(first.startsWith("\x02L")).toBe(true); // a PPLA job
  let jobs = await ok("GET", `/printJobs/?ticket_id=${ticketId}`);
  expect(jobs.map((j: { printer: string; status: string }) => [j.printer, j.status])).toEqual([
    ["ble:MPT-II", "sending"],
    ["ble:MPT-II", "sending"],
  ]);
  // Printing confirms the ticket and marks its items (spec §2, §4), whichever the channel.
  const t = await ok("GET", `/tickets/${ticketId}`);
  expect(t.confirmed_at).not.toBeNull();
  expect(t.ticket_sub_categories[0].state).toBe("MARKED");
  await box.journal.idle(); // the tablet's jobs do not hold the box's queue

  await ok("POST", `/printJobs/${r.jobs[0]}/result`, { ok: true });
  await ok("POST", `/printJobs/${r.jobs[1]}/result`, { ok: false, error: "Printer returned error(1) during print, cancelling" });
  jobs = await ok("GET", `/printJobs/?ticket_id=${ticketId}`);
  expect(jobs.map((j: { status: string; error: string | null }) => [j.status, j.error])).toEqual([
    ["failed", "Printer returned error(1) during print, cancelling"],
    ["done", null],
  ]);
  expect((await box.call("POST", `/api/v1/printJobs/${r.jobs[0]}/result`, { token: admin, body: { ok: true } })).status).toBe(422);
  // Reprint from here: the tablet fetches the job's bytes again and reports it.
  expect((await ok("POST", `/printJobs/${r.jobs[1]}/retry`)).jobs).toEqual([r.jobs[1]]);
  expect((await ok("GET", `/printJobs/${r.jobs[1]}/payload`)).data).toBe(r.payloads[1].data);
  await ok("POST", `/printJobs/${r.jobs[1]}/result`, { ok: true });
  expect((await ok("GET", `/printJobs/?ticket_id=${ticketId}`))[0].status).toBe("done");
});

test("RawBT: a 58 mm receipt in ESC/POS comes back to the tablet; another shop cannot read or report the job", async () => {
  const r = await ok("POST", "/print/receipt", { ticket_id: ticketId, port: "rbt", paper: "58mm" });
  const receipt = escPosText(new Uint8Array(Buffer.from(r.payloads[0].data, "base64")));
  expect(receipt.lines.every((l) => [...l].length <= 19)).toBe(true);
  expect(parseScan(receipt.qr!)).toEqual({ type: "ticket", TicketID: ticketId });
  const agent = await box.agentToken("birkirkara", "shop-demo-2026");
  const other = await box.employeeToken("5555", agent);
  expect((await box.call("GET", `/api/v1/printJobs/${r.jobs[0]}/payload`, { token: other })).status).toBe(404);
  expect((await box.call("POST", `/api/v1/printJobs/${r.jobs[0]}/result`, { token: other, body: { ok: true } })).status).toBe(404);
  expect((await box.call("POST", `/api/v1/printJobs/${r.jobs[0]}/retry`, { token: other })).status).toBe(404);
  expect((await ok("GET", "/printJobs/", undefined, other)).map((j: { id: number }) => j.id)).not.toContain(r.jobs[0]);
  expect((await ok("GET", "/printJobs/")).map((j: { id: number }) => j.id)).toContain(r.jobs[0]); // HQ sees every shop's
});

test("a tablet that never reports: its jobs end as failed when it next prints to that printer, ten minutes on", async () => {
  const id = await fresh();
  const first = await ok("POST", "/print/receipt", { ticket_id: id, port: "ble", device: "Lost" });
  box.clock.advance(11 * 60_000);
  // Eleven idle minutes end the employee session on the box too (spec §6): a new PIN.
  admin = await box.employeeToken(ADMIN.pin);
  await ok("POST", "/print/receipt", { ticket_id: id, port: "ble", device: "Lost" });
  const jobs = await ok("GET", `/printJobs/?ticket_id=${id}`);
  expect(jobs.map((j: { id: number; status: string; error: string | null }) => [j.id === first.jobs[0], j.status, j.error])).toEqual([
    [false, "sending", null],
    [true, "failed", "The tablet did not report back on this job"],
  ]);
  box.clock.advance(-11 * 60_000);
});

test("device rows: saved printers with honest state (online, offline, unknown for the network)", async () => {
  const rows = await ok("GET", "/printers/devices");
  expect(rows.map((d: { id: string; state: string; port: string; saved: boolean }) => [d.id, d.state, d.port, d.saved])).toEqual([
    ["labels", "offline", "u", true], // a plain file is not an attached USB device
    ["gone", "offline", "u", true],
    ["lan", "unknown", "u", true],
  ]);
});

test("after a restart a job cut off mid-send is failed with the reason, ready to reprint", async () => {
  const id = await fresh();
  const r = await ok("POST", "/print/receipt", { ticket_id: id, printer: "labels", encoding: "ESCPOS" });
  await box.journal.idle();
  // Stand in for a crash during the send: the row says "sending" when the box starts again.
  await box.database.client.execute({ sql: "UPDATE print_jobs SET status = 'sending' WHERE id = ?", args: [r.jobs[0]] });
  await box.journal.recover();
  const [job] = await ok("GET", `/printJobs/?ticket_id=${id}`);
  expect([job.status, job.error]).toEqual(["failed", "Interrupted: the box restarted during the job"]);
});

test("a printer attached to the box prints before anyone saves it; its settings come from the device and its model", async () => {
  // A stand-in sysfs with one usblp printer (harness: discovery looks in <dir>/sys and <dir>/dev).
  const usb = join(box.dir, "sys/devices/pci0000:00/usb1/1-1");
  mkdirSync(join(usb, "1-1:1.0/usbmisc/lp0"), { recursive: true });
  for (const [f, v] of Object.entries({ idVendor: "1664", idProduct: "0d10", manufacturer: "Argox", product: "OS-214plus series", serial: "AX9" }))
    writeFileSync(join(usb, f), `${v}\n`);
  symlinkSync("../../../1-1:1.0", join(usb, "1-1:1.0/usbmisc/lp0/device"));
  mkdirSync(join(box.dir, "sys/class/usbmisc"), { recursive: true });
  symlinkSync(join(usb, "1-1:1.0/usbmisc/lp0"), join(box.dir, "sys/class/usbmisc/lp0"));
  writeFileSync(join(box.dir, "dev/usb/lp0"), "");

  const rows = await ok("GET", "/printers/devices");
  const found = rows.find((d: { saved: boolean }) => !d.saved);
  expect(found).toMatchObject({
    id: "usb-1664-0d10-ax9",
    name: "OS-214plus series",
    manufacturerName: "Argox",
    serialNumber: "AX9",
    class: "label",
    encoding: "PPLZ",
    state: "online",
  });
  expect(found.setup).toMatchObject({ language: "PPLZ", model: "argox-os-214plus", target: { kind: "usblp", path: join(box.dir, "dev/usb/lp0") } });
  const id = await fresh();
  await ok("POST", "/print/labels", { ticket_id: id, port: "u", printer: found.id });
  await box.journal.idle();
  expect(readFileSync(join(box.dir, "dev/usb/lp0"), "utf8").match(/\^XA/g)).toHaveLength(2);
  // Saving it under a name keeps it one printer, now saved and online.
  await ok("PUT", "/printers/", [{ ...found.setup, name: "Back room" }]);
  const after = await ok("GET", "/printers/devices");
  expect(after.map((d: { name: string; saved: boolean; state: string }) => [d.name, d.saved, d.state])).toEqual([["Back room", true, "online"]]);
  expect((await box.call("PUT", "/api/v1/printers/", { token: admin, body: [{ ...found.setup, model: "no-such-model" }] })).status).toBe(422);
});
