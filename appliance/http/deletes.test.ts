import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { type TestBox, testBox } from "../test/harness";
import { createApp } from "./app";
import { route } from "./route";

/**
 * Issue 11, "Also found": every delete of a record with history answers 409 with the reason,
 * never 500. Deleting is allowed (200) only where it cascades cleanly. Issue 22: agents and
 * employees with history are archived instead (200, the row kept).
 */
let box: TestBox;
let agent: string;
let hqAdmin: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  agent = await box.agentToken();
  hqAdmin = await box.employeeToken(1111, agent);
});
afterAll(() => box.close());

/** Every DELETE route and the table its id names; a new DELETE route must be added here. */
const DELETES: Record<string, string> = {
  "/agents/:id": "agents",
  "/employees/:id": "employees",
  "/actions/:id": "actions",
  "/garmentCategories/:id": "garment_categories",
  "/garmentSubCategories/:id": "garment_sub_categories",
  "/modifiers/:id": "modifiers",
  "/actionGarmentSubCategories/:id": "action_garment_sub_categories",
  "/preferences/:id": "preferences",
  "/customers/:id": "customers",
  "/tickets/:id": "tickets",
  "/ticketSubCategory/:id": "ticket_sub_categories",
  "/ticketSubCategoryActions/": "ticket_sub_category_actions",
  "/ticketSubCategoryModifier/": "ticket_sub_category_modifiers",
  "/configurations/:id": "configurations",
};
const GENERIC = "This record has history (other records refer to it); it cannot be removed";

