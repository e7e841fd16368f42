import { afterAll, beforeAll, expect, test } from "bun:test";
import { watchStatements } from "../../../db/statementCache";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/**
 * Issue 33 (the box's own overhead): the statements a tap runs do not grow with what is not
 * its own work. Counted through the statement cache's watcher (BEGIN and COMMIT included).
 */
let box: TestBox;
let admin: string;
let garment: number;
let customer: number;

const ok = async (method: string, path: string, body?: unknown) => {
  const r = await box.call(method, `/api/v1${path}`, { token: admin, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
/** The statements `run` made the box execute, and its answer. */
async function counted<T>(run: () => Promise<T>): Promise<number> {
  let n = 0;
  watchStatements(() => n++);
  try {
    await run();
  } finally {
    watchStatements(null);
  }
  return n;
}
async function ticketWith(items: number): Promise<{ id: number; items: number[] }> {
  const t = await ok("POST", "/tickets/", { customer_id: customer });
  const ids: number[] = [];
  for (let i = 0; i < items; i++) ids.push((await ok("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garment }))[0].id);
  await ok("PUT", `/tickets/${t.id}/confirm`);
  return { id: t.id, items: ids };
}

beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin, await box.agentToken());
  const action = (await ok("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 })).id;
  const cat = (await ok("POST", "/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: action })).id;
  garment = (await ok("POST", "/garmentSubCategories/", { garment_category_id: cat, name: "Suit 2pc" })).id;
  await ok("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: garment, action_id: action, price: 12.5 });
  customer = (await ok("POST", "/customers/", { full_name: "Maria Borg", mobile: "79123457" })).id;
});
afterAll(() => box.close());

test("a bulk state change runs as many statements for items of 6 tickets as for items of one", async () => {
  const one = await ticketWith(6);
  const six = await Promise.all(Array.from({ length: 6 }, () => ticketWith(1))).then((ts) => ts.flatMap((t) => t.items));
  const change = (ids: number[]) => () => ok("PUT", "/ticketSubCategory/changeState", { Ids: ids, State: "IN PROGRESS" });
  await change(one.items)(); // warm: the first change of a kind may read what later ones keep
  const sameTicket = await counted(change(one.items));
  const manyTickets = await counted(change(six));
  expect(sameTicket).toBeGreaterThan(3);
  // Before: one insert per ticket for its log row (5 more here).
  expect(manyTickets).toBe(sameTicket);
  // Every ticket still has its log row of the change.
  for (const id of six) {
    const item = await ok("GET", `/ticketSubCategory/${id}`);
    const logs = (await ok("GET", `/tickets/${item.ticket_id}`)).ticket_log_states.map((l: { log: string }) => l.log);
    expect(logs).toContain("1 item set to IN PROGRESS");
  }
});

test("paying a ticket in full adds one statement per item (its payment row), no per-row lookups", async () => {
  const small = await ticketWith(1);
  const big = await ticketWith(5);
  const pay = (id: number) => () => ok("PUT", `/tickets/paidFor/${id}?method=cash&tendered=500`);
  await pay((await ticketWith(1)).id)(); // warm
  const a = await counted(pay(small.id));
  const b = await counted(pay(big.id));
  // 4 more items: 4 more payment rows. Before: 3 statements each (the taker's shop and the
  // drawer's closed-day check were read again for every row).
  expect(b - a).toBe(4);
  expect((await ok("GET", `/tickets/${big.id}`)).balance).toBe(0);
});
