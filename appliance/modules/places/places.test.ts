import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/** Addresses belong to a shop (HQ sees all); localities, streets and preferences are HQ's to change. */
let box: TestBox;
let hq: string;
let birkirkara: string;
let birkirkaraClerk: string;
let mosta: string;
let locality: { id: number; name: string };
let street: { id: number };
beforeAll(async () => {
  box = await testBox({ demo: true });
  hq = await box.employeeToken(ADMIN.pin);
  const bkara = await box.agentToken("birkirkara", "shop-demo-2026");
  birkirkara = await box.employeeToken("5555", bkara);
  birkirkaraClerk = await box.employeeToken("6666", bkara);
  mosta = await box.employeeToken("7777", await box.agentToken("mosta", "shop-demo-2026"));
  [locality] = (await box.call("GET", "/api/v1/localities/", { token: birkirkara })).json.data;
  [street] = (await box.call("GET", `/api/v1/streets/locality/${locality!.id}`, { token: birkirkara })).json.data;
});
afterAll(() => box.close());

const newAddress = async (token: string, name: string) => {
  const r = await box.call("POST", "/api/v1/address/", { token, body: { number: "7", name, locality_id: locality.id, street_id: street.id } });
  expect(r.status).toBe(200);
  return r.json.data.id as number;
};
const count = async (sql: string, args: (number | string)[] = []) => Number((await box.database.client.execute({ sql, args })).rows[0]![0]);

describe("addresses belong to the shop that made them", () => {
  test("another shop's address answers 404 to reads and updates and is left out of lists; the owner and HQ see it", async () => {
    const id = await newAddress(birkirkaraClerk, "Dar Ċikku");
    expect(await count("SELECT agent_id FROM addresses WHERE id = ?", [id])).toBe(2);
    expect((await box.call("GET", `/api/v1/address/${id}`, { token: birkirkara })).json.data.line).toContain("Dar Ċikku");
    expect((await box.call("PUT", `/api/v1/address/${id}`, { token: birkirkaraClerk, body: { number: "9" } })).json.data.number).toBe("9");
    expect((await box.call("GET", `/api/v1/address/${id}`, { token: mosta })).status).toBe(404);
    expect((await box.call("PUT", `/api/v1/address/${id}`, { token: mosta, body: { name: "Taken over" } })).status).toBe(404);
    expect((await box.call("GET", `/api/v1/address/?ids=${id}`, { token: mosta })).json.data).toEqual([]);
    expect((await box.call("GET", "/api/v1/address/", { token: mosta })).json.data.map((a: { id: number }) => a.id)).not.toContain(id);
    expect((await box.call("GET", `/api/v1/address/${id}`, { token: hq })).json.data.name).toBe("Dar Ċikku");
  });

  test("a customer cannot be pointed at another shop's address (404, nothing written), so that grants nothing", async () => {
    const theirs = await newAddress(birkirkara, "Birkirkara home");
    const customers = await count("SELECT count(*) FROM customers");
    const created = await box.call("POST", "/api/v1/customers/", { token: mosta, body: { full_name: "Ċikku Borg", address_id: theirs } });
    expect(created.status).toBe(404);
    expect(created.json.message).toBe("Address not found");
    expect(await count("SELECT count(*) FROM customers")).toBe(customers);

    const mine = (await box.call("POST", "/api/v1/customers/", { token: mosta, body: { full_name: "Ċikku Borg" } })).json.data;
    expect((await box.call("PUT", `/api/v1/customers/${mine.id}`, { token: mosta, body: { address_id: theirs, full_name: "Changed" } })).status).toBe(404);
    const after = (await box.call("GET", `/api/v1/customers/${mine.id}`, { token: mosta })).json.data;
    expect(after).toMatchObject({ full_name: "Ċikku Borg", address_id: null, address: null });
    // Still another shop's: no read, no write.
    expect((await box.call("GET", `/api/v1/address/${theirs}`, { token: mosta })).status).toBe(404);
    expect((await box.call("PUT", `/api/v1/address/${theirs}`, { token: mosta, body: { name: "Rewritten" } })).status).toBe(404);
    expect((await box.call("GET", `/api/v1/address/${theirs}`, { token: birkirkara })).json.data.name).toBe("Birkirkara home");

    // Control: a shop's own address works, and the customer embeds it.
    const own = await newAddress(mosta, "Mosta home");
    expect((await box.call("PUT", `/api/v1/customers/${mine.id}`, { token: mosta, body: { address_id: own } })).status).toBe(200);
    expect((await box.call("GET", `/api/v1/customers/${mine.id}`, { token: mosta })).json.data.address.name).toBe("Mosta home");
  });

  test("a customer record never embeds an address its shop may not see (rows from before owners)", async () => {
    const theirs = await newAddress(birkirkara, "Legacy link");
    const mine = (await box.call("POST", "/api/v1/customers/", { token: mosta, body: { full_name: "Legacy Customer" } })).json.data;
    await box.database.client.execute({ sql: "UPDATE customers SET address_id = ? WHERE id = ?", args: [theirs, mine.id] });
    expect((await box.call("GET", `/api/v1/customers/${mine.id}`, { token: mosta })).json.data.address).toBeNull();
    expect((await box.call("GET", `/api/v1/customers/${mine.id}`, { token: hq })).json.data.address.name).toBe("Legacy link");
    // Saving the customer with the link it already has is no new reference.
    expect((await box.call("PUT", `/api/v1/customers/${mine.id}`, { token: mosta, body: { full_name: "Legacy Renamed", address_id: theirs } })).status).toBe(
      200,
    );
  });

  test("a ticket's pickup or delivery address must be the shop's own (404, no ticket); its own works", async () => {
    const theirs = await newAddress(birkirkara, "Pickup elsewhere");
    const own = await newAddress(mosta, "Pickup here");
    const customer = (await box.call("POST", "/api/v1/customers/", { token: mosta, body: { full_name: "Ticket Customer" } })).json.data;
    const tickets = await count("SELECT count(*) FROM tickets");
    for (const body of [{ pickup_address_id: theirs }, { delivery_address_id: theirs }]) {
      const r = await box.call("POST", "/api/v1/tickets/", { token: mosta, body: { customer_id: customer.id, ...body } });
      expect(r.status).toBe(404);
    }
    expect(await count("SELECT count(*) FROM tickets")).toBe(tickets);
    const ok = await box.call("POST", "/api/v1/tickets/", {
      token: mosta,
      body: { customer_id: customer.id, pickup_address_id: own, delivery_address_id: own },
    });
    expect(ok.status).toBe(200);
  });

  test("an HQ address that HQ gives to a shop's customer passes to that shop", async () => {
    const id = await newAddress(hq, "Given by HQ");
    const mostaId = (await box.call("GET", "/api/v1/me", { token: mosta })).json.data.agent.id;
    const c = await box.call("POST", "/api/v1/customers/", { token: hq, body: { full_name: "Placed by HQ", agent_id: mostaId, address_id: id } });
    expect(c.status).toBe(200);
    expect((await box.call("GET", `/api/v1/customers/${c.json.data.id}`, { token: mosta })).json.data.address.name).toBe("Given by HQ");
  });
});

