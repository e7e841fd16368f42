import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/** GET /customers/{id}/tickets: the customer's ticket list shows the agent (spec §2 Customers). */
let box: TestBox;
let hq: string;
let clerk: string;
let mosta: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  hq = await box.employeeToken(ADMIN.pin);
  clerk = await box.employeeToken("6666", await box.agentToken("birkirkara", "shop-demo-2026"));
  mosta = await box.employeeToken("7777", await box.agentToken("mosta", "shop-demo-2026"));
});
afterAll(() => box.close());

const ok = async (token: string, method: string, path: string, body?: unknown) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

test("each ticket names the agent that took it; a shop sees its own tickets, HQ every one; another shop's customer is 404", async () => {
  const customer = await ok(clerk, "POST", "/customers/", { full_name: "Agent Column" });
  const mine = await ok(clerk, "POST", "/tickets/", { customer_id: customer.id });
  const garments = await ok(clerk, "GET", "/garmentSubCategories/");
  await ok(clerk, "POST", "/ticketSubCategory/", {
    ticket_id: mine.id,
    garment_sub_category_id: garments.find((g: { name: string }) => g.name === "Shirt").id,
  });
  const byHq = await ok(hq, "POST", "/tickets/", { customer_id: customer.id });

  const shop = await ok(clerk, "GET", `/customers/${customer.id}/tickets`);
  expect(shop).toHaveLength(1);
  const row = shop[0];
  const ticket = await ok(clerk, "GET", `/tickets/${mine.id}`);
  expect(row).toMatchObject({
    id: mine.id,
    agent_name: "Ironbox Birkirkara",
    agent_id: ticket.agent_id,
    state: ticket.state,
    total: ticket.total,
    total_paid: 0,
    balance: ticket.total,
  });
  expect(row.total).toBeGreaterThan(0);

  const all = await ok(hq, "GET", `/customers/${customer.id}/tickets`);
  expect(all.map((t: { id: number; agent_name: string }) => [t.id, t.agent_name])).toEqual([
    [byHq.id, "Head Quarters"],
    [mine.id, "Ironbox Birkirkara"],
  ]);

  // The customer record's last tickets (?simple=true) follow the same rule.
  expect((await ok(clerk, "GET", `/customers/${customer.id}?simple=true`)).simple_tickets.map((t: { id: number }) => t.id)).toEqual([mine.id]);
  expect((await ok(hq, "GET", `/customers/${customer.id}?simple=true`)).simple_tickets.map((t: { id: number }) => t.id)).toEqual([byHq.id, mine.id]);

  expect((await box.call("GET", `/api/v1/customers/${customer.id}/tickets`, { token: mosta })).status).toBe(404);
  expect((await box.call("GET", "/api/v1/customers/987654/tickets", { token: hq })).status).toBe(404);
  expect((await box.call("GET", `/api/v1/customers/${customer.id}/tickets`)).status).toBe(401);
});
