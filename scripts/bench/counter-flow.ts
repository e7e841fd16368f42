/**
 * The counter flow (QUALITY.md: create a ticket, add 5 items with actions and modifiers,
 * confirm, pay: ≤ 150 ms server time in total, p95). The payment goes through the ledger as
 * at the counter (issue 24): cash with a note handed over, a payment row per item with the
 * change worked out, under the drawer's day.
 *   bun scripts/bench/counter-flow.ts <dataDir> [--runs 60]
 * Each run is the real sequence of API calls through the whole HTTP stack on a copy of the
 * reference data; beside it, the same rows written raw through the same driver, once in one
 * transaction (the floor for this much writing) and once in 8 transactions, one per request as
 * the taps are (the fair floor: each tap must be durable on its own, 8 commits under
 * synchronous=FULL). It also counts the SQL statements each step runs (BEGIN and COMMIT
 * included), through the statement cache's watcher.
 */
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { watchStatements } from "../../db/statementCache";
import { bootLoggedIn, fmt, percentiles } from "./lib";

const src = process.argv[2];
if (!src) throw new Error("usage: bun scripts/bench/counter-flow.ts <dataDir> [--runs 60]");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 60;
// Writes go to a copy: the reference set stays as generated.
const dir = mkdtempSync(join(tmpdir(), "ironbox-bench-"));
copyFileSync(join(src, "ironbox.db"), join(dir, "ironbox.db"));

const { box, token, call } = await bootLoggedIn(dir);
const db = box.database.db;
const one = async <T>(q: ReturnType<typeof sql>) => ((await db.all(q)) as T[])[0]!;
const garments = (await db.all(
  sql`SELECT g.id FROM garment_sub_categories g JOIN garment_categories c ON c.id = g.garment_category_id WHERE g.visible = 1 AND c.default_action_id IS NOT NULL ORDER BY g.id LIMIT 5`,
)) as { id: number }[];
const extra = await one<{ id: number }>(sql`SELECT id FROM actions WHERE name = 'Pressing'`);
const mods = (await db.all(sql`SELECT id FROM modifiers WHERE parent_id = 0 ORDER BY id LIMIT 5`)) as { id: number }[];
const customers = (await db.all(sql`SELECT id FROM customers ORDER BY id LIMIT ${runs}`)) as { id: number }[];

// Statements and commits per step, summed over the measured runs.
const steps = ["create ticket", "add an item (×5)", "confirm", "pay"] as const;
const counted = new Map<string, { statements: number; commits: number; calls: number }>(steps.map((s) => [s, { statements: 0, commits: 0, calls: 0 }]));
let counting: { statements: number; commits: number } | null = null;
watchStatements((text) => {
  if (!counting) return;
  counting.statements++;
  if (/^\s*COMMIT/i.test(text)) counting.commits++;
});

async function must(method: string, path: string, body?: unknown, step?: (typeof steps)[number], measured = false) {
  const c = step && measured ? counted.get(step)! : null;
  if (c) (counting = c), c.calls++;
  const r = await call(method, path, token, body).finally(() => (counting = null));
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
}