const ids = async (table: string) => (await box.database.client.execute(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => Number(r.id));
const del = (path: string, id: number, token = hqAdmin) =>
  box.call("DELETE", `/api/v1${path.includes(":id") ? path.replace(":id", String(id)) : `${path}?id=${id}`}`, { token });

describe("deleting records with history", () => {
  test("a ticket, item or customer whose payment was taken is never deleted, even after its paid total went back to 0", async () => {
    const employee = await box.employeeToken(3333, agent);
    const customer = (await box.call("POST", "/api/v1/customers/", { token: employee, body: { full_name: "Owing Zero" } })).json.data;
    const ticket = (await box.call("POST", "/api/v1/tickets/", { token: employee, body: { customer_id: customer.id } })).json.data;
    const garment = (await box.call("GET", "/api/v1/garmentSubCategories/", { token: employee })).json.data[0];
    const item = (
      await box.call("POST", "/api/v1/ticketSubCategory/", { token: employee, body: { ticket_id: ticket.id, garment_sub_category_id: garment.id } })
    ).json.data[0];
    // The employee takes €1 (an owing on them); the admin then makes the item free and refunds
    // the €1 (paying in full never lowers what was paid: issue 24), so total_paid is 0 again
    // while the payment rows and the owing stay.
    expect((await box.call("PUT", `/api/v1/ticketSubCategory/paidFor/${item.id}/1`, { token: employee })).status).toBe(200);
    expect((await box.call("PUT", `/api/v1/ticketSubCategory/${item.id}`, { token: hqAdmin, body: { total_override: 0 } })).status).toBe(200);
    expect((await box.call("PUT", `/api/v1/tickets/paidFor/${ticket.id}`, { token: hqAdmin })).status).toBe(200);
    expect((await box.call("GET", `/api/v1/tickets/${ticket.id}`, { token: hqAdmin })).json.data.total_paid).toBe(1);
    const [payment] = (await box.call("GET", `/api/v1/payments/?ticket=${ticket.id}`, { token: hqAdmin })).json.data;
    expect((await box.call("POST", `/api/v1/payments/${payment.id}/refund`, { token: hqAdmin, body: { amount: 1, reason: "Made free" } })).status).toBe(200);
    expect((await box.call("GET", `/api/v1/tickets/${ticket.id}`, { token: hqAdmin })).json.data.total_paid).toBe(0);
    // Before: each of these failed on the owing's foreign key with a 500.
    expect(await del("/ticketSubCategory/:id", item.id)).toMatchObject({ status: 409, json: { message: "Item has payments; it cannot be deleted" } });
    expect(await del("/tickets/:id", ticket.id)).toMatchObject({ status: 409, json: { message: "Ticket has payments; it cannot be deleted" } });
    expect(await del("/customers/:id", customer.id)).toMatchObject({
      status: 409,
      json: { message: "Customer has tickets with payments; it cannot be removed" },
    });

    // Control: the same customer with an unpaid ticket is removed, ticket and item with it.
    const other = (await box.call("POST", "/api/v1/customers/", { token: employee, body: { full_name: "Never Paid" } })).json.data;
    const t2 = (await box.call("POST", "/api/v1/tickets/", { token: employee, body: { customer_id: other.id } })).json.data;
    const i2 = (await box.call("POST", "/api/v1/ticketSubCategory/", { token: employee, body: { ticket_id: t2.id, garment_sub_category_id: garment.id } })).json
      .data[0];
    expect((await box.call("PUT", `/api/v1/ticketSubCategory/${i2.id}`, { token: hqAdmin, body: { total_override: 0 } })).status).toBe(200);
    expect((await del("/customers/:id", other.id)).status).toBe(200);
    expect((await box.call("GET", `/api/v1/tickets/${t2.id}`, { token: hqAdmin })).status).toBe(404);
  });

  test("every DELETE route, on every record of the demo data, answers 200, 404 or 409 with its reason; never 500", async () => {
    const routes = box.routes.filter((r) => r.method === "DELETE").map((r) => r.path);
    expect(routes.toSorted()).toEqual(Object.keys(DELETES).toSorted());
    // Route-table order removes parents (agents, catalogue, customers) while their history is all there.
    const seen: Record<string, Record<number, number>> = {};
    for (const path of routes) {
      seen[path] = {};
      for (const id of await ids(DELETES[path]!)) {
        const r = await del(path, id);
        seen[path][r.status] = (seen[path][r.status] ?? 0) + 1;
        expect([200, 404, 409], `${path} ${id}: ${r.status} ${r.json.message}`).toContain(r.status);
        if (r.status === 409) {
          expect(r.json.message.length, `${path} ${id}`).toBeGreaterThan(10);
          // The net in app.ts is for history a service did not foresee; the known kinds have their own reason.
          if (path !== "/employees/:id" && path !== "/agents/:id") expect(r.json.message, `${path} ${id}`).not.toBe(GENERIC);
        }
      }
    }
    // Agents and employees with history were archived: still there, so history keeps its names.
    for (const table of ["agents", "employees"]) {
      const kept = await box.database.client.execute(`SELECT count(*) AS n FROM ${table} WHERE archived_at IS NOT NULL`);
      expect(Number(kept.rows[0]!.n), table).toBeGreaterThan(0);
    }
    // The demo data has history for each kind that keeps one.
    for (const path of [
      "/actions/:id",
      "/garmentCategories/:id",
      "/garmentSubCategories/:id",
      "/modifiers/:id",
      "/customers/:id",
      "/tickets/:id",
      "/ticketSubCategory/:id",
    ]) {
      expect(seen[path]![409], path).toBeGreaterThan(0);
    }
    // What was deleted went cleanly: nothing is left pointing at a removed row.
    expect((await box.database.client.execute("PRAGMA foreign_key_check")).rows).toEqual([]);
  }, 30_000);

  test("history no service foresaw is still a 409, not a 500", async () => {
    const { db } = box.database;
    const app = createApp({
      db,
      clock: box.clock,
      auth: { authenticate: async () => ({ kind: "none" }) } as never,
      routes: [
        route({ method: "DELETE", path: "/agentsRaw", tag: "test", summary: "", access: { public: true }, handler: () => db.run(sql`DELETE FROM agents`) }),
      ],
      log: () => {},
    });
    const r = await app.handle(new Request("http://localhost/api/v1/agentsRaw", { method: "DELETE" }));
    expect(r.status).toBe(409);
    expect((await r.json()).message).toBe(GENERIC);
    expect((await box.database.client.execute("SELECT count(*) AS n FROM agents")).rows[0]!.n).toBeGreaterThan(0);
  });
});