describe("localities, streets and preferences are written by head-quarters staff only", () => {
  test("a shop admin reads them but cannot add, rename or remove (403, nothing changed); HQ can, and each change is audited", async () => {
    const before =
      (await count("SELECT count(*) FROM localities")) + (await count("SELECT count(*) FROM streets")) + (await count("SELECT count(*) FROM preferences"));
    const [pref] = (await box.call("GET", "/api/v1/preferences/", { token: birkirkara })).json.data;
    for (const [method, path, body] of [
      ["POST", "/api/v1/localities/", { name: "Shop Town" }],
      ["PUT", `/api/v1/localities/${locality.id}`, { name: "Renamed by a shop" }],
      ["POST", "/api/v1/streets/", { locality_id: locality.id, name: "Shop Street" }],
      ["POST", "/api/v1/preferences/", { name: "Shop preference" }],
      ["DELETE", `/api/v1/preferences/${pref.id}`, undefined],
    ] as const) {
      const r = await box.call(method, path, { token: birkirkara, body });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.json.message).toContain("head-quarters staff");
    }
    expect(
      (await count("SELECT count(*) FROM localities")) + (await count("SELECT count(*) FROM streets")) + (await count("SELECT count(*) FROM preferences")),
    ).toBe(before);
    expect((await box.call("GET", `/api/v1/localities/`, { token: birkirkara })).json.data.map((l: { name: string }) => l.name)).toContain(locality.name);

    const added = await box.call("POST", "/api/v1/localities/", { token: hq, body: { name: "Ħal Test" } });
    expect(added.status).toBe(200);
    expect((await box.call("POST", "/api/v1/streets/", { token: hq, body: { locality_id: added.json.data.id, name: "Triq San Sebastjan" } })).status).toBe(200);
    expect((await box.call("PUT", `/api/v1/localities/${added.json.data.id}`, { token: hq, body: { name: "Test Town" } })).status).toBe(200);
    const trail = await box.database.client.execute({
      sql: "SELECT action, agent_id, employee_id, detail FROM audit_log WHERE entity = 'locality' AND entity_id = ? ORDER BY id",
      args: [added.json.data.id],
    });
    expect(trail.rows.map((r) => [r.action, r.agent_id, JSON.parse(String(r.detail))])).toEqual([
      ["create", 1, { name: "Ħal Test" }],
      ["rename", 1, { before: "Ħal Test", after: "Test Town" }],
    ]);
    expect(trail.rows.every((r) => r.employee_id !== null)).toBe(true);
  });

  test("renaming a locality to a name in use is a 409 with the reason, never a 500; a new name works", async () => {
    const [a, b] = (await box.call("GET", "/api/v1/localities/", { token: hq })).json.data;
    const r = await box.call("PUT", `/api/v1/localities/${b.id}`, { token: hq, body: { name: a.name } });
    expect(r.status).toBe(409);
    expect(r.json.message).toBe("A locality with this name exists");
    expect((await box.call("GET", "/api/v1/localities/", { token: hq })).json.data.find((l: { id: number }) => l.id === b.id).name).toBe(b.name);
    // Its own name again is no clash.
    expect((await box.call("PUT", `/api/v1/localities/${b.id}`, { token: hq, body: { name: b.name } })).status).toBe(200);
    expect((await box.call("POST", "/api/v1/preferences/", { token: hq, body: { name: "Fold, never hang" } })).status).toBe(200);
    expect((await box.call("POST", "/api/v1/preferences/", { token: hq, body: { name: "Fold, never hang" } })).status).toBe(409);
  });
});