const flow: number[] = [];
const raw: number[] = [];
const rawPerTap: number[] = [];
for (let i = 0; i < runs + 5; i++) {
  const customer = customers[i % customers.length]!.id;
  const measured = i >= 5;
  const t0 = performance.now();
  const t = await must("POST", "/tickets/", { customer_id: customer }, "create ticket", measured);
  for (const [k, g] of garments.entries()) {
    const [item] = await must(
      "POST",
      "/ticketSubCategory/",
      { ticket_id: t.id, garment_sub_category_id: g.id, actions: [extra.id], modifiers: [mods[k % mods.length]!.id] },
      "add an item (×5)",
      measured,
    );
    if (!item) throw new Error("no item");
  }
  await must("PUT", `/tickets/${t.id}/confirm`, undefined, "confirm", measured);
  const paid = await must("PUT", `/tickets/paidFor/${t.id}?method=cash&tendered=500`, undefined, "pay", measured);
  if (paid.balance !== 0) throw new Error(`ticket ${t.id} not paid: balance ${paid.balance}`);
  const ms = performance.now() - t0;
  if (i >= 5) flow.push(ms); // the first runs warm the caches

  // The floor: the same number of rows written raw in one transaction.
  const s = performance.now();
  const tx = await box.database.client.transaction("write");
  const r = await tx.execute({ sql: "INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, 1, ?) RETURNING id", args: [customer] });
  const tid = Number(r.rows[0]!.id);
  for (const g of garments) {
    const it = await tx.execute({
      sql: "INSERT INTO ticket_sub_categories (ticket_id, garment_sub_category_id) VALUES (?, ?) RETURNING id",
      args: [tid, g.id],
    });
    await tx.execute({
      sql: "INSERT INTO ticket_sub_category_actions (ticket_sub_category_id, action_id, name) VALUES (?, ?, 'x')",
      args: [Number(it.rows[0]!.id), extra.id],
    });
  }
  await tx.execute({ sql: "UPDATE tickets SET confirmed_at = 'x' WHERE id = ?", args: [tid] });
  // One payment row (its trigger keeps the ticket's total_paid), as the ledger writes per item.
  await tx.execute({
    sql: "INSERT INTO payments (ticket_id, agent_id, employee_id, amount, tender, tendered, change_given, taken_at, till_day) VALUES (?, 1, 1, 0, 'cash', 500, 500, ?, ?)",
    args: [tid, new Date().toISOString(), new Date().toISOString().slice(0, 10)],
  });
  await tx.commit();
  if (i >= 5) raw.push(performance.now() - s);

  // The fair floor: the same rows, one transaction per tap (8 durable commits, as the API's).
  const s8 = performance.now();
  const c = box.database.client;
  const r8 = await c.execute({ sql: "INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, 1, ?) RETURNING id", args: [customer] });
  const tid8 = Number(r8.rows[0]!.id);
  for (const g of garments) {
    const tx8 = await c.transaction("write");
    const it = await tx8.execute({
      sql: "INSERT INTO ticket_sub_categories (ticket_id, garment_sub_category_id) VALUES (?, ?) RETURNING id",
      args: [tid8, g.id],
    });
    await tx8.execute({
      sql: "INSERT INTO ticket_sub_category_actions (ticket_sub_category_id, action_id, name) VALUES (?, ?, 'x')",
      args: [Number(it.rows[0]!.id), extra.id],
    });
    await tx8.commit();
  }
  await c.execute({ sql: "UPDATE tickets SET confirmed_at = 'x' WHERE id = ?", args: [tid8] });
  await c.execute({
    sql: "INSERT INTO payments (ticket_id, agent_id, employee_id, amount, tender, tendered, change_given, taken_at, till_day) VALUES (?, 1, 1, 0, 'cash', 500, 500, ?, ?)",
    args: [tid8, new Date().toISOString(), new Date().toISOString().slice(0, 10)],
  });
  if (i >= 5) rawPerTap.push(performance.now() - s8);
}
const f = percentiles(flow);
const b = percentiles(raw);
const b8 = percentiles(rawPerTap);
console.log(`counter flows: ${runs} (ticket + 5 items with an extra action and a modifier + confirm + pay cash with change: 8 requests)`);
console.log(`whole flow, server time  p50 ${fmt(f.p50)}  p95 ${fmt(f.p95)}  p99 ${fmt(f.p99)}  (bar: p95 ≤ 150 ms)`);
console.log(`raw rows, one transaction p50 ${fmt(b.p50)}  p95 ${fmt(b.p95)}  (floor, same driver, synchronous=FULL)`);
console.log(`raw rows, 8 transactions  p50 ${fmt(b8.p50)}  p95 ${fmt(b8.p95)}  (fair floor: one durable commit per tap, as the API)`);
console.log(`ratio flow/raw at p95: ${(f.p95 / b.p95).toFixed(1)}× (one transaction), ${(f.p95 / b8.p95).toFixed(1)}× (8 transactions)`);
console.log(`ratio flow/raw at p50: ${(f.p50 / b.p50).toFixed(1)}× (one transaction), ${(f.p50 / b8.p50).toFixed(1)}× (8 transactions)`);
for (const [step, c] of counted)
  console.log(`statements per request, ${step}: ${(c.statements / c.calls).toFixed(1)} (commits ${(c.commits / c.calls).toFixed(1)})`);
// The WAL checkpoint the box takes in its next quiet moment (auto-checkpoints are off: db/client.ts).
const t0 = performance.now();
const cp = await box.database.checkpoint!();
console.log(`deferred WAL checkpoint after the run: ${fmt(performance.now() - t0)} for ${cp.log} pages (taken when the box is idle, not inside a request)`);
box.database.close();
