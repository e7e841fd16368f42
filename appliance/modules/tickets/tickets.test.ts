import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { DONE_STATES } from "../../domain/states";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
let admin: string;
let driver: string;
const ids: Record<string, number> = {};

const api = async (method: string, path: string, body?: unknown, token = admin) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  return r;
};
const ok = async (method: string, path: string, body?: unknown, token = admin) => {
  const r = await api(method, path, body, token);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

beforeAll(async () => {
  box = await testBox();
  const agent = await box.agentToken();
  admin = await box.employeeToken(ADMIN.pin, agent);
  await ok("POST", "/employees/", { full_name: "Driver", role: "driver", pin: 4444 });
  driver = await box.employeeToken(4444, agent);
  ids.dc = (await ok("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 })).id;
  ids.pr = (await ok("POST", "/actions/", { name: "Pressing", up_charge: 4 })).id;
  ids.photo = (await ok("POST", "/actions/", { name: "Repair", up_charge: 15, images_required: true })).id;
  ids.cat = (await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: ids.dc })).id;
  ids.suit = (
    await ok("POST", "/garmentSubCategories/", { garment_category_id: ids.cat, name: "Suit 2pc", pieces: "Jacket,Trousers", show_choose_pieces: true })
  ).id;
  ids.shirt = (await ok("POST", "/garmentSubCategories/", { garment_category_id: ids.cat, name: "Shirt", allow_quantity: true })).id;
  const dcSuit = await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.suit, action_id: ids.dc, price: 12.5 });
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.suit, action_id: ids.pr, price: 60, is_percentage_of: dcSuit.id });
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.shirt, action_id: ids.dc, price: 3 });
  ids.nextDay = (await ok("POST", "/modifiers/", { type: "EXPRESS", name: "Next Day", up_charge: 5 })).id;
  ids.navy = (await ok("POST", "/modifiers/", { type: "COLOR", name: "Navy", image: "color:#1e3a8a" })).id;
  ids.customer = (await ok("POST", "/customers/", { full_name: "Joseph Camilleri", mobile: "79123456", discount: 10 })).id;
});
afterAll(() => box.close());

