// Issue 26, speed: the ticket list's children carry each ticket's state history and the
// customer list each customer's preferences, so the import reads a page in one request. A
// source whose lists lack them is read per record (GET /ticketLogStates/{id},
// /customerPreferences/customers/{id}), and both ways bring exactly the same records.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { TestBox } from "../../test/harness";
import { ADMIN, importInto, type Served, serve, testBox } from "./testkit";

let src: TestBox;
let served: Served;
let token: string;

beforeAll(async () => {
  src = await testBox({ demo: true });
  served = serve(src);
  token = await src.employeeToken(ADMIN.pin);
}, 60_000);
afterAll(() => {
  served.stop();
  src.close();
});

const get = async (path: string) => {
  const r = await src.call("GET", `/api/v1${path}`, { token });
  expect(r.status, path).toBe(200);
  return r.json.data;
};

test("the lists carry what the per-record routes answer: state history per ticket, preferences per customer", async () => {
  const tickets = await get("/tickets/?limit=200&withChildren=true");
  expect(tickets.length).toBeGreaterThan(20);
  expect(tickets.some((t: { ticket_log_states: unknown[] }) => t.ticket_log_states.length > 0)).toBe(true);
  for (const t of tickets) expect(t.ticket_log_states, `ticket ${t.id}`).toEqual(await get(`/ticketLogStates/${t.id}`));
  // Without children the list stays as small as before.
  expect((await get("/tickets/?limit=5"))[0].ticket_log_states).toBeUndefined();

  const customers = await get("/customers/?limit=200");
  expect(customers.some((c: { preferences: number[] }) => c.preferences.length > 0)).toBe(true);
  for (const c of customers) {
    const one = (await get(`/customerPreferences/customers/${c.id}`)).map((p: { preference_id: number }) => p.preference_id);
    expect([...c.preferences].sort(), `customer ${c.id}`).toEqual([...one].sort());
  }
});

/** The old system as one whose lists lack these fields (the spec does not promise them in lists). */
const withoutListExtras: typeof fetch = Object.assign(
  async (input: RequestInfo | URL, init?: RequestInit) => {
    const res = await fetch(input, init);
    const path = new URL(String(input)).pathname;
    if (path !== "/api/v1/tickets/" && path !== "/api/v1/customers/") return res;
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    for (const row of body.data) delete row[path.includes("tickets") ? "ticket_log_states" : "preferences"];
    return new Response(JSON.stringify(body), { status: res.status, headers: { "content-type": "application/json" } });
  },
  { preconnect: fetch.preconnect },
);

const dump = (box: TestBox) =>
  box.database.db.all(sql`SELECT
    (SELECT json_group_array(json_array(id, ticket_id, state, logged_at, log, employee_id, agent_id)) FROM (SELECT * FROM ticket_log_states ORDER BY id)) AS logs,
    (SELECT json_group_array(json_array(customer_id, preference_id)) FROM (SELECT * FROM customer_preferences ORDER BY customer_id, preference_id)) AS prefs,
    (SELECT count(*) FROM tickets) AS tickets, (SELECT count(*) FROM customers) AS customers`);

test("reading the lists whole brings the same records as reading per record, in far fewer requests", async () => {
  const batched = await testBox({});
  const perRecord = await testBox({});
  try {
    const a = await importInto(batched, served.url);
    const b = await importInto(perRecord, served.url, { fetch: withoutListExtras });
    expect(a.refusals).toEqual([]);
    expect(b.refusals).toEqual([]);
    expect(a.kinds.ticket).toEqual(b.kinds.ticket!);
    expect(a.kinds.customer).toEqual(b.kinds.customer!);
    const [da, db] = [(await dump(batched))[0] as Record<string, unknown>, (await dump(perRecord))[0] as Record<string, unknown>];
    expect(JSON.parse(da.logs as string).length).toBeGreaterThan(20);
    expect(JSON.parse(da.prefs as string).length).toBeGreaterThan(0);
    expect(da).toEqual(db);
    // One request per ticket and per customer fewer.
    expect(b.requests - a.requests).toBeGreaterThanOrEqual(a.kinds.customer!.read + (await get("/tickets/?limit=200")).length);
  } finally {
    batched.close();
    perRecord.close();
  }
}, 120_000);
