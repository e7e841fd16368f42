import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { checkTotals } from "./check";

let box: TestBox;
let admin: string;
let manager: string;
let clerk: string;
let otherClerk: string;
const ids: Record<string, number> = {};

const api = (method: string, path: string, body: unknown, token: string, headers?: Record<string, string>) =>
  box.call(method, `/api/v1${path}`, { token, body, headers });
const ok = async (method: string, path: string, body: unknown, token: string, headers?: Record<string, string>) => {
  const r = await api(method, path, body, token, headers);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const rows = async (sql: string) => (await box.database.client.execute(sql)).rows.map((r) => Object.values(r));
const count = async (table: string) => Number((await rows(`SELECT count(*) FROM ${table}`))[0]![0]);
const totals = () => checkTotals(rows);

/** A confirmed ticket of Mosta with one suit at €12.50. */
async function ticket(customer = ids.customer) {
  const t = await ok("POST", "/tickets/", { customer_id: customer }, clerk);
  await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.suit }, clerk);
  await ok("PUT", `/tickets/${t.id}/confirm`, undefined, clerk);
  return t.id as number;
}

beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  for (const [name, user] of [
    ["Mosta", "mosta-d"],
    ["B Kara", "bkara-d"],
  ] as const) {
    const shop = await ok("POST", "/agents/", { name, user_name: user }, admin);
    await ok("PUT", `/agents/password/${shop.id}`, { password: `${user}-pass` }, admin);
    ids[user] = shop.id;
  }
  await ok("POST", "/employees/", { agent_id: ids["mosta-d"], full_name: "Maria Manager", role: "manager", pin: 6101 }, admin);
  await ok("POST", "/employees/", { agent_id: ids["mosta-d"], full_name: "Carl Clerk", role: "employee", pin: 6102 }, admin);
  await ok("POST", "/employees/", { agent_id: ids["bkara-d"], full_name: "Olga Other", role: "employee", pin: 6201 }, admin);
  const mosta = await box.agentToken("mosta-d", "mosta-d-pass");
  manager = await box.employeeToken(6101, mosta);
  clerk = await box.employeeToken(6102, mosta);
  otherClerk = await box.employeeToken(6201, await box.agentToken("bkara-d", "bkara-d-pass"));
  const dc = (await ok("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 }, admin)).id;
  const cat = (await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: dc }, admin)).id;
  ids.suit = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Suit 2pc" }, admin)).id;
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.suit, action_id: dc, price: 12.5 }, admin);
  ids.customer = (await ok("POST", "/customers/", { full_name: "Joseph Camilleri", mobile: "79123456" }, clerk)).id;
});
afterAll(() => box.close());

