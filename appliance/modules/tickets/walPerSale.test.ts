import { afterAll, beforeAll, expect, test } from "bun:test";
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/**
 * Issue 33, less written per sale (migration 0016): an item added at the counter writes no page
 * of the customer's statistics, of the express or process-date indexes, and a new ticket none of
 * the confirmation index; the statistics still read right at every step. The WAL is read frame by
 * frame (each frame names its page; dbstat names the page's table or index).
 */
let box: TestBox;
let clerk: string;
let admin: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  admin = await box.employeeToken(ADMIN.pin);
  clerk = await box.employeeToken("6666", await box.agentToken("birkirkara", "shop-demo-2026"));
});
afterAll(() => box.close());

const ok = async (token: string, method: string, path: string, body?: unknown) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

/** The tables and indexes whose pages `run` appended to the WAL (no checkpoint runs meanwhile: none is idle 2 s). */
async function pagesWritten(run: () => Promise<unknown>): Promise<string[]> {
  const wal = `${box.database.file!}-wal`;
  const size = () => statSync(wal).size;
  const pageSize = Number((await box.database.client.execute("PRAGMA page_size")).rows[0]![0]);
  const from = size();
  await run();
  const to = size();
  expect(to).toBeGreaterThan(from);
  const pages: number[] = [];
  const fd = openSync(wal, "r");
  const head = Buffer.alloc(4);
  for (let at = Math.max(from, 32); at + 24 + pageSize <= to; at += 24 + pageSize) {
    readSync(fd, head, 0, 4, at);
    pages.push(head.readUInt32BE(0));
  }
  closeSync(fd);
  const owners = new Map((await box.database.client.execute("SELECT name, pageno FROM dbstat")).rows.map((r) => [Number(r.pageno), String(r.name)] as const));
  return pages.map((p) => owners.get(p) ?? "?");
}

test("adding an item writes no statistics or dated-index page; the customer's figures still follow the ticket", async () => {
  const customer = await ok(clerk, "POST", "/customers/", { full_name: "Wal Counter" });
  const garments = await ok(clerk, "GET", "/garmentSubCategories/");
  const shirt = garments.find((g: { name: string }) => g.name === "Shirt").id;
  const stats = async () => ok(admin, "GET", `/customers/${customer.id}`);

  let ticket!: { id: number };
  const created = await pagesWritten(async () => (ticket = await ok(clerk, "POST", "/tickets/", { customer_id: customer.id })));
  expect(created).not.toContain("tickets_confirmed_idx");
  expect(created.filter((n) => n.startsWith("customer_stats"))).toEqual([]);

  const added = await pagesWritten(() => ok(clerk, "POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: shirt }));
  for (const name of ["customer_stats", "customer_stats_spent_idx", "customer_stats_visits_idx", "tsc_express_idx", "tsc_process_idx"])
    expect(added).not.toContain(name);
  // Each page once, one commit: the item, its ticket, their indexes, the id sequence.
  expect(new Set(added).size).toBe(added.length);

  const open = await ok(clerk, "GET", `/tickets/${ticket.id}`);
  expect(open.total).toBeGreaterThan(0);
  expect(await stats()).toMatchObject({
    number_of_visits: 0,
    total_spent: 0,
    ticket_total: open.total,
    outstanding_balance: 0,
    last_visit: null,
    visit_rank: -1,
  });

  await ok(clerk, "PUT", `/tickets/${ticket.id}/confirm`);
  const confirmed = await stats();
  expect(confirmed).toMatchObject({ number_of_visits: 1, total_spent: 0, ticket_total: open.total, outstanding_balance: open.total, turnover_rank: -1 });
  expect(confirmed.last_visit).toBeString();
  expect(confirmed.visit_rank).toBeGreaterThan(0);

  await ok(clerk, "PUT", `/tickets/paidFor/${ticket.id}?method=cash&tendered=500`);
  const paid = await stats();
  expect(paid).toMatchObject({ number_of_visits: 1, total_spent: open.total, ticket_total: open.total, outstanding_balance: 0 });
  expect(paid.turnover_rank).toBeGreaterThan(0);
});

test("an express item is still found by the express list through its partial index", async () => {
  const plan = (
    await box.database.client.execute(
      "EXPLAIN QUERY PLAN SELECT count(*) FROM ticket_sub_categories WHERE has_express = 1 AND state NOT IN ('DELIVERED', 'COLLECTED')",
    )
  ).rows.map((r) => String(r.detail));
  expect(plan.join(" ")).toContain("tsc_express_idx");
  const list = await box.call("GET", "/api/v1/ticketSubCategory/express/", { token: admin });
  expect(list.status).toBe(200);
});
