import { afterAll, beforeAll, expect, test } from "bun:test";
import { escPosText } from "../../../drivers/printers/escpos";
import { twoColumns } from "../../../drivers/printers/receipt";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/**
 * Issue 24 on paper: the receipt (ESC/POS) and the ticket PDF list a ticket's payments with
 * their tender, cash with what was handed over and the change, and refunds with their reason;
 * the Z report prints on the box's receipt printer through the print journal.
 */
let box: TestBox;
let admin: string;
let manager: string;
let clerk: string;
let ticketId: number;
const ok = async (method: string, path: string, body: unknown, token: string) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
  const shop = await ok("POST", "/agents/", { name: "Qormi", user_name: "qormi-p" }, admin);
  await ok("PUT", `/agents/password/${shop.id}`, { password: "qormi-p-pass" }, admin);
  await ok("POST", "/employees/", { agent_id: shop.id, full_name: "Mona Manager", role: "manager", pin: 6101 }, admin);
  await ok("POST", "/employees/", { agent_id: shop.id, full_name: "Cora Clerk", role: "employee", pin: 6102 }, admin);
  const agent = await box.agentToken("qormi-p", "qormi-p-pass");
  manager = await box.employeeToken(6101, agent);
  clerk = await box.employeeToken(6102, agent);
  const garments = await ok("GET", "/garmentSubCategories/", undefined, clerk);
  const suit = garments.find((g: { name: string }) => g.name === "Suit 2pc");
  const c = await ok("POST", "/customers/", { full_name: "Rita Receipt", mobile: "79555111" }, clerk);
  const t = await ok("POST", "/tickets/", { customer_id: c.id }, clerk);
  ticketId = t.id;
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: suit.id }, clerk);
  await ok("PUT", `/tickets/${t.id}/confirm`, undefined, clerk);
  // €5 cash with a €10 note, the rest by card, then €2 of the cash back.
  await ok("PUT", `/tickets/paidFor/${t.id}?method=cash&amount=5&tendered=10`, undefined, clerk);
  await ok("PUT", `/tickets/paidFor/${t.id}?method=card`, undefined, clerk);
  const [cash] = await ok("GET", `/payments/?ticket=${t.id}`, undefined, clerk);
  await ok("POST", `/payments/${cash.id}/refund`, { amount: 2, reason: "Stain not removed" }, manager);
}, 60_000);
afterAll(() => box.close());

test("the receipt in ESC/POS, parsed back, lists each payment with its tender, tendered and change for cash, the refund with its reason", async () => {
  const t = await ok("GET", `/tickets/${ticketId}`, undefined, clerk);
  const card = `€${(t.total - 5).toFixed(2)}`;
  const r = await ok("POST", "/print/receipt", { ticket_id: ticketId, port: "rbt" }, clerk);
  const lines = escPosText(Buffer.from(r.payloads[0].data, "base64")).lines;
  const cash = lines.indexOf(twoColumns("Cash 22/11/2026 10:00", "€5.00", 33));
  expect(lines.slice(cash, cash + 3)).toEqual([twoColumns("Cash 22/11/2026 10:00", "€5.00", 33), "  Tendered €10.00", "  Change €5.00"]);
  expect(lines).toContain(twoColumns("Card 22/11/2026 10:00", card, 33));
  const refund = lines.indexOf(twoColumns("Refund cash", "-€2.00", 33));
  expect(lines.slice(refund, refund + 3)).toEqual([twoColumns("Refund cash", "-€2.00", 33), "  22/11/2026 10:00", "  Reason: Stain not removed"]);
  // Control: a ticket never paid prints no payments section.
  const c = await ok("POST", "/customers/", { full_name: "Una Unpaid" }, clerk);
  const u = await ok("POST", "/tickets/", { customer_id: c.id }, clerk);
  await ok("POST", "/ticketSubCategory/", { ticket_id: u.id, garment_sub_category_id: t.ticket_sub_categories[0].garment_sub_category_id }, clerk);
  const none = await ok("POST", "/print/receipt", { ticket_id: u.id, port: "rbt" }, clerk);
  expect(escPosText(Buffer.from(none.payloads[0].data, "base64")).lines).not.toContain("Payments");
});

