// Issue 31: a retry never takes the money twice, and amounts are whole cents. Every route that
// moves money honours Idempotency-Key whatever its method; the key's scope is the whole request
// (query and body too), so one key with another amount is a 409. A fraction of a cent is a 422
// on every route taking euros, never rounded into a row; a tender is exactly one of its names.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { INTERRUPTED_MESSAGE, pruneIdempotencyKeys } from "../../http/idempotency";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { checkPaymentSums } from "./check";

let box: TestBox;
let admin: string;
const ids: Record<string, number> = {};

const call = (method: string, path: string, o: { body?: unknown; key?: string } = {}) =>
  box.call(method, `/api/v1${path}`, { token: admin, body: o.body, headers: o.key ? { "idempotency-key": o.key } : {} });
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await call(method, path, { body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const count = async (sql: string, ...args: (string | number)[]) => Number((await box.database.client.execute({ sql, args })).rows[0]!.n);
const rowsOf = (ticket: number) => count("SELECT count(*) AS n FROM payments WHERE ticket_id = ?", ticket);
const sums = () => checkPaymentSums(async (sql) => (await box.database.client.execute(sql)).rows.map((r) => Object.values(r)));

/** A confirmed ticket with a shirt at €3 and a suit at €12.50 (€15.50). */
async function ticket(): Promise<{ id: number; items: number[] }> {
  const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.shirt });
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.suit });
  await ok("PUT", `/tickets/${t.id}/confirm`);
  const full = await ok("GET", `/tickets/${t.id}`);
  return { id: t.id, items: full.ticket_sub_categories.map((i: { id: number }) => i.id) };
}

beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  const dc = (await ok("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 })).id;
  const cat = (await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: dc })).id;
  ids.dc = dc;
  ids.suit = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Suit 2pc", pieces: "Jacket,Trousers" })).id;
  ids.shirt = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Shirt" })).id;
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.suit, action_id: dc, price: 12.5 });
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.shirt, action_id: dc, price: 3 });
  ids.customer = (await ok("POST", "/customers/", { full_name: "Rita Retry", mobile: "79111222" })).id;
});
afterAll(() => box.close());

