import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { escPosText } from "../../../drivers/printers/escpos";
import { parseScan } from "../../domain/scancodes";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { until } from "../../test/poll";

/** Real byte streams: a file stands in for /dev/usb/lp0 (under the test device root), a loopback socket for a TCP 9100 printer. */
let box: TestBox;
let admin: string;
let sink: Server;
let received = Buffer.alloc(0);
let ticket: { id: number; ticket_sub_categories: { id: number; pieces: string }[] };
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await box.call(method, `/api/v1${path}`, { token: admin, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
  sink = createServer((s) => s.on("data", (d: Buffer) => (received = Buffer.concat([received, d]))));
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  mkdirSync(join(box.dir, "dev/usb"), { recursive: true });
  writeFileSync(join(box.dir, "dev/usb/lp0"), "");
  await ok("PUT", "/printers/", [
    { id: "labels", name: "Label printer", language: "PPLZ", target: { kind: "usblp", path: join(box.dir, "dev/usb/lp0") } },
    {
      id: "till",
      name: "Till",
      language: "ESCPOS",
      paper: "80mm",
      target: { kind: "tcp", host: "127.0.0.1", port: (sink.address() as { port: number }).port },
    },
    { id: "gone", name: "Unplugged", language: "PPLZ", target: { kind: "usblp", path: join(box.dir, "dev/usb/lp1") } },
  ]);
  const garments = await ok("GET", "/garmentSubCategories/");
  const c = await ok("POST", "/customers/", { full_name: "Print Customer" });
  const t = await ok("POST", "/tickets/", { customer_id: c.id });
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garments.find((g: { name: string }) => g.name === "Suit 2pc").id });
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garments.find((g: { name: string }) => g.name === "Shirt").id });
  ticket = await ok("GET", `/tickets/${t.id}`);
});
afterAll(() => {
  sink.close();
  box.close();
});

test("labels: one per piece reaches the printer; the items become MARKED with tomorrow's process date", async () => {
  const r = await ok("POST", "/print/labels", { ticket_id: ticket.id, printer: "labels" });
  expect(r.jobs).toHaveLength(3); // Jacket, Trousers, Shirt
  await box.journal.idle();
  const zpl = readFileSync(join(box.dir, "dev/usb/lp0"), "utf8");
  expect(zpl.match(/\^XA/g)).toHaveLength(3);
  expect(zpl).toContain(`T#${ticket.id}`);
  const items = (await ok("GET", `/tickets/${ticket.id}`)).ticket_sub_categories;
  expect(items.map((i: { state: string; process_date: string }) => [i.state, i.process_date])).toEqual([
    ["MARKED", "2026-11-23T00:00:00.000Z"],
    ["MARKED", "2026-11-23T00:00:00.000Z"],
  ]);
  const journal = await ok("GET", `/printJobs/?ticket_id=${ticket.id}`);
  expect(journal.every((j: { status: string }) => j.status === "done")).toBe(true);
});

test("a receipt confirms the ticket and its ESC/POS bytes reach the network printer", async () => {
  const r = await ok("POST", "/print/receipt", { ticket_id: ticket.id, printer: "till" });
  await box.journal.idle();
  // The job is done when the printer's socket took the bytes; they reach the sink a moment later.
  const text = await until(
    () => {
      const t = escPosText(new Uint8Array(received));
      return t.qr ? t : null;
    },
    { what: "the receipt reaching the network printer" },
  );
  expect(text.lines).toContain(`Ticket #${ticket.id}`);
  expect(parseScan(text.qr!)).toEqual({ type: "ticket", TicketID: ticket.id });
  expect((await ok("GET", `/tickets/${ticket.id}`)).confirmed_at).not.toBeNull();
  expect(r.jobs).toHaveLength(1);
});

test("an unplugged printer fails the job with the reason, keeps the rest for 'reprint from here', and recovers", async () => {
  const r = await ok("POST", "/print/labels", { ticket_id: ticket.id, printer: "gone" });
  await box.journal.idle();
  const jobs = (await ok("GET", `/printJobs/?ticket_id=${ticket.id}`)).filter((j: { printer: string }) => j.printer === "gone");
  expect(jobs.map((j: { status: string }) => j.status)).toEqual(["failed", "failed", "failed"]);
  expect(jobs.at(-1).error).toContain("not connected");
  writeFileSync(join(box.dir, "dev/usb/lp1"), ""); // plugged back in
  expect((await ok("POST", `/printJobs/${r.jobs[0]}/retry`)).requeued).toBe(3);
  await box.journal.idle();
  expect(existsSync(join(box.dir, "dev/usb/lp1"))).toBe(true);
  expect(readFileSync(join(box.dir, "dev/usb/lp1"), "utf8").match(/\^XA/g)).toHaveLength(3);
  expect((await box.call("POST", "/api/v1/print/labels", { token: admin, body: { ticket_id: ticket.id, printer: "till" } })).status).toBe(422);
  expect((await box.call("POST", "/api/v1/print/labels", { token: admin, body: { ticket_id: ticket.id, printer: "nope" } })).status).toBe(422);
});

test("printing labels is one transaction: a failure while marking the items leaves no job, no mark, no confirmation and sends nothing", async () => {
  const garments = await ok("GET", "/garmentSubCategories/");
  const c = await ok("POST", "/customers/", { full_name: "Rollback Customer" });
  const t = await ok("POST", "/tickets/", { customer_id: c.id });
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garments.find((g: { name: string }) => g.name === "Suit 2pc").id });
  await box.journal.idle();
  const lp0 = join(box.dir, "dev/usb/lp0");
  const before = readFileSync(lp0, "utf8");
  // The marking step fails after the jobs are journaled and the ticket confirmed in the same transaction.
  await box.database.db.run(
    sql.raw(
      "CREATE TRIGGER fail_mark BEFORE UPDATE OF state ON ticket_sub_categories WHEN NEW.state = 'MARKED' BEGIN SELECT RAISE(ABORT, 'injected failure while marking'); END",
    ),
  );
  try {
    for (const body of [{ printer: "labels" }, { port: "ble", device: "Tablet printer" }]) {
      const r = await box.call("POST", "/api/v1/print/labels", { token: admin, body: { ticket_id: t.id, ...body } });
      expect(r.status).toBe(500);
    }
  } finally {
    await box.database.db.run(sql.raw("DROP TRIGGER fail_mark"));
  }
  await box.journal.idle();
  expect(await ok("GET", `/printJobs/?ticket_id=${t.id}`)).toEqual([]);
  const after = await ok("GET", `/tickets/${t.id}`);
  expect(after).toMatchObject({ state: "CREATED", confirmed_at: null });
  expect(after.ticket_sub_categories.map((i: { state: string; process_date: string | null }) => [i.state, i.process_date])).toEqual([["CREATED", null]]);
  expect(after.ticket_log_states.map((l: { log: string }) => l.log)).toEqual(["Ticket created"]);
  expect(readFileSync(lp0, "utf8")).toBe(before);

  // Without the failure the same request journals, confirms, marks and prints.
  expect((await ok("POST", "/print/labels", { ticket_id: t.id, printer: "labels" })).jobs).toHaveLength(2);
  await box.journal.idle();
  expect((await ok("GET", `/tickets/${t.id}`)).ticket_sub_categories[0].state).toBe("MARKED");
  expect(readFileSync(lp0, "utf8").length).toBeGreaterThan(before.length);
});
