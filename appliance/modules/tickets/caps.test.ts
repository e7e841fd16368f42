import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_LINE_CENTS } from "../../domain/pricing";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { repairOverflowedMoney } from "./totals";

// Issue 11 (L4): chained percentage prices overflowed past 2^53 cents and every later read
// of the ticket failed. The pricing engine caps prices, percentages and totals.
let box: TestBox;
let admin: string;
const ids: Record<string, number> = {};

const api = (method: string, path: string, body?: unknown) => box.call(method, `/api/v1${path}`, { token: admin, body });
const ok = async (method: string, path: string, body?: unknown) => {
  const r = await api(method, path, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const count = async (table: string) => Number((await box.database.client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);

beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  const cat = await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Caps" });
  ids.garment = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat.id, name: "Gown", allow_quantity: true })).id;
  for (let i = 0; i < 4; i++) ids[`a${i}`] = (await ok("POST", "/actions/", { name: `Step ${i}`, up_charge: 1 })).id;
  ids.customer = (await ok("POST", "/customers/", { full_name: "Cap Tester" })).id;
});
afterAll(() => box.close());

describe("caps (L4)", () => {
  test("a percentage of a percentage of a price past €1,000,000 is refused with 422 naming the price, and nothing is stored", async () => {
    const base = await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.garment, action_id: ids.a0, price: 1_000_000 });
    expect(
      (await api("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.garment, action_id: ids.a1, price: 1001, is_percentage_of: base.id }))
        .json.message,
    ).toBe("price: a percentage may be at most 1000 %");
    const before = await count("action_garment_sub_categories");
    // This used to store a chain worth 10^16 cents (past 2^53) after two more links.
    const r = await api("POST", "/actionGarmentSubCategories/", {
      garment_sub_category_id: ids.garment,
      action_id: ids.a1,
      price: 1000,
      is_percentage_of: base.id,
    });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe("price: this percentage of a percentage would come to more than €1,000,000.00");
    expect(await count("action_garment_sub_categories")).toBe(before);
    // Legitimate percentages still work: 150 % of €8.00.
    const pressing = await ok("PUT", `/actionGarmentSubCategories/${base.id}`, { price: 8 });
    expect(
      (await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.garment, action_id: ids.a1, price: 150, is_percentage_of: pressing.id }))
        .effective_price,
    ).toBe(12);
    // Raising the base now would take the 150 % past the cap: refused too.
    expect((await api("PUT", `/actionGarmentSubCategories/${base.id}`, { price: 1_000_000 })).json.message).toBe(
      "price: this percentage of a percentage would come to more than €1,000,000.00",
    );
    // Actions and modifiers share the engine's caps.
    const flat = await ok("POST", "/actions/", { name: "Big", up_charge: 1_000_000 });
    expect((await api("POST", "/actions/", { name: "Bigger", is_percentage: true, is_percentage_of: flat.id, up_charge: 200 })).json.message).toContain(
      "up_charge: this percentage of a percentage",
    );
    expect((await api("POST", "/modifiers/", { type: "STAIN", name: "Huge", up_charge: 5000, is_percentage: true })).json.message).toBe(
      "up_charge: a percentage may be at most 1000 %",
    );
  });

  test("an item past €1,000,000 and a ticket past €10,000,000 are refused (422), never stored", async () => {
    const cat = await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Couture" });
    const garment = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat.id, name: "Wedding dress", allow_quantity: true })).id;
    await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: garment, action_id: ids.a0, price: 1_000_000 });
    const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
    const [item] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garment, actions: [ids.a0] });
    expect(item.total).toBe(1_000_000);
    const twice = await api("PUT", `/ticketSubCategory/${item.id}`, { quantity: 2 });
    expect(twice.status).toBe(422);
    expect(twice.json.message).toBe("total: an item may cost at most €1,000,000.00");
    expect((await ok("GET", `/ticketSubCategory/${item.id}`)).quantity).toBe(1);
    await ok("POST", "/ticketSubCategory/?copies=9", { ticket_id: t.id, garment_sub_category_id: garment, actions: [ids.a0] });
    const eleventh = await api("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garment, actions: [ids.a0] });
    expect(eleventh.json.message).toBe("total: a ticket may come to at most €10,000,000.00");
    const after = await ok("GET", `/tickets/${t.id}`);
    expect(after.ticket_sub_categories).toHaveLength(10);
    expect(after.total).toBe(10_000_000);
  });

  test("amounts stored past 2^53 before the caps are clamped once at start, so the ticket and its customer read again", async () => {
    const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
    const [item] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.garment, actions: [ids.a0] });
    const huge = "10000000000000002"; // what the 1000 %-of-1000 % chain stored: > 2^53
    const { client } = box.database;
    await client.execute({ sql: `UPDATE ticket_sub_category_actions SET price = ${huge} WHERE ticket_sub_category_id = ?`, args: [item.id] });
    await client.execute({ sql: `UPDATE ticket_sub_categories SET total = ${huge}, pre_discount_total = ${huge} WHERE id = ?`, args: [item.id] });
    await client.execute({ sql: `UPDATE tickets SET total = ${huge} WHERE id = ?`, args: [t.id] });
    expect((await api("GET", `/tickets/${t.id}`)).status).toBe(500); // the bug, as found
    await client.execute("DELETE FROM box_settings WHERE key = 'money_caps_repaired'");
    await repairOverflowedMoney(box.database.db, box.clock.now());
    const read = await ok("GET", `/tickets/${t.id}`);
    expect(read.ticket_sub_categories[0]).toMatchObject({ total: MAX_LINE_CENTS / 100, actions: [{ price: MAX_LINE_CENTS / 100 }] });
    expect((await api("GET", `/customers/${ids.customer}`)).status).toBe(200);
  });

  test("a paid amount stored past its cap is brought down by a payment row, never by writing total_paid (issue 31)", async () => {
    const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
    const [item] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.garment, actions: [ids.a0] });
    const { client } = box.database;
    const huge = "10000000000000002";
    // As migration 0010 carried an overflowed paid amount: one row, its trigger raising the totals.
    await client.execute({
      sql: `INSERT INTO payments (ticket_id, ticket_sub_category_id, agent_id, amount, tender, taken_at, till_day)
            SELECT id, ?, agent_id, ${huge}, 'other', '2026-01-01T10:00:00.000Z', '2026-01-01' FROM tickets WHERE id = ?`,
      args: [item.id, t.id],
    });
    expect((await api("GET", `/tickets/${t.id}`)).status).toBe(500); // unreadable, as found
    await client.execute("DELETE FROM box_settings WHERE key = 'money_caps_repaired'");
    await repairOverflowedMoney(box.database.db, box.clock.now());
    const read = await ok("GET", `/tickets/${t.id}`);
    expect(read.total_paid).toBe(MAX_LINE_CENTS / 100);
    expect(read.ticket_sub_categories[0].total_paid).toBe(MAX_LINE_CENTS / 100);
    const rows = await client.execute({
      sql: "SELECT ticket_sub_category_id AS item, tender, reason, taken_at FROM payments WHERE ticket_id = ? AND reason IS NOT NULL",
      args: [t.id],
    });
    expect(rows.rows.map((r): Record<string, unknown> => ({ ...r }))).toEqual([
      { item: item.id, tender: "other", reason: "money caps repair: paid past the cap", taken_at: box.clock.now().toISOString() },
    ]);
    const off = await client.execute(
      "SELECT count(*) AS n FROM tickets t WHERE total_paid <> (SELECT coalesce(sum(amount), 0) FROM payments p WHERE p.ticket_id = t.id)",
    );
    expect(Number(off.rows[0]!.n)).toBe(0);
  });
});
