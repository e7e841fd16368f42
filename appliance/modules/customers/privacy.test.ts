import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type TestBox, testBox } from "../../test/harness";

// A customer's own data (issue 35): the GDPR export and erasure on the demo data, real libSQL.

const API = "/api/v1";
let box: TestBox;
const t: Record<string, string> = {};
let customer: { id: number; full_name: string; mobile: string };
const rows = async (sql: string, args: (number | string | null)[] = []) =>
  (await box.database.client.execute({ sql, args })).rows as unknown as Record<string, any>[];
const money = async (id: number) =>
  rows(
    "SELECT t.id, t.total, t.total_paid, (SELECT coalesce(sum(amount), 0) FROM payments p WHERE p.ticket_id = t.id) AS paid, (SELECT count(*) FROM payments p WHERE p.ticket_id = t.id) AS n FROM tickets t WHERE t.customer_id = ? ORDER BY t.id",
    [id],
  );

beforeAll(async () => {
  box = await testBox({ demo: true });
  const shop = await box.agentToken("birkirkara", "shop-demo-2026");
  const mosta = await box.agentToken("mosta", "shop-demo-2026");
  t.bkAdmin = await box.employeeToken("5555", shop);
  t.bkEmployee = await box.employeeToken("6666", shop);
  t.mostaManager = await box.employeeToken("7777", mosta);
  t.hqAdmin = await box.employeeToken("1111");
  // A Birkirkara customer with paid tickets, a distinctive name and number, and a message both ways.
  const [c] = await rows(
    `SELECT c.id FROM customers c JOIN agents a ON a.id = c.agent_id WHERE a.user_name = 'birkirkara' AND c.address_id IS NOT NULL
       AND EXISTS (SELECT 1 FROM payments p JOIN tickets t ON t.id = p.ticket_id WHERE t.customer_id = c.id) ORDER BY c.id LIMIT 1`,
  );
  customer = { id: Number(c!.id), full_name: "Zaccheus Quintrellovich", mobile: "79555123" };
  await rows("UPDATE customers SET full_name = ?, mobile = ?, email_address = 'zq@example.com' WHERE id = ?", [
    customer.full_name,
    customer.mobile,
    customer.id,
  ]);
  await rows(
    "INSERT INTO outgoing_messages (key, agent_id, customer_id, channel, recipient, text, status, updated_at) SELECT 'k-priv', agent_id, id, 'sms', mobile, 'Dear Zaccheus, your suit is ready', 'sent', '2026-11-20T10:00:00Z' FROM customers WHERE id = ?",
    [customer.id],
  );
  await rows(
    "INSERT INTO inbound_messages (source, source_id, agent_id, customer_id, phone, text, received_at, action) SELECT 'gateway', 'gateway:priv-1', agent_id, id, mobile, 'Zaccheus here, thanks', '2026-11-20T11:00:00Z', 'inbox' FROM customers WHERE id = ?",
    [customer.id],
  );
}, 60_000);
afterAll(() => box?.close());