describe("a retry with the same Idempotency-Key moves money once (PUT routes too)", () => {
  test("a part payment of the ticket: written once, the same answer twice; another amount under the key is a 409", async () => {
    const t = await ticket();
    const first = await call("PUT", `/tickets/paidFor/${t.id}?amount=5&method=cash`, { key: "pay-ticket-1" });
    // A ticket payment is written item by item (€3 on the shirt, €2 on the suit): two rows.
    const written = await rowsOf(t.id);
    expect(written).toBe(2);
    const again = await call("PUT", `/tickets/paidFor/${t.id}?amount=5&method=cash`, { key: "pay-ticket-1" });
    expect(first.status).toBe(200);
    expect(first.json.data.total_paid).toBe(5);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    expect(await rowsOf(t.id)).toBe(written);
    // The query in another order is the same request.
    expect((await call("PUT", `/tickets/paidFor/${t.id}?method=cash&amount=5`, { key: "pay-ticket-1" })).json).toEqual(first.json);
    // The same key with another amount (or tender) is not a retry: 409, and nothing written.
    const other = await call("PUT", `/tickets/paidFor/${t.id}?amount=6&method=cash`, { key: "pay-ticket-1" });
    expect(other).toMatchObject({ status: 409, json: { success: false, message: "Idempotency-Key was already used for another request" } });
    expect((await call("PUT", `/tickets/paidFor/${t.id}?amount=5&method=card`, { key: "pay-ticket-1" })).status).toBe(409);
    expect(await rowsOf(t.id)).toBe(written);
    expect((await ok("GET", `/tickets/${t.id}`)).total_paid).toBe(5);
    // Control: a fresh key is a new payment.
    expect((await call("PUT", `/tickets/paidFor/${t.id}?amount=5&method=cash`, { key: "pay-ticket-2" })).json.data.total_paid).toBe(10);
    expect(await rowsOf(t.id)).toBe(written + 1);
    expect((await ok("GET", `/tickets/${t.id}`)).total_paid).toBe(10);
    expect(await sums()).toEqual([]);
  });

  test("an item's payment: one row for the key; another amount under it is a 409", async () => {
    const t = await ticket();
    const suit = t.items[1]!;
    const first = await call("PUT", `/ticketSubCategory/paidFor/${suit}/4.5?method=card`, { key: "pay-item-1" });
    const again = await call("PUT", `/ticketSubCategory/paidFor/${suit}/4.5?method=card`, { key: "pay-item-1" });
    expect(first.status).toBe(200);
    expect(first.json.data.total_paid).toBe(4.5);
    expect(again.json).toEqual(first.json);
    expect(await rowsOf(t.id)).toBe(1);
    expect((await call("PUT", `/ticketSubCategory/paidFor/${suit}/5?method=card`, { key: "pay-item-1" })).status).toBe(409);
    expect(await rowsOf(t.id)).toBe(1);
    expect((await ok("GET", `/tickets/${t.id}`)).total_paid).toBe(4.5);
  });

  test("a refund: one negative row for the key; another amount under it is a 409", async () => {
    const t = await ticket();
    await ok("PUT", `/tickets/paidFor/${t.id}?method=card`);
    const [p] = await ok("GET", `/payments/?ticket=${t.id}`);
    const first = await call("POST", `/payments/${p.id}/refund`, { key: "refund-1", body: { amount: 1.25, reason: "Button lost" } });
    const again = await call("POST", `/payments/${p.id}/refund`, { key: "refund-1", body: { amount: 1.25, reason: "Button lost" } });
    expect(first.status).toBe(200);
    expect(again.json).toEqual(first.json);
    const other = await call("POST", `/payments/${p.id}/refund`, { key: "refund-1", body: { amount: 2, reason: "Button lost" } });
    expect(other.status).toBe(409);
    expect(await count("SELECT count(*) AS n FROM payments WHERE refund_of = ?", p.id)).toBe(1);
    expect((await ok("GET", `/tickets/${t.id}`)).total_paid).toBe(14.25);
  });

  test("closing and reopening the drawer: a retry answers what the first answered; another count under the key is a 409", async () => {
    const body = { counted: { cash: 0, card: 0, other: 0 }, note: "quiet day" };
    const closed = await call("POST", "/till/2026-11-20/close", { key: "close-1", body });
    expect(closed.status).toBe(200);
    expect(closed.json.data.closed).toMatchObject({ note: "quiet day" });
    // Without the key a second close is a 409 (the control); with it, the first answer.
    expect((await call("POST", "/till/2026-11-20/close", { key: "close-1", body })).json).toEqual(closed.json);
    expect((await call("POST", "/till/2026-11-20/close", { body })).status).toBe(409);
    expect((await call("POST", "/till/2026-11-20/close", { key: "close-1", body: { ...body, counted: { cash: 1, card: 0, other: 0 } } })).status).toBe(409);
    const reopened = await call("POST", "/till/2026-11-20/reopen", { key: "reopen-1" });
    expect(reopened.status).toBe(200);
    expect(reopened.json.data.closed).toBeNull();
    expect((await call("POST", "/till/2026-11-20/reopen", { key: "reopen-1" })).json).toEqual(reopened.json);
    expect((await call("POST", "/till/2026-11-20/reopen?agent=1", { key: "reopen-1" })).status).toBe(409);
    const audit = await box.database.client.execute("SELECT action FROM audit_log WHERE entity = 'till' ORDER BY id");
    expect(audit.rows.map((r) => r.action)).toEqual(["close_till", "reopen_till"]);
  });

  test("a payment the box stopped in the middle of: its retry is told the box restarted, and nothing is paid twice", async () => {
    const t = await ticket();
    const pay = () => call("PUT", `/tickets/paidFor/${t.id}?amount=5&method=cash`, { key: "pay-cut-1" });
    expect((await pay()).status).toBe(200);
    const written = await rowsOf(t.id);
    // The box stopped after the payment's commit and before its answer was stored: the key is
    // left claimed ("in progress"), as a power cut there leaves it.
    await box.database.client.execute({ sql: "UPDATE idempotency_keys SET status = 0, body = '' WHERE key = ?", args: ["pay-cut-1"] });
    // Control: while the box runs, a claim is a request still being done.
    expect((await pay()).json.message).toBe("A request with this Idempotency-Key is still in progress; retry shortly");
    // What the box does at boot with claims it finds: the retry now learns the box restarted.
    await pruneIdempotencyKeys(box.database.db, new Date("2026-11-22T09:00:00Z")); // the box's clock (harness)
    const retry = await pay();
    expect(retry).toMatchObject({ status: 409, json: { success: false, message: INTERRUPTED_MESSAGE } });
    expect(await rowsOf(t.id)).toBe(written);
    expect((await ok("GET", `/tickets/${t.id}`)).total_paid).toBe(5);
    // A new key is a new payment, as ever.
    expect((await call("PUT", `/tickets/paidFor/${t.id}?amount=5&method=cash`, { key: "pay-cut-2" })).json.data.total_paid).toBe(10);
    expect(await sums()).toEqual([]);
  });
});

