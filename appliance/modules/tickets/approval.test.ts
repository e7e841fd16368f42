import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type TestBox, testBox } from "../../test/harness";

// Issue 11 (M4): money is safe by role. Demo shops: HQ (1111 admin+HQ, 2222 manager, 3333
// employee, 4444 driver), birkirkara (5555 admin), mosta (7777 manager).
let box: TestBox;
const t: Record<string, string> = {};
const ids: Record<string, number> = {};

const api = (method: string, path: string, token: string, body?: unknown) => box.call(method, `/api/v1${path}`, { token, body });
const ok = async (method: string, path: string, token: string, body?: unknown) => {
  const r = await api(method, path, token, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const employeeId = async (name: string) =>
  Number((await box.database.client.execute({ sql: "SELECT id FROM employees WHERE full_name = ?", args: [name] })).rows[0]!.id);
const lastAudit = async (action: string) => {
  const r = await box.database.client.execute({ sql: "SELECT employee_id, detail FROM audit_log WHERE action = ? ORDER BY id DESC LIMIT 1", args: [action] });
  const row = r.rows[0]!;
  return { employee_id: Number(row.employee_id), detail: JSON.parse(String(row.detail)) };
};
const pinFailures = async () =>
  Number((await box.database.client.execute("SELECT count(*) AS n FROM auth_failures WHERE kind = 'pin' AND cleared_at IS NULL")).rows[0]!.n);

/** A ticket of the HQ shop with one €20.00 item (two €10 actions), opened by `token`. */
async function ticketWithItem(token = t.employee!) {
  const ticket = await ok("POST", "/tickets/", token, { customer_id: ids.customer });
  const [item] = await ok("POST", "/ticketSubCategory/", token, { ticket_id: ticket.id, garment_sub_category_id: ids.garment, actions: [ids.wash, ids.press] });
  return { ticket: ticket.id as number, item: item.id as number };
}

beforeAll(async () => {
  box = await testBox({ demo: true, admin: false });
  const hq = await box.agentToken("hq", "hq-demo-2026");
  for (const [k, pin] of [
    ["admin", 1111],
    ["manager", 2222],
    ["employee", 3333],
    ["driver", 4444],
  ] as const)
    t[k] = await box.employeeToken(pin, hq);
  t.shopAdmin = await box.employeeToken(5555, await box.agentToken("birkirkara", "shop-demo-2026"));
  const cat = await ok("POST", "/garmentCategories/", t.admin!, { type: "Laundry", name: "Approval tests" });
  ids.garment = (await ok("POST", "/garmentSubCategories/", t.admin!, { garment_category_id: cat.id, name: "Coat" })).id;
  ids.wash = (await ok("POST", "/actions/", t.admin!, { name: "Wash A", up_charge: 10 })).id;
  ids.press = (await ok("POST", "/actions/", t.admin!, { name: "Press A", up_charge: 10 })).id;
  ids.customer = (await ok("POST", "/customers/", t.employee!, { full_name: "Rita Approval", mobile: "79000111" })).id;
});
afterAll(() => box.close());

describe("manager approval (M4)", () => {
  test("an employee's 100 % ticket discount: 403 alone, refused and counted with a wrong PIN, done with a manager's PIN, and the audit names both", async () => {
    const { ticket } = await ticketWithItem();
    const alone = await api("PUT", `/tickets/${ticket}/discount?discount=100`, t.employee!);
    expect(alone.status).toBe(403);
    expect(alone.json.message).toBe("Manager approval required: a ticket discount above 10 %");
    expect((await ok("GET", `/tickets/${ticket}`, t.employee!)).total).toBe(20);

    // Within the limit needs nobody.
    expect((await ok("PUT", `/tickets/${ticket}/discount?discount=10`, t.employee!)).total).toBe(18);

    // The employee's own PIN, and another shop's manager's PIN, are not an approval; each is counted.
    const before = await pinFailures();
    for (const pin of ["3333", "7777"]) {
      const wrong = await api("PUT", `/tickets/${ticket}/discount?discount=100`, t.employee!, { approval: { pin } });
      expect(wrong.status).toBe(403);
      expect(wrong.json.message).toStartWith("Manager approval refused");
    }
    expect(await pinFailures()).toBe(before + 2);
    expect((await ok("GET", `/tickets/${ticket}`, t.employee!)).discount).toBe("PERCENTAGE 10");

    const approved = await ok("PUT", `/tickets/${ticket}/discount?discount=100`, t.employee!, { approval: { pin: "2222" } });
    expect(approved).toMatchObject({ discount: "PERCENTAGE 100", total: 0 });
    expect(await lastAudit("discount")).toEqual({
      employee_id: await employeeId("Anna Vella"),
      detail: {
        before: "PERCENTAGE 10",
        after: "PERCENTAGE 100",
        approved_by: { id: await employeeId("Joseph Borg"), full_name: "Joseph Borg", role: "manager" },
      },
    });
    // A manager acts on their own session.
    expect((await ok("PUT", `/tickets/${ticket}/discount?discount=50`, t.manager!)).total).toBe(10);
  });

  test("an item discount above the limit and an override below the computed total need approval; pay in full then takes what was actually paid", async () => {
    const { ticket, item } = await ticketWithItem(t.driver);
    expect((await api("PUT", `/ticketSubCategory/${item}`, t.driver!, { discount: 50 })).json.message).toBe(
      "Manager approval required: an item discount above 10 %",
    );
    const zero = await api("PUT", `/ticketSubCategory/${item}`, t.driver!, { total_override: 0 });
    expect(zero.status).toBe(403);
    expect(zero.json.message).toBe("Manager approval required: a total below the computed €20.00");
    // An override above the computed total (a surcharge) is the driver's to make.
    expect((await ok("PUT", `/ticketSubCategory/${item}`, t.driver!, { total_override: 25 })).total_override).toBe(25);
    const approved = await ok("PUT", `/ticketSubCategory/${item}`, t.driver!, { total_override: 12, approval: { pin: 2222 } });
    expect(approved.total_override).toBe(12);
    expect((await lastAudit("total_override")).detail.approved_by.full_name).toBe("Joseph Borg");

    const driver = await employeeId("Mark Farrugia");
    const paid = await ok("PUT", `/tickets/paidFor/${ticket}`, t.driver!);
    expect(paid).toMatchObject({ total: 12, total_paid: 12, balance: 0 });
    const owing = await box.database.client.execute({
      sql: "SELECT amount FROM employee_owings WHERE ticket_id = ? AND employee_id = ?",
      args: [ticket, driver],
    });
    expect(owing.rows.map((r) => Number(r.amount))).toEqual([1200]);
  });

  test("deleting a ticket with items needs a manager (drivers too); an empty draft does not", async () => {
    const { ticket } = await ticketWithItem();
    const del = await api("DELETE", `/tickets/${ticket}`, t.driver!);
    expect(del.status).toBe(403);
    expect(del.json.message).toBe("Manager approval required: deleting a ticket with items");
    expect((await ok("GET", `/tickets/${ticket}`, t.driver!)).id).toBe(ticket);
    expect(await ok("DELETE", `/tickets/${ticket}`, t.driver!, { approval: { pin: "1111" } })).toBe(true);
    expect(await lastAudit("delete")).toMatchObject({
      employee_id: await employeeId("Mark Farrugia"),
      detail: { approved_by: { full_name: "Maria Camilleri", role: "admin" } },
    });

    const empty = await ok("POST", "/tickets/", t.driver!, { customer_id: ids.customer });
    expect(await ok("DELETE", `/tickets/${empty.id}`, t.driver!)).toBe(true);
    const managers = await ticketWithItem();
    expect(await ok("DELETE", `/tickets/${managers.ticket}`, t.manager!)).toBe(true);
  });

  test("removing an item from a confirmed ticket needs approval (no way around the ticket rule)", async () => {
    const { ticket, item } = await ticketWithItem();
    const [draftItem] = await ok("POST", "/ticketSubCategory/", t.employee!, { ticket_id: ticket, garment_sub_category_id: ids.garment });
    expect(await ok("DELETE", `/ticketSubCategory/${draftItem.id}`, t.employee!)).toBe(true);
    await ok("PUT", `/tickets/${ticket}/confirm`, t.employee!);
    expect((await api("DELETE", `/ticketSubCategory/${item}`, t.employee!)).json.message).toBe(
      "Manager approval required: removing an item from a confirmed ticket",
    );
    expect(await ok("DELETE", `/ticketSubCategory/${item}`, t.employee!, { approval: { pin: "2222" } })).toBe(true);
  });

  test("a customer discount above the limit needs approval too", async () => {
    const r = await api("PUT", `/customers/${ids.customer}`, t.employee!, { discount: 40 });
    expect(r.status).toBe(403);
    expect(r.json.message).toBe("Manager approval required: a customer discount above 10 %");
    expect((await api("POST", "/customers/", t.employee!, { full_name: "Free Ride", discount: 100 })).status).toBe(403);
    expect((await ok("PUT", `/customers/${ids.customer}`, t.employee!, { discount: 5 })).discount).toBe(5);
    expect((await ok("PUT", `/customers/${ids.customer}`, t.employee!, { discount: 40, approval: { pin: "2222" } })).discount).toBe(40);
    await ok("PUT", `/customers/${ids.customer}`, t.manager!, { discount: 0 });
  });

  test("the discount limit: staff read it, HQ admins set it (chain-wide), shop admins may not", async () => {
    expect(await ok("GET", "/settings/", t.driver!)).toEqual({ discount_limit: 10 });
    expect((await api("PUT", "/settings/", t.shopAdmin!, { discount_limit: 100 })).status).toBe(403);
    expect((await api("PUT", "/settings/", t.manager!, { discount_limit: 100 })).status).toBe(403);
    expect((await api("PUT", "/settings/", t.admin!, { discount_limit: 101 })).status).toBe(422);
    expect(await ok("PUT", "/settings/", t.admin!, { discount_limit: 20 })).toEqual({ discount_limit: 20 });
    const { ticket } = await ticketWithItem();
    expect((await ok("PUT", `/tickets/${ticket}/discount?discount=20`, t.employee!)).discount).toBe("PERCENTAGE 20");
    expect((await api("PUT", `/tickets/${ticket}/discount?discount=21`, t.employee!)).json.message).toBe(
      "Manager approval required: a ticket discount above 20 %",
    );
    await ok("PUT", "/settings/", t.admin!, { discount_limit: 10 });
  });
});

describe("paid states record the payment (M4)", () => {
  test("a driver sets DELIVERED AND PAID on an unpaid ticket: the balance is paid, as an owing on the driver", async () => {
    const driver = await employeeId("Mark Farrugia");
    const pending = async () =>
      Number((await box.database.client.execute({ sql: "SELECT pending FROM employees WHERE id = ?", args: [driver] })).rows[0]!.pending);
    const { ticket } = await ticketWithItem();
    await ok("PUT", `/tickets/${ticket}/confirm`, t.employee!);
    await ok("PUT", `/ticketSubCategory/paidFor/${(await ok("GET", `/tickets/${ticket}`, t.employee!)).ticket_sub_categories[0].id}/5`, t.employee!);
    const before = await pending();
    expect((await ok("PUT", "/tickets/changeState", t.driver!, { Ids: [ticket], State: "DELIVERED AND PAID" })).success).toBe(true);
    const after = await ok("GET", `/tickets/${ticket}`, t.driver!);
    expect(after).toMatchObject({ state: "DELIVERED AND PAID", total: 20, total_paid: 20, balance: 0 });
    expect(await pending()).toBe(before + 1500);
    const owing = await box.database.client.execute({
      sql: "SELECT amount FROM employee_owings WHERE ticket_id = ? AND employee_id = ?",
      args: [ticket, driver],
    });
    expect(owing.rows.map((r) => Number(r.amount))).toEqual([1500]);
    expect((await lastAudit("payment")).detail).toEqual({ amount_cents: 1500, state: "DELIVERED AND PAID" });

    // Setting it again takes nothing more; a state that does not mean paid takes nothing.
    await ok("PUT", "/tickets/changeState", t.driver!, { Ids: [ticket], State: "CLOSED" });
    expect(await pending()).toBe(before + 1500);
    const other = await ticketWithItem();
    await ok("PUT", "/tickets/changeState", t.driver!, { Ids: [other.ticket], State: "DELIVERED NOT PAID" });
    expect((await ok("GET", `/tickets/${other.ticket}`, t.driver!)).total_paid).toBe(0);
  });

  test("tracking's bulk item state to a paid state takes each item's balance from the one who set it", async () => {
    const { ticket, item } = await ticketWithItem();
    const driver = await employeeId("Mark Farrugia");
    await ok("PUT", "/ticketSubCategory/changeState", t.driver!, { Ids: [item], State: "DELIVERED AND PAID" });
    expect(await ok("GET", `/ticketSubCategory/${item}`, t.driver!)).toMatchObject({ state: "DELIVERED AND PAID", total_paid: 20, balance: 0 });
    expect((await ok("GET", `/tickets/${ticket}`, t.driver!)).total_paid).toBe(20);
    const owing = await box.database.client.execute({
      sql: "SELECT amount, ticket_sub_category_id FROM employee_owings WHERE ticket_id = ? AND employee_id = ?",
      args: [ticket, driver],
    });
    expect(owing.rows.map((r) => [Number(r.amount), Number(r.ticket_sub_category_id)])).toEqual([[2000, item]]);
  });
});

describe("wrong approval PINs lock the shop like wrong login PINs", () => {
  test("five wrong approvals lock PIN login (429); the lock answers the approval too", async () => {
    const own = await testBox({ demo: true, admin: false });
    try {
      const hq = await own.agentToken("hq", "hq-demo-2026");
      const employee = await own.employeeToken(3333, hq);
      const tk = (await own.call("GET", "/api/v1/tickets/?limit=1", { token: employee })).json.data[0].id;
      for (let i = 0; i < 5; i++) {
        expect((await own.call("PUT", `/api/v1/tickets/${tk}/discount?discount=90`, { token: employee, body: { approval: { pin: `90${i}0` } } })).status).toBe(
          403,
        );
      }
      const locked = await own.call("PUT", `/api/v1/tickets/${tk}/discount?discount=90`, { token: employee, body: { approval: { pin: "2222" } } });
      expect(locked.status).toBe(429);
      expect((await own.call("POST", "/api/v1/login/employee", { token: hq, body: { pin: 2222 } })).status).toBe(429);
    } finally {
      own.close();
    }
  });
});
