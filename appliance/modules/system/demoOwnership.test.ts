import { afterAll, beforeAll, expect, test } from "bun:test";
import { ticketsOffPrice } from "../../../scripts/faults/lib";
import { type TestBox, testBox } from "../../test/harness";
import { expectTotalsGuarded } from "../../test/totalsGuard";
import { checkPaymentSums } from "../money/check";

/**
 * Issue 22: the demo data keeps the API's invariants (it is made through the API's services).
 * Its addresses used to have no owner (so they counted as HQ's) and a Mosta manager opening a
 * Mosta customer saw no address. Every demo customer and ticket is opened here through the API
 * by its own shop's staff, and what each ticket shows as paid is its payment rows.
 */
let box: TestBox;
const tokens = new Map<number, string>();
/** A non-admin of each shop: what the counter sees. */
const STAFF: Record<string, [string, string, number]> = {
  hq: ["admin", "admin-pass-1", 2222],
  birkirkara: ["birkirkara", "shop-demo-2026", 6666],
  mosta: ["mosta", "shop-demo-2026", 7777],
};
const rows = async (sql: string) => (await box.database.client.execute(sql)).rows as unknown as Record<string, any>[];

beforeAll(async () => {
  box = await testBox({ demo: true });
  for (const a of await rows("SELECT id, user_name, is_hq FROM agents")) {
    const [user, password, pin] = STAFF[a.is_hq ? "hq" : a.user_name]!;
    tokens.set(Number(a.id), await box.employeeToken(pin, await box.agentToken(user, password)));
  }
});
afterAll(() => box?.close());

test("every demo address has an owning shop: its customer's, its agent's", async () => {
  expect((await rows("SELECT count(*) AS n FROM addresses WHERE agent_id IS NULL"))[0]!.n).toBe(0);
  const wrong = await rows(
    `SELECT c.id FROM customers c JOIN addresses a ON a.id = c.address_id WHERE a.agent_id != c.agent_id
     UNION ALL SELECT g.id FROM agents g JOIN addresses a ON a.id = g.address_id WHERE a.agent_id != g.id
     UNION ALL SELECT t.id FROM tickets t JOIN addresses a ON a.id IN (t.pickup_address_id, t.delivery_address_id) WHERE a.agent_id != t.agent_id`,
  );
  expect(wrong).toEqual([]);
});

test("each shop's staff open every one of their demo customers and tickets and see the addresses", async () => {
  const customers = await rows("SELECT id, agent_id, address_id FROM customers");
  expect(customers.length).toBe(60);
  const seen = new Set<number>();
  for (const c of customers) {
    const token = tokens.get(Number(c.agent_id))!;
    const customer = await box.call("GET", `/api/v1/customers/${c.id}`, { token });
    expect([c.id, customer.status]).toEqual([c.id, 200]);
    const address = await box.call("GET", `/api/v1/address/${c.address_id}`, { token });
    expect([c.id, address.status]).toEqual([c.id, 200]);
    expect(address.json.data.line).toBeTruthy();
    seen.add(Number(c.agent_id));
  }
  expect(seen.size).toBe(3); // HQ's, Birkirkara's and Mosta's customers all checked

  const tickets = await rows(
    "SELECT t.id, t.agent_id, t.pickup_address_id, t.delivery_address_id, (SELECT coalesce(sum(p.amount), 0) FROM payments p WHERE p.ticket_id = t.id) AS paid FROM tickets t",
  );
  expect(tickets.length).toBeGreaterThan(10);
  for (const t of tickets) {
    const token = tokens.get(Number(t.agent_id))!;
    const opened = await box.call("GET", `/api/v1/tickets/${t.id}`, { token });
    expect([t.id, opened.status]).toEqual([t.id, 200]);
    // What the shop sees as paid is the sum of the ticket's payment rows (euros in the API).
    expect([t.id, Math.round(opened.json.data.total_paid * 100)]).toEqual([t.id, Number(t.paid)]);
    const listed = await box.call("GET", `/api/v1/tickets/${t.id}/addresses`, { token });
    expect([t.id, listed.status, listed.json.data.length > 0]).toEqual([t.id, 200, true]);
    for (const a of [t.pickup_address_id, t.delivery_address_id].filter((x) => x !== null))
      expect([t.id, a, (await box.call("GET", `/api/v1/address/${a}`, { token })).status]).toEqual([t.id, a, 200]);
  }
  // Each shop sees its own premises.
  for (const a of await rows("SELECT id, address_id FROM agents WHERE address_id IS NOT NULL"))
    expect((await box.call("GET", `/api/v1/address/${a.address_id}`, { token: tokens.get(Number(a.id))! })).status).toBe(200);
});

test("the demo keeps the API's money invariants: paid amounts are the payment rows, totals the items", async () => {
  expect(await checkPaymentSums(async (sql) => (await box.database.client.execute(sql)).rows.map((r) => Object.values(r)))).toEqual([]);
  expect(await ticketsOffPrice(box.database)).toEqual([]);
  // Paid in full, in part and not at all; cash, card and account; and each payment by the ticket's own shop.
  const [kinds] = await rows(
    `SELECT count(DISTINCT tender) AS tenders,
      sum(t.total_paid = t.total AND t.total > 0) AS full, sum(t.total_paid > 0 AND t.total_paid < t.total) AS part, sum(t.total_paid = 0) AS none,
      sum(p.agent_id != t.agent_id) AS foreign_rows
     FROM tickets t LEFT JOIN payments p ON p.ticket_id = t.id`,
  );
  // Cash and card at the counter, and (issue 34) the hotel's tickets charged to its account.
  expect(Number(kinds!.tenders)).toBe(3);
  for (const k of ["full", "part", "none"]) expect(Number(kinds![k])).toBeGreaterThan(0);
  expect(Number(kinds!.foreign_rows)).toBe(0);
});

test("the database refuses a total_paid written over the demo's rows; payments and refunds still move it (issue 31)", async () => {
  await expectTotalsGuarded(box.database.client);
});

test("control: the owner is the customer's shop, not anyone's: another shop still cannot open them", async () => {
  const [mosta, birkirkara] = [
    (await rows("SELECT id FROM agents WHERE user_name = 'mosta'"))[0]!.id,
    (await rows("SELECT id FROM agents WHERE user_name = 'birkirkara'"))[0]!.id,
  ];
  const c = (await rows(`SELECT id, address_id FROM customers WHERE agent_id = ${birkirkara} LIMIT 1`))[0]!;
  const token = tokens.get(Number(mosta))!;
  expect((await box.call("GET", `/api/v1/address/${c.address_id}`, { token })).status).toBe(404);
  expect((await box.call("GET", `/api/v1/customers/${c.id}`, { token })).status).toBe(404);
});
