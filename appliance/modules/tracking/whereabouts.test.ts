import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

// Issue 25 "Where is it?": racks (item locations) and the unclaimed list, scoped to the caller's shop.
let box: TestBox;
let admin: string;
let clerk: string;
let driver: string;
let otherClerk: string;
const ids: Record<string, number> = {};

const api = (method: string, path: string, body: unknown, token: string) => box.call(method, `/api/v1${path}`, { token, body });
const ok = async (method: string, path: string, body: unknown, token: string) => {
  const r = await api(method, path, body, token);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

/** Sessions expire: after the clock moves, everyone logs in again. */
async function login() {
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  if (!ids.mosta) return;
  clerk = await box.employeeToken(5102, await box.agentToken("mosta-r", "mosta-r-pass"));
  driver = await box.employeeToken(5103, await box.agentToken("mosta-r", "mosta-r-pass"));
  otherClerk = await box.employeeToken(5201, await box.agentToken("bkara-r", "bkara-r-pass"));
}

/** A confirmed ticket of the token's shop with two shirts. */
async function ticket(token: string, customer = ids.customer) {
  const t = await ok("POST", "/tickets/", { customer_id: customer }, token);
  for (let n = 0; n < 2; n++) await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: ids.shirt }, token);
  await ok("PUT", `/tickets/${t.id}/confirm`, undefined, token);
  return (await ok("GET", `/tickets/${t.id}`, undefined, token)) as { id: number; ticket_sub_categories: { id: number; location: string }[] };
}