describe("the counter flow", () => {
  test("open, add items with actions and modifiers, price exactly, confirm, pay", async () => {
    expect((await api("GET", `/tickets/lastnonconfirmed/${ids.customer}`)).status).toBe(404);
    const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
    expect(t).toMatchObject({
      state: "CREATED",
      pickup_date: "2026-11-29",
      delivery_date: "2026-11-29",
      total: 0,
      customer: { full_name: "Joseph Camilleri" },
    });
    expect((await ok("GET", `/tickets/lastnonconfirmed/${ids.customer}`)).id).toBe(t.id);

    // A suit gets its category's default action at the garment price: €12.50.
    const [suit] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.suit });
    expect(suit).toMatchObject({ pieces: "Jacket,Trousers", description: "Suit 2pc", actions: [{ name: "Dry Cleaning", price: 12.5 }] });
    // Pressing for this suit is 60 % of its dry cleaning: €7.50; the express modifier adds €5.
    await ok("POST", "/ticketSubCategoryActions/", { ticket_sub_category_id: suit.id, action_id: ids.pr });
    const withExpress = await ok("POST", "/ticketSubCategoryModifier/", { ticket_sub_category_id: suit.id, modifier_id: ids.nextDay });
    expect(withExpress.has_express).toBe(true);
    // (12.50 + 7.50 + 5.00) less the customer's 10 % = 22.50
    expect(withExpress.total).toBe(22.5);
    expect(withExpress.pre_discount_total).toBe(25);

    // Three shirts in one go; quantity 2 on one: 3.00 × 2 less 10 % = 5.40
    const shirts = await box.call("POST", "/api/v1/ticketSubCategory/?copies=3", {
      token: admin,
      body: { ticket_id: t.id, garment_sub_category_id: ids.shirt },
    });
    expect(shirts.json.data).toHaveLength(3);
    const q2 = await ok("PUT", `/ticketSubCategory/${shirts.json.data[0].id}`, { quantity: 2, comments: "Starch" });
    expect(q2.total).toBe(5.4);
    const ticket = await ok("GET", `/tickets/${t.id}`);
    // 22.50 + 5.40 + 2.70 + 2.70
    expect(ticket.total).toBe(33.3);
    expect(ticket.has_express_item).toBe(true);

    // A 50 % ticket discount on top: each item × 0.5 → 11.25 + 2.70 + 1.35 + 1.35 = 16.65
    expect((await ok("PUT", `/tickets/${t.id}/discount?discount=50`)).total).toBe(16.65);
    expect((await ok("PUT", `/tickets/${t.id}/discount?discount=150`)).discount).toBe("PERCENTAGE 100");
    expect((await ok("PUT", `/tickets/${t.id}/discount?discount=0`)).total).toBe(33.3);

    // An override replaces the item's total in what is owed.
    const ov = await ok("PUT", `/ticketSubCategory/${shirts.json.data[2].id}`, { total_override: 1 });
    expect(ov).toMatchObject({ total: 2.7, total_override: 1 });
    expect((await ok("GET", `/tickets/${t.id}`)).total).toBe(31.6);

    const confirmed = await ok("PUT", `/tickets/${t.id}/confirm`);
    expect(confirmed.state).toBe("");
    expect(confirmed.confirmed_at).toBe("2026-11-22T09:00:00.000Z");
    expect((await api("GET", `/tickets/lastnonconfirmed/${ids.customer}`)).status).toBe(404);

    // Partial payment by a driver, then the rest of the ticket.
    const part = await ok("PUT", `/ticketSubCategory/paidFor/${suit.id}/10`, undefined, driver);
    expect(part).toMatchObject({ total_paid: 10, balance: 12.5 });
    expect((await api("PUT", `/ticketSubCategory/paidFor/${suit.id}/100`, undefined, driver)).status).toBe(422);
    const paid = await ok("PUT", `/tickets/paidFor/${t.id}`, undefined, driver);
    expect(paid).toMatchObject({ total_paid: 31.6, balance: 0 });
    const driverRecord = await ok("GET", "/employees/2");
    expect(driverRecord.pending).toBe(31.6);
    expect((await api("DELETE", `/tickets/${t.id}`)).status).toBe(409);

    const audit = await box.database.client.execute({ sql: "SELECT action FROM audit_log WHERE entity IN ('ticket', 'ticket_sub_category') ORDER BY id" });
    expect(audit.rows.map((r) => r.action)).toEqual(["discount", "discount", "discount", "total_override", "payment", "pay_in_full"]);
  });

  test("validation: pieces, images, duplicates, quantities", async () => {
    const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
    const [suit] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.suit });
    expect((await api("PUT", `/ticketSubCategory/${suit.id}`, { pieces: "" })).json.message).toBe("At least one piece must be selected!");
    expect((await api("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.suit, pieces: " , " })).json.message).toBe(
      "At least one piece must be selected!",
    );
    expect((await api("PUT", `/ticketSubCategory/${suit.id}`, { quantity: 3 })).status).toBe(422);
    expect((await api("POST", "/ticketSubCategoryActions/", { ticket_sub_category_id: suit.id, action_id: ids.photo })).json.message).toBe(
      "Need to select image!",
    );
    expect((await api("POST", "/ticketSubCategoryActions/", { ticket_sub_category_id: suit.id, action_id: ids.photo, override_images: true })).status).toBe(
      200,
    );
    expect((await api("POST", `/ticketSubCategory/duplicate/${suit.id}/quantity/0`)).json.message).toBe("Quantity cannot be less than 1");
    const copies = await ok("POST", `/ticketSubCategory/duplicate/${suit.id}/quantity/2`);
    expect(copies.map((c: { actions: unknown[] }) => c.actions.length)).toEqual([2, 2]);
    expect((await ok("GET", `/tickets/${t.id}`)).total).toBeCloseTo(3 * ((12.5 + 15) * 0.9), 2);
    expect((await api("PUT", `/tickets/${t.id}/confirm`)).status).toBe(200);
    const empty = await ok("POST", "/tickets/", { customer_id: ids.customer });
    expect((await api("PUT", `/tickets/${empty.id}/confirm`)).json.message).toBe("Ticket is empty");
  });

  test("sorting pieces, state changes with one stored signature, express list", async () => {
    const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
    const [suit] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.suit, modifiers: [ids.nextDay] });
    await ok("PUT", `/tickets/${t.id}/confirm`);
    expect((await ok("PUT", `/ticketSubCategory/sorted/${suit.id}?item=Jacket`)).sorted).toBe(false);
    const both = await ok("PUT", `/ticketSubCategory/sorted/${suit.id}?item=Trousers`);
    expect(both).toMatchObject({ sorted: true, sorted_items: "Jacket,Trousers" });
    expect((await ok("PUT", `/ticketSubCategory/sorted/${suit.id}?item=Jacket`)).sorted).toBe(false);
    expect((await api("PUT", `/ticketSubCategory/sorted/${suit.id}?item=Hat`)).status).toBe(422);

    const express = await ok("GET", "/ticketSubCategory/express/");
    expect(express).toContainEqual(expect.objectContaining({ id: suit.id, ticket_id: t.id, express: "Next Day", due_date: "2026-11-23" }));
    expect((await api("GET", "/ticketSubCategory/express/", undefined, driver)).status).toBe(403);

    const sig = `data:image/png;base64,${Buffer.from("signature").toString("base64")}`;
    expect((await api("PUT", "/tickets/changeState", { Ids: [t.id], State: "NOT A STATE" })).status).toBe(422);
    expect((await ok("PUT", "/tickets/changeState", { Ids: [t.id], State: "DELIVERED", Signature: sig })).success).toBe(true);
    const after = await ok("GET", `/tickets/${t.id}`);
    expect(after.state).toBe("DELIVERED");
    expect(after.ticket_sub_categories[0].state).toBe("DELIVERED");
    expect(after.ticket_log_states[0]).toMatchObject({ state: "DELIVERED", signature: sig, employee: "Administrator", agent: "Head Quarters" });
    expect(await ok("GET", `/ticketLogStates/${t.id}`)).toEqual(after.ticket_log_states);
    expect((await ok("GET", "/ticketSubCategory/express/")).map((e: { id: number }) => e.id)).not.toContain(suit.id);
    const sigRows = await box.database.client.execute("SELECT count(*) AS n FROM signatures");
    expect(Number(sigRows.rows[0]!.n)).toBe(1);

    await ok("PUT", "/ticketSubCategory/changeState", { Ids: [suit.id], State: "IN PROGRESS" });
    expect((await ok("GET", `/ticketSubCategory/${suit.id}`)).state).toBe("IN PROGRESS");
  });

  test("a discount of 'PERCENTAGE 12.5' is stored alike by the item and the action routes (one rule: 13)", async () => {
    const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
    const [item] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.shirt });
    expect((await ok("PUT", `/ticketSubCategory/${item.id}`, { discount: "PERCENTAGE 12.5" })).discount).toBe("PERCENTAGE 13");
    expect((await ok("PUT", `/actions/${ids.photo}`, { discount: "PERCENTAGE 12.5" })).discount).toBe("PERCENTAGE 13");
    await ok("DELETE", `/tickets/${t.id}`);
  });

  test("lists hide CREATED tickets; a customer's tickets are all there", async () => {
    const list = await ok("GET", "/tickets/?limit=10");
    expect(list.every((t: { state: string }) => t.state !== "CREATED")).toBe(true);
    // DELIVERED sorts last (the delivered ticket is not the oldest).
    expect(list.at(-1).state).toBe("DELIVERED");
    expect(list.findIndex((t: { state: string }) => t.state === "DELIVERED")).toBe(list.length - 1);
    const mine = await ok("GET", `/tickets/customer/${ids.customer}`);
    expect(mine.length).toBeGreaterThanOrEqual(4);
    const byTerm = await ok("GET", "/tickets/?term=camilleri&withChildren=true");
    expect(byTerm.length).toBeGreaterThan(0);
    expect(byTerm[0].ticket_sub_categories.length).toBeGreaterThan(0);
    const stats = await ok("GET", `/customers/${ids.customer}`);
    expect(stats.number_of_visits).toBe(3);
  });

  test("tab and confirmed_at=false pick a part of the list; notState hides CLOSED; a bad tab is a 422", async () => {
    const closed = await ok("POST", "/tickets/", { customer_id: ids.customer });
    await ok("POST", "/ticketSubCategory/", { ticket_id: closed.id, garment_sub_category_id: ids.shirt });
    await ok("PUT", `/tickets/${closed.id}/confirm`);
    await ok("PUT", "/tickets/changeState", { Ids: [closed.id], State: "CLOSED" });
    const open = await ok("POST", "/tickets/", { customer_id: ids.customer });
    const states = (l: { state: string }[]) => new Set(l.map((t) => t.state));
    // Unconfirmed tickets are still CREATED: confirmed_at=false (or tab=unconfirmed) lists them, and only them.
    for (const q of ["confirmed_at=false", "tab=unconfirmed"]) {
      const unconfirmed = await ok("GET", `/tickets/?limit=200&${q}`);
      expect(unconfirmed.some((t: { id: number }) => t.id === open.id)).toBe(true);
      expect(unconfirmed.every((t: { confirmed_at: string | null }) => t.confirmed_at === null)).toBe(true);
    }
    const all = await ok("GET", "/tickets/?limit=200");
    expect(all.some((t: { id: number }) => t.id === open.id)).toBe(false);
    const done = await ok("GET", "/tickets/?limit=200&tab=done");
    expect(done.length).toBeGreaterThan(0);
    expect([...states(done)].every((s) => DONE_STATES.includes(s))).toBe(true);
    const notDone = await ok("GET", "/tickets/?limit=200&tab=open");
    expect(notDone.length).toBeGreaterThan(0);
    expect([...states(notDone)].some((s) => DONE_STATES.includes(s) || s === "CREATED")).toBe(false);
    expect(notDone.length + done.length).toBe(all.length);
    expect(states(all).has("CLOSED")).toBe(true);
    const noClosed = await ok("GET", "/tickets/?limit=200&notState=CLOSED");
    expect(noClosed.length).toBe(all.length - 1);
    expect(states(noClosed).has("CLOSED")).toBe(false);
    const bad = await api("GET", "/tickets/?tab=everything");
    expect(bad.status).toBe(422);
  });
});

