import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { score, trigrams } from "./search";
import { splitName } from "./service";

let box: TestBox;
let admin: string;
let clerk: string;
let locality: number;
let street: number;
beforeAll(async () => {
  box = await testBox();
  const agent = await box.agentToken();
  admin = await box.employeeToken(ADMIN.pin, agent);
  await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Clerk", role: "employee", pin: 3333 } });
  clerk = await box.employeeToken(3333, agent);
  locality = (await box.call("POST", "/api/v1/localities/", { token: admin, body: { name: "Mosta" } })).json.data.id;
  street = (await box.call("POST", "/api/v1/streets/", { token: admin, body: { locality_id: locality, name: "Triq il-Kbira" } })).json.data.id;
  for (const [full_name, mobile, email_address] of [
    ["Joseph Camilleri", "79123456", "joe@camilleri.mt"],
    ["Maria Borg", "99887766", "maria.borg@example.com"],
    ["Anthony Vella", "79000111", ""],
    ["Rita Camilleri Zammit", "79555444", ""],
  ]) {
    await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name, mobile, email_address, title: "Mr." } });
  }
});
afterAll(() => box.close());

const search = async (term: string, token = clerk) =>
  (await box.call("GET", `/api/v1/customers/?limit=20&term=${encodeURIComponent(term)}`, { token })).json.data.map((c: { full_name: string }) => c.full_name);

describe("search", () => {
  test("partial words, any case, any field", async () => {
    expect(await search("camil")).toEqual(["Joseph Camilleri", "Rita Camilleri Zammit"]);
    expect(await search("BORG")).toEqual(["Maria Borg"]);
    expect(await search("887766")).toEqual(["Maria Borg"]);
    expect(await search("joe@")).toEqual(["Joseph Camilleri"]);
    expect(await search("ve")).toEqual(["Anthony Vella"]);
  });

  test("small typos still find the customer", async () => {
    expect(await search("Camileri")).toContain("Joseph Camilleri");
    expect(await search("Antony Vella")).toEqual(["Anthony Vella"]);
    expect(await search("zzzqqq")).toEqual([]);
  });

  test("the index follows updates and deletes", async () => {
    const created = await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name: "Temporary Person" } });
    expect(await search("temporary")).toEqual(["Temporary Person"]);
    await box.call("PUT", `/api/v1/customers/${created.json.data.id}`, { token: clerk, body: { full_name: "Renamed Someone" } });
    expect(await search("temporary")).toEqual([]);
    expect(await search("renamed")).toEqual(["Renamed Someone"]);
    await box.call("DELETE", `/api/v1/customers/${created.json.data.id}`, { token: admin });
    expect(await search("renamed")).toEqual([]);
  });

  test("scoring helpers", () => {
    expect(trigrams("Ab cd")).toEqual(["ab ", "b c", " cd"]);
    expect(score("camil", ["Joseph Camilleri"])).toBeGreaterThan(0.9);
    expect(score("camileri", ["Joseph Camilleri"])).toBeGreaterThan(0.5);
    expect(score("xyz", ["Joseph Camilleri"])).toBe(0);
    expect(splitName("  Maria   de Battista ")).toEqual({ first_name: "Maria", last_name: "de Battista" });
    expect(splitName("Cher")).toEqual({ first_name: "Cher", last_name: "" });
  });
});