describe("deposits", () => {
  test("a deposit is a row of the drawer; spent in part with method=balance; over the balance refused with no rows", async () => {
    const d = await ok("POST", `/customers/${ids.customer}/deposits`, { amount: 20, method: "cash" }, clerk);
    expect(d).toMatchObject({ kind: "deposit", amount: 20, tender: "cash", agent_id: ids["mosta-d"], balance: 20 });
    expect(await ok("GET", `/customers/${ids.customer}/balance`, undefined, clerk)).toMatchObject({ balance: 20, spendable: 20 });
    // The deposit's cash is in today's drawer.
    expect((await ok("GET", "/till/2026-11-22", undefined, manager)).expected.cash).toBe(20);

    const t = await ticket();
    const paid = await ok("PUT", `/tickets/paidFor/${t}?amount=5&method=balance`, undefined, clerk);
    expect(paid).toMatchObject({ total_paid: 5, balance: 7.5 });
    const b = await ok("GET", `/customers/${ids.customer}/balance`, undefined, clerk);
    expect(b).toMatchObject({ balance: 15, spendable: 15 });
    expect(b.rows[0]).toMatchObject({ kind: "spend", amount: -5, tender: "balance" });
    // Spending a balance is no money in the drawer: still the €20 of the deposit.
    const day = await ok("GET", "/till/2026-11-22", undefined, manager);
    expect(day.expected).toEqual({ cash: 20, card: 0, other: 0 });
    expect(day.deposits).toEqual({ taken: 20, given_back: 0, spent: 5 });
    // The drawer counts one row of money in (the deposit), not the balance's spend.
    expect(day.payments).toBe(1);

    // €7.50 left on the ticket, €15 on the balance; a second ticket of €12.50 is more than the €7.50 left after.
    const payments = await count("payments");
    const deposits = await count("deposits");
    await ok("PUT", `/tickets/paidFor/${t}?method=balance`, undefined, clerk);
    const t2 = await ticket();
    const over = await api("PUT", `/tickets/paidFor/${t2}?method=balance`, undefined, clerk);
    expect(over.status).toBe(422);
    expect(over.json.message).toBe("Not enough balance (€7.50)");
    expect([await count("payments"), await count("deposits")]).toEqual([payments + 1, deposits + 1]);
    const item = (await ok("GET", `/tickets/children/${t2}`, undefined, clerk))[0].id;
    expect((await api("PUT", `/ticketSubCategory/paidFor/${item}/12.5?method=balance`, undefined, clerk)).status).toBe(422);
    expect([await count("payments"), await count("deposits")]).toEqual([payments + 1, deposits + 1]);
    expect(await totals()).toMatchObject({ ok: true });
  });

  test("the database refuses a balance below zero and any change of a row", async () => {
    const agent = ids["mosta-d"];
    await expect(
      box.database.client.execute(
        `INSERT INTO deposits (customer_id, agent_id, kind, amount, tender, taken_at, till_day) VALUES (${ids.customer}, ${agent}, 'refund', -100000, 'cash', '2026-11-22T09:00:00Z', '2026-11-22')`,
      ),
    ).rejects.toThrow(/Not enough balance/);
    await expect(box.database.client.execute("UPDATE deposits SET amount = amount + 1")).rejects.toThrow(/never changed/);
    await expect(box.database.client.execute("DELETE FROM deposits")).rejects.toThrow(/never deleted/);
  });

  test("a refund of a deposit: with a manager's PIN for a clerk, never more than it holds; a refund of a balance payment puts it back", async () => {
    const c = (await ok("POST", "/customers/", { full_name: "Rita Refund", mobile: "79000001" }, clerk)).id;
    const d = await ok("POST", `/customers/${c}/deposits`, { amount: 10, method: "card" }, clerk);
    expect((await api("POST", `/deposits/${d.id}/refund`, { amount: 4, reason: "changed mind" }, clerk)).status).toBe(403);
    const r = await ok("POST", `/deposits/${d.id}/refund`, { amount: 4, reason: "changed mind", approval: { pin: "6101" } }, clerk);
    expect(r).toMatchObject({ kind: "refund", amount: -4, tender: "card", refund_of: d.id, balance: 6 });
    expect((await api("POST", `/deposits/${d.id}/refund`, { amount: 6.01, reason: "again" }, manager)).status).toBe(422);
    // Spend €6 on a ticket, then refund that payment: the money goes back to the balance, not the drawer.
    const t = await ticket(c);
    await ok("PUT", `/tickets/paidFor/${t}?amount=6&method=balance`, undefined, clerk);
    expect((await ok("GET", `/customers/${c}/balance`, undefined, clerk)).balance).toBe(0);
    expect((await api("POST", `/deposits/${d.id}/refund`, { amount: 1, reason: "spent" }, manager)).json.message).toMatch(/Not enough balance/);
    const [p] = await ok("GET", `/payments/?ticket=${t}`, undefined, clerk);
    await ok("POST", `/payments/${p.id}/refund`, { amount: 2, reason: "stain left" }, manager);
    expect((await ok("GET", `/customers/${c}/balance`, undefined, clerk)).balance).toBe(2);
    expect(await totals()).toMatchObject({ ok: true });
  });

  test("another shop's customer or deposit answers 404; a balance held at another shop is refused there (409)", async () => {
    expect((await api("POST", `/customers/${ids.customer}/deposits`, { amount: 5, method: "cash" }, otherClerk)).status).toBe(404);
    expect((await api("GET", `/customers/${ids.customer}/balance`, undefined, otherClerk)).status).toBe(404);
    const [row] = (await ok("GET", `/customers/${ids.customer}/balance`, undefined, clerk)).rows.slice(-1);
    expect((await api("POST", `/deposits/${row.id}/refund`, { amount: 1, reason: "x" }, otherClerk)).status).toBe(404);
    // HQ's admin takes €30 for a Mosta customer: the money is in HQ's drawer, spendable at HQ only.
    const c = (await ok("POST", "/customers/", { full_name: "Hugo Hq", mobile: "79000002" }, clerk)).id;
    const d = await ok("POST", `/customers/${c}/deposits`, { amount: 30, method: "cash" }, admin);
    expect(d.agent_id).not.toBe(ids["mosta-d"]);
    expect(await ok("GET", `/customers/${c}/balance`, undefined, clerk)).toMatchObject({ balance: 30, spendable: 0 });
    const t = await ticket(c);
    const refused = await api("PUT", `/tickets/paidFor/${t}?method=balance`, undefined, clerk);
    expect(refused.status).toBe(409);
    expect(refused.json.message).toMatch(/another shop/);
    // At the shop that holds it, always.
    expect((await ok("PUT", `/tickets/paidFor/${t}?method=balance`, undefined, admin)).balance).toBe(0);
    expect((await ok("GET", `/customers/${c}/balance`, undefined, clerk)).balance).toBe(17.5);
  });

  test("fractions of a cent and bad tenders are 422; an Idempotency-Key retry takes the money once", async () => {
    for (const body of [{ amount: 1.005, method: "cash" }, { amount: 0, method: "cash" }, { amount: 5, method: "balance" }, { amount: 5 }])
      expect((await api("POST", `/customers/${ids.customer}/deposits`, body, clerk)).status).toBe(422);
    const before = (await ok("GET", `/customers/${ids.customer}/balance`, undefined, clerk)).balance;
    const key = { "Idempotency-Key": "deposit-retry-1" };
    const a = await ok("POST", `/customers/${ids.customer}/deposits`, { amount: 3, method: "cash" }, clerk, key);
    const b = await ok("POST", `/customers/${ids.customer}/deposits`, { amount: 3, method: "cash" }, clerk, key);
    expect(b.id).toBe(a.id);
    expect((await ok("GET", `/customers/${ids.customer}/balance`, undefined, clerk)).balance).toBe(before + 3);
    const t = await ticket();
    const spend = { "Idempotency-Key": "spend-retry-1" };
    await ok("PUT", `/tickets/paidFor/${t}?amount=1&method=balance`, undefined, clerk, spend);
    await ok("PUT", `/tickets/paidFor/${t}?amount=1&method=balance`, undefined, clerk, spend);
    expect((await ok("GET", `/customers/${ids.customer}/balance`, undefined, clerk)).balance).toBe(before + 2);
    const refund = { "Idempotency-Key": "deposit-refund-1" };
    await ok("POST", `/deposits/${a.id}/refund`, { amount: 1, reason: "r" }, manager, refund);
    await ok("POST", `/deposits/${a.id}/refund`, { amount: 1, reason: "r" }, manager, refund);
    expect((await ok("GET", `/customers/${ids.customer}/balance`, undefined, clerk)).balance).toBe(before + 1);
  });

  test("the daily money check finds a balance payment without its spend row and a balance below zero", async () => {
    expect(await totals()).toMatchObject({ ok: true });
    // A file whose triggers were dropped (an old restore, a hand repair) is what the check is for.
    await box.database.client.execute("DROP TRIGGER payments_spend_balance");
    await box.database.client.execute("DROP TRIGGER deposits_not_below_zero");
    const t = await ticket();
    await ok("PUT", `/tickets/paidFor/${t}?amount=1&method=balance`, undefined, clerk);
    await box.database.client.execute(
      `INSERT INTO deposits (customer_id, agent_id, kind, amount, tender, taken_at, till_day) VALUES (${ids.customer}, ${ids["mosta-d"]}, 'refund', -100000, 'cash', '2026-11-22T09:00:00Z', '2026-11-22')`,
    );
    const c = await totals();
    expect(c.ok).toBe(false);
    expect(c.first.map((m) => m.kind).sort()).toEqual(["balance", "deposit"]);
  });
});