describe("scoping and retries", () => {
  test("another shop cannot see or change this shop's tickets and items", async () => {
    const t = await ok("POST", "/tickets/", { customer_id: ids.customer });
    const [item] = await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.shirt });
    const shop = await ok("POST", "/agents/", { name: "Mosta shop", user_name: "mosta-t" });
    await ok("PUT", `/agents/password/${shop.id}`, { password: "mosta-pass-t" });
    await ok("POST", "/employees/", { agent_id: shop.id, full_name: "Mosta clerk", role: "employee", pin: 7001 });
    const other = await box.employeeToken(7001, await box.agentToken("mosta-t", "mosta-pass-t"));
    for (const [method, path, body] of [
      ["GET", `/tickets/${t.id}`],
      ["GET", `/tickets/children/${t.id}`],
      ["GET", `/ticketLogStates/${t.id}`],
      ["PUT", `/tickets/${t.id}/confirm`],
      ["PUT", `/tickets/paidFor/${t.id}`],
      ["DELETE", `/tickets/${t.id}`],
      ["GET", `/ticketSubCategory/${item.id}`],
      ["PUT", `/ticketSubCategory/${item.id}`, { comments: "x" }],
      ["PUT", "/tickets/changeState", { Ids: [t.id], State: "CLOSED" }],
      ["PUT", "/ticketSubCategory/changeState", { Ids: [item.id], State: "CLOSED" }],
      ["POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.shirt }],
      ["POST", "/tickets/", { customer_id: ids.customer }],
    ] as const) {
      const r = await api(method, path, body, other);
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await ok("GET", "/tickets/?limit=200", undefined, other)).length).toBe(0);
    expect((await ok("GET", `/ticketSubCategory/${item.id}`)).state).toBe("CREATED");
  });

  test("a retried create with the same Idempotency-Key makes one ticket and one item", async () => {
    const headers = { "idempotency-key": "retry-ticket-1" };
    const a = await box.call("POST", "/api/v1/tickets/", { token: admin, body: { customer_id: ids.customer }, headers });
    const b = await box.call("POST", "/api/v1/tickets/", { token: admin, body: { customer_id: ids.customer }, headers });
    expect(b.json.data.id).toBe(a.json.data.id);
    const itemHeaders = { "idempotency-key": "retry-item-1" };
    const body = { ticket_id: a.json.data.id, garment_sub_category_id: ids.shirt };
    await box.call("POST", "/api/v1/ticketSubCategory/", { token: admin, body, headers: itemHeaders });
    await box.call("POST", "/api/v1/ticketSubCategory/", { token: admin, body, headers: itemHeaders });
    expect((await ok("GET", `/tickets/${a.json.data.id}`)).ticket_sub_categories).toHaveLength(1);
  });

  test("bad input: unknown ids, wrong types, out-of-range amounts", async () => {
    expect((await api("POST", "/tickets/", { customer_id: 987654 })).status).toBe(422);
    expect((await api("POST", "/tickets/", { customer_id: "one" })).status).toBe(422);
    expect((await api("GET", "/tickets/987654")).status).toBe(404);
    expect((await api("PUT", "/tickets/1/pickup?date=2026-02-30")).status).toBe(422);
    expect((await api("PUT", "/ticketSubCategory/paidFor/1/-5")).status).toBe(422);
    expect((await api("POST", "/ticketSubCategory/?copies=0", { ticket_id: 1, garment_sub_category_id: ids.shirt })).status).toBe(422);
    expect((await api("PUT", "/tickets/changeState", { Ids: [], State: "CLOSED" })).status).toBe(422);
    expect((await api("PUT", "/tickets/changeState", { Ids: [1], State: "CLOSED", Signature: "javascript:alert(1)" })).status).toBe(422);
  });
});
