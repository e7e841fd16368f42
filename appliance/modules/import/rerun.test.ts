// Issue 32 "Money arrives once": a ticket whose pickup and delivery charges were paid beyond
// its items (demo ticket 1: €6.00 on the ticket itself) is imported, changed at the source by a
// state log only, and imported twice more. The payment rows must still add up to what the
// source says was paid, per item and on the ticket itself, every time, and total_paid equal them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { TestBox } from "../../test/harness";
import { importInto, type Served, serve, testBox } from "./testkit";

let src: TestBox;
let served: Served;
let dst: TestBox;

beforeAll(async () => {
  src = await testBox({ demo: true });
  served = serve(src);
  dst = await testBox({});
}, 60_000);
afterAll(() => {
  served.stop();
  src.close();
  dst?.close();
});

const all = <T>(box: TestBox, q: ReturnType<typeof sql>) => box.database.db.all<T>(q);

/** What was paid, per item and per ticket on no item (the charges), as the source's totals say. */
async function sourcePaid(ticket: number) {
  const items = await all<{ id: number; paid: number }>(
    src,
    sql`SELECT id, total_paid AS paid FROM ticket_sub_categories WHERE ticket_id = ${ticket} ORDER BY id`,
  );
  const [t] = await all<{ paid: number }>(src, sql`SELECT total_paid AS paid FROM tickets WHERE id = ${ticket}`);
  return { items, charges: t!.paid - items.reduce((s, i) => s + i.paid, 0), total: t!.paid };
}

/** The same, from the target's payment rows, and its stored total_paid. */
async function targetPaid(ticket: number) {
  const items = await all<{ id: number; paid: number }>(
    dst,
    sql`SELECT i.id, coalesce((SELECT sum(amount) FROM payments p WHERE p.ticket_sub_category_id = i.id), 0) AS paid FROM ticket_sub_categories i WHERE i.ticket_id = ${ticket} ORDER BY i.id`,
  );
  const [r] = await all<{ charges: number; rows: number; sum: number; stored: number }>(
    dst,
    sql`SELECT coalesce((SELECT sum(amount) FROM payments WHERE ticket_id = ${ticket} AND ticket_sub_category_id IS NULL), 0) AS charges,
               (SELECT count(*) FROM payments WHERE ticket_id = ${ticket}) AS rows,
               coalesce((SELECT sum(amount) FROM payments WHERE ticket_id = ${ticket}), 0) AS sum,
               total_paid AS stored FROM tickets WHERE id = ${ticket}`,
  );
  return { items, charges: r!.charges, total: r!.sum, stored: r!.stored, rows: r!.rows };
}

test("a ticket whose charges were paid keeps its payment rows equal to the source's over three runs", async () => {
  const [one] = await all<{ id: number }>(
    src,
    sql`SELECT t.id FROM tickets t WHERE t.total_paid > (SELECT coalesce(sum(total_paid), 0) FROM ticket_sub_categories i WHERE i.ticket_id = t.id)
        AND EXISTS (SELECT 1 FROM ticket_sub_categories i WHERE i.ticket_id = t.id AND i.total_paid > 0) ORDER BY t.id LIMIT 1`,
  );
  expect(one).toBeDefined();
  const id = one!.id;
  const want = await sourcePaid(id);
  expect(want.charges).toBeGreaterThan(0);

  for (let run = 1; run <= 3; run++) {
    if (run > 1) {
      // Only a state log is added at the source: the ticket is "changed", its money is not.
      await src.database.client.execute({
        sql: "INSERT INTO ticket_log_states (ticket_id, state, logged_at, log, employee_id, agent_id) SELECT id, state, ?, ?, NULL, agent_id FROM tickets WHERE id = ?",
        args: [new Date(Date.UTC(2026, 10, 20, 10, run)).toISOString(), `note ${run}`, id],
      });
    }
    const report = await importInto(dst, served.url);
    expect(report.refusals).toEqual([]);
    expect(report.totals).toMatchObject({ ok: true, count: 0 });
    if (run > 1) expect(report.kinds.ticket).toMatchObject({ changed: 1, refused: 0 });
    const got = await targetPaid(id);
    expect({ run, items: got.items, charges: got.charges, total: got.total }).toEqual({ run, items: want.items, charges: want.charges, total: want.total });
    expect(got.stored).toBe(got.total);
    // One row per item paid and one for the charges: nothing paid twice, nothing moved.
    expect(got.rows).toBe(want.items.filter((i) => i.paid > 0).length + 1);
  }
}, 180_000);

test("a ticket part-paid at the source, its charges paid but an item not in full, keeps the charges on the ticket", async () => {
  // An item left with a balance while the ticket's charges were paid: the ledger's pay-a-ticket
  // step would spread the charges' money onto that item (its balance first).
  const [t] = await all<{ id: number }>(
    src,
    sql`SELECT t.id FROM tickets t WHERE t.total_paid = 0 AND t.pickup_charge + t.delivery_charge > 0
        AND (SELECT count(*) FROM ticket_sub_categories i WHERE i.ticket_id = t.id AND i.total > 0) >= 1 ORDER BY t.id LIMIT 1`,
  );
  expect(t).toBeDefined();
  const [item] = await all<{ id: number; total: number }>(
    src,
    sql`SELECT id, coalesce(total_override, total) AS total FROM ticket_sub_categories WHERE ticket_id = ${t!.id} AND total > 0 ORDER BY id LIMIT 1`,
  );
  // At the source: half the item and the whole charges, as rows (the totals follow by trigger).
  const [tk] = await all<{ agent_id: number; charges: number }>(
    src,
    sql`SELECT agent_id, pickup_charge + delivery_charge AS charges FROM tickets WHERE id = ${t!.id}`,
  );
  const half = Math.floor(item!.total / 2);
  for (const [itemId, amount] of [
    [item!.id, half],
    [null, tk!.charges],
  ] as const)
    await src.database.client.execute({
      sql: "INSERT INTO payments (ticket_id, ticket_sub_category_id, agent_id, amount, tender, taken_at, till_day) VALUES (?, ?, ?, ?, 'cash', ?, ?)",
      args: [t!.id, itemId, tk!.agent_id, amount, "2026-11-20T10:00:00.000Z", "2026-11-20"],
    });
  const want = await sourcePaid(t!.id);
  expect(want.charges).toBe(tk!.charges);
  for (let run = 1; run <= 2; run++) {
    const report = await importInto(dst, served.url);
    expect(report.refusals).toEqual([]);
    const got = await targetPaid(t!.id);
    expect({ run, items: got.items, charges: got.charges }).toEqual({ run, items: want.items, charges: want.charges });
    expect(got.stored).toBe(want.total);
  }
}, 180_000);