test("the ticket PDF, read back with pdftotext, lists the same payments and the refund's reason", async () => {
  const res = await box.app.handle(new Request(`http://localhost/api/v1/tickets/pdf/${ticketId}`, { headers: { authorization: `token ${clerk}` } }));
  expect(res.status).toBe(200);
  await Bun.write(`${box.dir}/receipt.pdf`, await res.arrayBuffer());
  const text = Bun.spawnSync(["pdftotext", "-layout", `${box.dir}/receipt.pdf`, "-"]).stdout.toString();
  expect(text).toContain("Payments");
  expect(text).toMatch(/Cash 22\/11\/2026 10:00 · Tendered €10\.00 · Change €5\.00\s+€5\.00/);
  expect(text).toMatch(/Card 22\/11\/2026 10:00\s+€\d+\.\d\d/);
  expect(text).toMatch(/Refund cash 22\/11\/2026 10:00 · Reason: Stain not removed\s+-€2\.00/);
});

test("the Z report prints on the box's receipt printer through the journal; employees cannot; no receipt printer is a clear 422", async () => {
  const day = "2026-11-22";
  expect((await box.call("POST", "/api/v1/print/zReport", { token: manager, body: { date: day } })).json.message).toBe("No receipt printer is set up");
  // A receipt printer on the LAN (nothing listens: the job stays in the journal with its bytes).
  await ok(
    "PUT",
    "/printers/",
    [{ id: "counter-receipts", name: "Counter receipts", language: "ESCPOS", target: { kind: "tcp", host: "127.0.0.1", port: 9 } }],
    admin,
  );
  expect((await box.call("POST", "/api/v1/print/zReport", { token: clerk, body: { date: day } })).status).toBe(403);
  await ok("POST", `/till/${day}/close`, { counted: { cash: 4, card: 0, other: 0 }, note: "Card slips missing" }, manager);
  const till = await ok("GET", `/till/${day}`, undefined, manager);
  const r = await ok("POST", "/print/zReport", { date: day }, manager);
  expect(r.jobs).toHaveLength(1);
  // The queue tried it (bounded wait), so nothing is still sending when the box closes.
  let status = "queued";
  for (let i = 0; i < 200 && (status === "queued" || status === "sending"); i++) {
    status = (await ok("GET", "/printJobs/?limit=10", undefined, manager)).find((j: { id: number }) => j.id === r.jobs[0]).status;
    if (status === "queued" || status === "sending") await Bun.sleep(50);
  }
  expect(status).toBe("failed");
  const job = await ok("GET", `/printJobs/${r.jobs[0]}/payload`, undefined, manager);
  const lines = escPosText(Buffer.from(job.data, "base64")).lines;
  expect(lines.slice(0, 3)).toEqual(["Z REPORT", "Qormi", "Day 22/11/2026"]);
  const cash = lines.indexOf("Cash");
  expect(lines.slice(cash, cash + 4)).toEqual([
    "Cash",
    twoColumns("Expected", "€3.00", 33),
    twoColumns("Counted", "€4.00", 33),
    twoColumns("Variance", "€1.00", 33),
  ]);
  const card = lines.indexOf("Card");
  const variance = `-€${till.expected.card.toFixed(2)}`;
  expect(lines[card + 3]).toBe(twoColumns("Variance", variance, 33));
  expect(lines).toContain(twoColumns("Payments", "2", 33));
  expect(lines).toContain(twoColumns("Refunds", "1", 33));
  expect(lines).toContain(twoColumns("Cora Clerk (employee)", "€5.00", 33));
  expect(lines).toContain(twoColumns("Mona Manager (manager)", "-€2.00", 33));
  expect(lines).toContain("Card slips missing");
  const [audit] = (await box.database.client.execute("SELECT detail FROM audit_log WHERE action = 'print_z_report'")).rows;
  expect(JSON.parse(String(audit!.detail))).toMatchObject({ day, printer: "counter-receipts" });
});