beforeAll(async () => {
  box = await testBox();
  await login();
  for (const [key, name, user] of [
    ["mosta", "Mosta", "mosta-r"],
    ["bkara", "B Kara", "bkara-r"],
  ] as const) {
    const shop = await ok("POST", "/agents/", { name, user_name: user }, admin);
    await ok("PUT", `/agents/password/${shop.id}`, { password: `${user}-pass` }, admin);
    ids[key] = shop.id;
  }
  await ok("POST", "/employees/", { agent_id: ids.mosta, full_name: "Carl Clerk", role: "employee", pin: 5102 }, admin);
  await ok("POST", "/employees/", { agent_id: ids.mosta, full_name: "Dan Driver", role: "driver", pin: 5103 }, admin);
  await ok("POST", "/employees/", { agent_id: ids.bkara, full_name: "Olga Other", role: "employee", pin: 5201 }, admin);
  await login();
  const dc = (await ok("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 }, admin)).id;
  const cat = (await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Shirts", default_action_id: dc }, admin)).id;
  ids.shirt = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Shirt" }, admin)).id;
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids.shirt, action_id: dc, price: 3 }, admin);
  ids.customer = (await ok("POST", "/customers/", { full_name: "Joseph Camilleri", mobile: "79123456", email_address: "joe@example.com" }, clerk)).id;
  ids.otherCustomer = (await ok("POST", "/customers/", { full_name: "Other Shop Customer", mobile: "79000000" }, otherClerk)).id;
});
afterAll(() => box.close());

const place = (body: unknown, token = clerk) => api("PUT", "/ticketSubCategory/location", body, token);

describe("racks: item locations", () => {
  test("items by id and a whole ticket go on a rack; the ticket view and the ticket list show it", async () => {
    const a = await ticket(clerk);
    const b = await ticket(clerk);
    const one = a.ticket_sub_categories[0]!.id;
    const r = await place({ Ids: [one], location: "  Rack   A3 " });
    expect(r.status).toBe(200);
    expect(r.json.data.items).toEqual([{ id: one, ticket_id: a.id, location: "Rack A3" }]);
    await ok("PUT", "/ticketSubCategory/location", { ticket_ids: [b.id], location: "Rack B1" }, clerk);
    const view = await ok("GET", `/tickets/${b.id}`, undefined, clerk);
    expect(view.ticket_sub_categories.map((i: { location: string }) => i.location)).toEqual(["Rack B1", "Rack B1"]);
    expect(await ok("GET", `/tickets/locations?ids=${a.id},${b.id}`, undefined, clerk)).toEqual([
      { ticket_id: a.id, locations: ["Rack A3"] },
      { ticket_id: b.id, locations: ["Rack B1"] },
    ]);
    // "" takes them off the rack; a driver (any staff role) may bag and place too.
    await ok("PUT", "/ticketSubCategory/location", { Ids: [one], location: "" }, driver);
    expect(await ok("GET", `/tickets/locations?ids=${a.id}`, undefined, clerk)).toEqual([]);
  });

  test("attack: another shop's items or ticket are refused (404) and nothing is written; control: its own shop's work", async () => {
    const mine = await ticket(clerk);
    const theirs = await ticket(otherClerk, ids.otherCustomer);
    const their = theirs.ticket_sub_categories[0]!.id;
    // Mixed with an item of its own: all or nothing.
    const mixed = await place({ Ids: [mine.ticket_sub_categories[0]!.id, their], location: "Stolen" });
    expect(mixed.status).toBe(404);
    expect(mixed.json.message).toBe("Item not found");
    expect((await place({ ticket_ids: [theirs.id], location: "Stolen" })).status).toBe(404);
    expect((await place({ Ids: [99_999_999], location: "X" })).status).toBe(404);
    const after = await ok("GET", `/tickets/${mine.id}`, undefined, clerk);
    expect(after.ticket_sub_categories[0].location).toBe("");
    const still = await ok("GET", `/tickets/${theirs.id}`, undefined, otherClerk);
    expect(still.ticket_sub_categories.map((i: { location: string }) => i.location)).toEqual(["", ""]);
    // Their ticket's locations are not listed to this shop.
    await ok("PUT", "/ticketSubCategory/location", { ticket_ids: [theirs.id], location: "Their rack" }, otherClerk);
    expect(await ok("GET", `/tickets/locations?ids=${theirs.id}`, undefined, clerk)).toEqual([]);
    // Control: the owner shop and HQ may.
    expect((await place({ Ids: [their], location: "Their rack 2" }, otherClerk)).status).toBe(200);
    expect((await place({ Ids: [mine.ticket_sub_categories[0]!.id], location: "Mine" })).status).toBe(200);
  });

  test("bounds: a location is one line of at most 40 characters, and something must be chosen", async () => {
    const t = await ticket(clerk);
    const item = t.ticket_sub_categories[0]!.id;
    const long = await place({ Ids: [item], location: "x".repeat(41) });
    expect(long.status).toBe(422);
    expect(long.json.message).toContain("at most 40");
    expect(JSON.stringify(long.json)).not.toContain("x".repeat(41));
    // One line: a line break or tab is refused (other control characters never arrive: the HTTP layer drops them).
    expect((await place({ Ids: [item], location: "A\nB" })).status).toBe(422);
    expect((await place({ Ids: [item], location: "A\tB" })).status).toBe(422);
    expect((await place({ Ids: [item], location: "A\u0001B" })).json.data.items[0].location).toBe("AB");
    expect((await place({ location: "A1" })).status).toBe(422);
    expect((await place({ Ids: Array.from({ length: 501 }, (_, i) => i + 1), location: "A1" })).status).toBe(422);
    expect((await place({ Ids: [item], location: 5 })).status).toBe(422);
    expect((await api("GET", "/tickets/locations?ids=1;DROP", undefined, clerk)).status).toBe(422);
    // Control: 40 characters and Maltese letters are fine.
    expect((await place({ Ids: [item], location: `Ħaż-Żebbuġ ${"y".repeat(29)}` })).status).toBe(200);
  });
});

describe("unclaimed", () => {
  test("a ready item not collected for more than 30 days is listed with the contact; 60 days is not yet; another shop's never", async () => {
    box.clock.set("2026-09-01T09:00:00Z");
    await login();
    const old = await ticket(clerk);
    const theirs = await ticket(otherClerk, ids.otherCustomer);
    await ok("PUT", "/ticketSubCategory/changeState", { Ids: old.ticket_sub_categories.map((i) => i.id), State: "AWAITING DELIVERY" }, clerk);
    await ok("PUT", "/ticketSubCategory/location", { ticket_ids: [old.id], location: "Rack C2" }, clerk);
    await ok("PUT", "/ticketSubCategory/changeState", { Ids: theirs.ticket_sub_categories.map((i) => i.id), State: "AWAITING DELIVERY" }, otherClerk);
    box.clock.set("2026-10-20T09:00:00Z"); // 49 days on
    await login();
    const fresh = await ticket(clerk);
    await ok("PUT", "/ticketSubCategory/changeState", { Ids: fresh.ticket_sub_categories.map((i) => i.id), State: "AWAITING DELIVERY" }, clerk);

    const list = await ok("GET", "/ticketSubCategory/unclaimed?days=30", undefined, clerk);
    expect(list.items.map((i: { id: number }) => i.id)).toEqual(old.ticket_sub_categories.map((i) => i.id));
    expect(list.items[0]).toMatchObject({
      ticket_id: old.id,
      location: "Rack C2",
      days: 49,
      balance: 3,
      customer_name: "Joseph Camilleri",
      mobile: "79123456",
      email_address: "joe@example.com",
      no_messages: false,
    });
    expect((await ok("GET", "/ticketSubCategory/unclaimed?days=60", undefined, clerk)).items).toEqual([]);
    // Collected (delivered) items leave the list.
    await ok("PUT", "/ticketSubCategory/changeState", { Ids: [old.ticket_sub_categories[0]!.id], State: "DELIVERED" }, clerk);
    expect((await ok("GET", "/ticketSubCategory/unclaimed", undefined, clerk)).items).toHaveLength(1);
    // HQ sees every shop's.
    expect((await ok("GET", "/ticketSubCategory/unclaimed?days=30", undefined, admin)).items).toHaveLength(3);
  });

  test("bounds and roles: days is a whole number of 1..3650; drivers do not get the list", async () => {
    for (const d of ["0", "-5", "abc", "99999", "1.5"]) expect((await api("GET", `/ticketSubCategory/unclaimed?days=${d}`, undefined, clerk)).status).toBe(422);
    expect((await api("GET", "/ticketSubCategory/unclaimed", undefined, driver)).status).toBe(403);
  });
});