describe("whole cents only: a fraction of a cent is a 422, never rounded into a row", () => {
  const FRACTIONS = ["0.005", "0.001", "1.005", "1.0000001"];

  test("paying a ticket, an item, tendered cash: refused, nothing written; whole cents are taken", async () => {
    const t = await ticket();
    for (const a of FRACTIONS) {
      expect((await call("PUT", `/tickets/paidFor/${t.id}?amount=${a}`)).status, a).toBe(422);
      expect((await call("PUT", `/tickets/paidFor/${t.id}?amount=1&tendered=${a}`)).status, a).toBe(422);
      expect((await call("PUT", `/ticketSubCategory/paidFor/${t.items[0]}/${a}`)).status, a).toBe(422);
      expect((await call("PUT", `/ticketSubCategory/paidFor/${t.items[0]}/1?tendered=${a}`)).status, a).toBe(422);
    }
    for (const junk of ["", "1e2", "0x10", "-1", "%201", "1,5"]) {
      expect((await call("PUT", `/tickets/paidFor/${t.id}?amount=${junk}`)).status, junk).toBe(422);
    }
    const r = await call("PUT", `/tickets/paidFor/${t.id}?amount=0.005`);
    expect(r.json.message).toBe("Invalid query: amount: must be in whole cents (at most two decimals)");
    expect(await rowsOf(t.id)).toBe(0);
    // Control: whole cents, written with or without trailing zeros (0.29 * 100 is 28.999999999999996 in binary).
    expect((await ok("PUT", `/tickets/paidFor/${t.id}?amount=0.29&tendered=1.000`)).total_paid).toBe(0.29);
    expect((await ok("PUT", `/ticketSubCategory/paidFor/${t.items[0]}/1.10`)).total_paid).toBe(1.39);
    expect(await rowsOf(t.id)).toBe(2);
  });

  test("a refund of €0.001 or €1.005 is refused; the payment keeps what it holds", async () => {
    const t = await ticket();
    await ok("PUT", `/tickets/paidFor/${t.id}?method=card`);
    const [p] = await ok("GET", `/payments/?ticket=${t.id}`);
    for (const amount of [0.001, 0.005, 1.005, 0.1 + 0.0001]) {
      const r = await call("POST", `/payments/${p.id}/refund`, { body: { amount, reason: "Fraction" } });
      expect(r.status, String(amount)).toBe(422);
      expect(r.json.message).toBe("Invalid body: amount: must be in whole cents (at most two decimals)");
    }
    expect(await count("SELECT count(*) AS n FROM payments WHERE refund_of = ?", p.id)).toBe(0);
    // Control: a client's float noise on whole cents (0.1 + 0.2) is that amount, €0.30.
    expect((await ok("POST", `/payments/${p.id}/refund`, { amount: 0.1 + 0.2, reason: "Noise" })).amount).toBe(-0.3);
  });

  test("the other euro inputs: drawer counts, charges, an item's total, catalogue prices and up-charges", async () => {
    const t = await ticket();
    const bad = [
      call("POST", "/till/2026-11-19/close", { body: { counted: { cash: 10.005, card: 0, other: 0 } } }),
      call("POST", "/tickets/", { body: { customer_id: ids.customer, pickup_charge: 0.005 } }),
      call("PUT", `/tickets/${t.id}/deliveryPickupOptions`, { body: { delivery_charge: 2.001 } }),
      call("PUT", `/ticketSubCategory/${t.items[0]}`, { body: { total_override: 1.005 } }),
      call("POST", "/actionGarmentSubCategories/", { body: { garment_sub_category_id: ids.shirt, action_id: ids.dc, price: 2.999 } }),
      call("PUT", "/actionGarmentSubCategories/bulk", { body: [{ garment_sub_category_id: ids.shirt, action_id: ids.dc, price: 3.001 }] }),
      call("POST", "/actions/", { body: { name: "Pressing", up_charge: 4.005 } }),
      call("POST", "/modifiers/", { body: { type: "COLOR", name: "Red", up_charge: 0.001 } }),
    ];
    for (const r of await Promise.all(bad)) {
      expect(r.status, JSON.stringify(r.json)).toBe(422);
      expect(r.json.message).toContain("must be in whole cents");
    }
    expect(await count("SELECT count(*) AS n FROM till_closes WHERE day = '2026-11-19'")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM actions WHERE name = 'Pressing'")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM modifiers WHERE name = 'Red'")).toBe(0);
  });

  test("a tender is exactly one of its names: cash%00, 'cash ', CASH are refused, not taken as cash", async () => {
    const t = await ticket();
    for (const m of ["cash%00", "cash%20", "CASH", "%00cash", "ca%00sh", "cash%1b"]) {
      const r = await call("PUT", `/tickets/paidFor/${t.id}?method=${m}&amount=1`);
      expect(r.status, m).toBe(422);
      expect(r.json.message, m).toBe('Invalid query: method: must be one of "cash", "card", "other", "account", "balance"');
      expect((await call("PUT", `/ticketSubCategory/paidFor/${t.items[0]}/1?method=${m}`)).status, m).toBe(422);
    }
    expect(await rowsOf(t.id)).toBe(0);
    // Control: the exact name is taken.
    expect((await ok("PUT", `/tickets/paidFor/${t.id}?method=card&amount=1`)).total_paid).toBe(1);
  });
});