describe("customers", () => {
  test("create with an address, read with names split, existence lookup, preferences", async () => {
    const addr = await box.call("POST", "/api/v1/address/", {
      token: clerk,
      body: { number: "5", name: "Dar il-Paci", locality_id: locality, street_id: street },
    });
    expect(addr.json.data.line).toBe("5, Dar il-Paci, Triq il-Kbira, Mosta");
    expect((await box.call("POST", "/api/v1/address/", { token: clerk, body: { locality_id: locality, street_id: 0 } })).json.message).toBe("Invalid Address");
    const c = await box.call("POST", "/api/v1/customers/", {
      token: clerk,
      body: { full_name: "Carmen Spiteri", title: "Mrs.", mobile: "79112233", address_id: addr.json.data.id, date_of_birth: "1980-02-29" },
    });
    expect(c.json.data).toMatchObject({ first_name: "Carmen", last_name: "Spiteri", agent_id: 1 });
    const got = await box.call("GET", `/api/v1/customers/${c.json.data.id}`, { token: clerk });
    expect(got.json.data.address.line).toBe("5, Dar il-Paci, Triq il-Kbira, Mosta");
    expect(got.json.data.turnover_rank).toBeUndefined(); // statistics are admin-only
    expect(got.json.data.ticket_total).toBe(0);

    const hit = await box.call("GET", "/api/v1/customers?mobile=79112233", { token: clerk });
    expect(hit.json.data.id).toBe(c.json.data.id);
    expect((await box.call("GET", "/api/v1/customers?mobile=70000000", { token: clerk })).status).toBe(404);

    const prefs = [
      (await box.call("POST", "/api/v1/preferences/", { token: admin, body: { name: "Hanger" } })).json.data.id,
      (await box.call("POST", "/api/v1/preferences/", { token: admin, body: { name: "Folded" } })).json.data.id,
    ];
    await box.call("POST", "/api/v1/customerPreferences/bulk", { token: clerk, body: { customer_id: c.json.data.id, preferences: prefs } });
    await box.call("POST", "/api/v1/customerPreferences/bulk", { token: clerk, body: { customer_id: c.json.data.id, preferences: [prefs[1]] } });
    expect((await box.call("GET", `/api/v1/customerPreferences/customers/${c.json.data.id}`, { token: clerk })).json.data).toEqual([
      { customer_id: c.json.data.id, preference_id: prefs[1] },
    ]);
    expect((await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name: "Bad Date", date_of_birth: "1981-02-30" } })).status).toBe(422);
    expect((await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name: "Bad Mobile", mobile: "abc" } })).status).toBe(422);
  });

  test("statistics and ranks follow tickets; a customer with a ticket total cannot be deleted", async () => {
    const a = (await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name: "Big Spender" } })).json.data.id;
    const b = (await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name: "Small Spender" } })).json.data.id;
    const c = box.database.client;
    // What was paid is a payment row: its trigger raises total_paid (the database refuses a total written by hand).
    const pay = (ticket: number, amount: number) =>
      c.execute({
        sql: "INSERT INTO payments (ticket_id, agent_id, employee_id, amount, tender, taken_at, till_day) VALUES (?, 1, 1, ?, 'cash', '2026-11-20T10:00:00.000Z', '2026-11-20')",
        args: [ticket, amount],
      });
    const ticket = async (cust: number, total: number, paid: number, confirmed: string | null) => {
      const r = await c.execute({
        sql: "INSERT INTO tickets (agent_id, employee_id, customer_id, total, confirmed_at) VALUES (1, 1, ?, ?, ?) RETURNING id",
        args: [cust, total, confirmed],
      });
      if (paid) await pay(Number(r.rows[0]!.id), paid);
      return r;
    };
    await ticket(a, 5000, 5000, "2026-11-01T10:00:00.000Z");
    const t2 = Number((await ticket(a, 3000, 1000, "2026-11-20T10:00:00.000Z")).rows[0]!.id);
    await ticket(a, 999, 0, null); // not confirmed: no visit, no balance
    await ticket(b, 1000, 1000, "2026-10-01T10:00:00.000Z");
    const stats = async (id: number) => (await box.call("GET", `/api/v1/customers/${id}`, { token: admin })).json.data;
    expect(await stats(a)).toMatchObject({
      number_of_visits: 2,
      total_spent: 60,
      ticket_total: 89.99,
      outstanding_balance: 20,
      last_visit: "2026-11-20T10:00:00.000Z",
      turnover_rank: 1,
      visit_rank: 1,
    });
    expect(await stats(b)).toMatchObject({ number_of_visits: 1, total_spent: 10, turnover_rank: 2, visit_rank: 2 });
    await pay(t2, 2000);
    expect((await stats(a)).outstanding_balance).toBe(0);
    const fresh = (await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name: "No Visits" } })).json.data.id;
    expect(await stats(fresh)).toMatchObject({ turnover_rank: -1, visit_rank: -1, ticket_total: 0 });

    const del = await box.call("DELETE", `/api/v1/customers/${a}`, { token: admin });
    expect(del.status).toBe(409);
    expect((await box.call("DELETE", `/api/v1/customers/${fresh}`, { token: admin })).json.data).toBe(true);
    expect((await box.call("DELETE", `/api/v1/customers/${b}`, { token: clerk })).status).toBe(403);
  });

  test("one save: customer, address and preferences in one transaction with their audit rows", async () => {
    const c = box.database.client;
    const counts = async () => {
      const n = async (sql: string) => Number((await c.execute(sql)).rows[0]![0]);
      return {
        customers: await n("SELECT count(*) FROM customers"),
        addresses: await n("SELECT count(*) FROM addresses"),
        prefs: await n("SELECT count(*) FROM customer_preferences"),
        audit: await n("SELECT count(*) FROM audit_log"),
      };
    };
    const pref = (await box.call("POST", "/api/v1/preferences/", { token: admin, body: { name: "Starch" } })).json.data.id;
    const address = { number: "12", name: "", locality_id: locality, street_id: street };

    // An unknown preference with a valid customer and address: refused, and nothing written.
    const before = await counts();
    const bad = await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name: "Half Saved", address, preferences: [pref, 999999] } });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toContain("preferences");
    expect(await counts()).toEqual(before);
    // An invalid address: refused before anything is written too.
    expect(
      (
        await box.call("POST", "/api/v1/customers/", {
          token: clerk,
          body: { full_name: "Half Saved", address: { ...address, street_id: 0 }, preferences: [pref] },
        })
      ).status,
    ).toBe(422);
    expect(await counts()).toEqual(before);

    const made = await box.call("POST", "/api/v1/customers/", { token: clerk, body: { full_name: "Whole Saved", address, preferences: [pref] } });
    expect(made.status).toBe(200);
    const id = made.json.data.id;
    const got = (await box.call("GET", `/api/v1/customers/${id}`, { token: clerk })).json.data;
    expect(got.address.line).toBe("12, Triq il-Kbira, Mosta");
    expect(got.preferences).toEqual([pref]);
    const trail = await c.execute({ sql: "SELECT entity, action FROM audit_log WHERE id > (SELECT max(id) - 2 FROM audit_log) ORDER BY id" });
    expect(trail.rows.map((r) => `${r.entity} ${r.action}`)).toEqual(["address create", "customer create"]);

    // An update edits the address it has and replaces the preferences; a failure leaves all three as they were.
    const mid = await counts();
    const failed = await box.call("PUT", `/api/v1/customers/${id}`, {
      token: clerk,
      body: { full_name: "Renamed Whole", address: { ...address, number: "99" }, preferences: [999999] },
    });
    expect(failed.status).toBe(422);
    expect(await counts()).toEqual(mid);
    const still = (await box.call("GET", `/api/v1/customers/${id}`, { token: clerk })).json.data;
    expect([still.full_name, still.address.number, still.preferences]).toEqual(["Whole Saved", "12", [pref]]);

    const ok = await box.call("PUT", `/api/v1/customers/${id}`, {
      token: clerk,
      body: { full_name: "Renamed Whole", address: { ...address, number: "99" }, preferences: [] },
    });
    expect(ok.status).toBe(200);
    const after = (await box.call("GET", `/api/v1/customers/${id}`, { token: clerk })).json.data;
    expect([after.full_name, after.address.id, after.address.number, after.preferences]).toEqual(["Renamed Whole", got.address.id, "99", []]);
    expect((await counts()).addresses).toBe(mid.addresses);
    // An address is named by its id or by its fields, not both.
    expect((await box.call("PUT", `/api/v1/customers/${id}`, { token: clerk, body: { address_id: got.address.id, address } })).status).toBe(422);
  });

  test("a shop sees only its own customers", async () => {
    const shop = await box.call("POST", "/api/v1/agents/", { token: admin, body: { name: "Shop", user_name: "shopx" } });
    await box.call("PUT", `/api/v1/agents/password/${shop.json.data.id}`, { token: admin, body: { password: "shop-pass-x" } });
    await box.call("POST", "/api/v1/employees/", { token: admin, body: { agent_id: shop.json.data.id, full_name: "Shop clerk", role: "employee", pin: 4321 } });
    const shopClerk = await box.employeeToken(4321, await box.agentToken("shopx", "shop-pass-x"));
    await box.call("POST", "/api/v1/customers/", { token: shopClerk, body: { full_name: "Shop Customer Camilleri" } });
    expect(await search("camilleri", shopClerk)).toEqual(["Shop Customer Camilleri"]);
    expect((await search("camilleri", admin)).length).toBe(3);
    expect((await box.call("GET", "/api/v1/customers/1", { token: shopClerk })).status).toBe(404);
  });
});