describe("GET /customers/{id}/export", () => {
  test("an admin of the customer's shop gets everything: record, addresses, tickets with items and payments, messages both ways, audit", async () => {
    const r = await box.call("GET", `${API}/customers/${customer.id}/export`, { token: t.bkAdmin });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toContain(`customer-${customer.id}.json`);
    const data = r.json;
    expect(data.customer).toMatchObject({ id: customer.id, full_name: customer.full_name, mobile: customer.mobile, email_address: "zq@example.com" });
    expect(data.addresses.length).toBeGreaterThan(0);
    const tickets = await money(customer.id);
    expect(data.tickets.map((x: { id: number }) => x.id)).toEqual(tickets.map((x) => Number(x.id)));
    expect(data.tickets.some((x: { items: unknown[] }) => x.items.length > 0)).toBe(true);
    const paid = data.tickets.flatMap((x: { payments: { amount: number }[] }) => x.payments).reduce((s: number, p: { amount: number }) => s + p.amount, 0);
    expect(paid).toBe(tickets.reduce((s, x) => s + Number(x.paid), 0));
    expect(data.messages.sent.map((m: { text: string }) => m.text)).toContain("Dear Zaccheus, your suit is ready");
    expect(data.messages.sent[0].key).toBeUndefined();
    expect(data.messages.received.map((m: { text: string }) => m.text)).toContain("Zaccheus here, thanks");
    expect(Array.isArray(data.messages.reminders)).toBe(true);
    expect(Array.isArray(data.audit)).toBe(true);
    const audited = await rows("SELECT action FROM audit_log WHERE entity = 'customer' AND entity_id = ? AND action = 'export'", [customer.id]);
    expect(audited.length).toBe(1);
  });

  test("an employee is refused; another shop's admin finds no such customer; HQ may", async () => {
    expect((await box.call("GET", `${API}/customers/${customer.id}/export`, { token: t.bkEmployee })).status).toBe(403);
    expect((await box.call("GET", `${API}/customers/${customer.id}/export`, { token: t.mostaManager })).status).toBe(403);
    const other = await rows("SELECT c.id FROM customers c JOIN agents a ON a.id = c.agent_id WHERE a.user_name = 'mosta' LIMIT 1");
    expect((await box.call("GET", `${API}/customers/${other[0]!.id}/export`, { token: t.bkAdmin })).status).toBe(404);
    expect((await box.call("GET", `${API}/customers/${customer.id}/export`, { token: t.hqAdmin })).status).toBe(200);
    expect((await box.call("GET", `${API}/customers/99999999/export`, { token: t.bkAdmin })).status).toBe(404);
  });
});

describe("POST /customers/{id}/forget", () => {
  test("refused to an employee and to another shop", async () => {
    expect((await box.call("POST", `${API}/customers/${customer.id}/forget`, { token: t.bkEmployee })).status).toBe(403);
    const other = await rows("SELECT c.id FROM customers c JOIN agents a ON a.id = c.agent_id WHERE a.user_name = 'mosta' LIMIT 1");
    expect((await box.call("POST", `${API}/customers/${other[0]!.id}/forget`, { token: t.bkAdmin })).status).toBe(404);
    expect((await rows("SELECT full_name FROM customers WHERE id = ?", [customer.id]))[0]!.full_name).toBe(customer.full_name);
  });

  test("name, contacts, address and message texts go; tickets and payments stay; search no longer finds the old name or number", async () => {
    const before = await money(customer.id);
    const [home] = await rows("SELECT a.id, a.name, a.number FROM customers c JOIN addresses a ON a.id = c.address_id WHERE c.id = ?", [customer.id]);
    const search = async (term: string) =>
      ((await box.call("GET", `${API}/customers/?term=${encodeURIComponent(term)}&limit=20`, { token: t.bkAdmin })).json.data as { id: number }[]).map(
        (x) => x.id,
      );
    expect(await search("Quintrellovich")).toContain(customer.id);
    expect(await search(customer.mobile)).toContain(customer.id);

    const r = await box.call("POST", `${API}/customers/${customer.id}/forget`, { token: t.bkAdmin });
    expect(r.status).toBe(200);
    const [c] = await rows("SELECT * FROM customers WHERE id = ?", [customer.id]);
    expect(c).toMatchObject({ full_name: "Erased customer", mobile: "", email_address: "", address_id: null, no_messages: 1 });
    expect(await search("Quintrellovich")).not.toContain(customer.id);
    expect(await search(customer.mobile)).not.toContain(customer.id);
    expect(await money(customer.id)).toEqual(before);
    const shared = await rows("SELECT count(*) AS n FROM customers WHERE address_id = ?", [home!.id]);
    if (Number(shared[0]!.n) === 0)
      expect((await rows("SELECT name, number FROM addresses WHERE id = ?", [home!.id]))[0]).toMatchObject({ name: "", number: "" });
    const texts = await rows("SELECT text, recipient FROM outgoing_messages WHERE customer_id = ?", [customer.id]);
    expect(texts.every((m) => m.text === "[removed]" && m.recipient === "")).toBe(true);
    const got = await rows("SELECT text, phone FROM inbound_messages WHERE customer_id = ?", [customer.id]);
    expect(got.every((m) => m.text === "[removed]" && m.phone === "")).toBe(true);
    const audit = await rows("SELECT action, detail FROM audit_log WHERE entity = 'customer' AND entity_id = ? AND action = 'forget'", [customer.id]);
    expect(audit.length).toBe(1);
    expect(String(audit[0]!.detail)).not.toContain("Quintrellovich");
  });
});
