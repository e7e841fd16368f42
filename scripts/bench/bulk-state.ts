/**
 * Scan → state change (QUALITY.md: bulk change of 50 items with a signature, p95 ≤ 100 ms).
 *   bun scripts/bench/bulk-state.ts <dataDir> [--runs 60]
 * PUT /ticketSubCategory/changeState with 50 item ids and a signature, through the whole HTTP
 * stack on a copy of the reference data; beside it, two floors through the same driver, each
 * one transaction: the signature, the items' state and their log rows (the first floor, kept
 * so figures compare with earlier runs), and every row the route writes (the second: also the
 * log row of each ticket the items are on, which the spec's ticket history needs, and the
 * audit row). A scan of 50 random items touches about 50 tickets, so the second floor writes
 * about 50 rows more than the first, into other pages.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { bootLoggedIn, fmt, percentiles } from "./lib";

const src = process.argv[2];
if (!src) throw new Error("usage: bun scripts/bench/bulk-state.ts <dataDir> [--runs 60]");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 60;
const dir = mkdtempSync(join(tmpdir(), "ironbox-bench-"));
copyFileSync(join(src, "ironbox.db"), join(dir, "ironbox.db"));
const { box, token, call } = await bootLoggedIn(dir);
const db = box.database.db;
const max = ((await db.all(sql`SELECT max(id) AS n FROM ticket_sub_categories`)) as { n: number }[])[0]!.n;
// A signature the size a 500×200 canvas drawing makes (~6 KB of base64 PNG).
const signature = `data:image/png;base64,${Buffer.alloc(4500, 7).toString("base64")}`;
const states = ["MARKED", "IN PROGRESS", "AWAITING DELIVERY"];

const route: number[] = [];
const raw: number[] = [];
const full: number[] = [];
for (let i = 0; i < runs + 5; i++) {
  const ids = Array.from({ length: 50 }, (_, k) => 1 + (((i * 50 + k) * 7919) % max));
  let t0 = performance.now();
  const r = await call("PUT", "/ticketSubCategory/changeState", token, { Ids: [...new Set(ids)], State: states[i % 3], Signature: signature });
  if (r.status !== 200) throw new Error(`changeState: ${r.status} ${JSON.stringify(r.json)}`);
  if (i >= 5) route.push(performance.now() - t0);
  t0 = performance.now();
  const tx = await box.database.client.transaction("write");
  const s = await tx.execute({ sql: "INSERT INTO signatures (data_url) VALUES (?) RETURNING id", args: [signature] });
  await tx.execute({ sql: `UPDATE ticket_sub_categories SET state = ? WHERE id IN (${ids.join(",")})`, args: [states[i % 3]!] });
  for (const id of ids)
    await tx.execute({
      sql: "INSERT INTO item_log_states (ticket_sub_category_id, state, logged_at, signature_id) VALUES (?, ?, 'x', ?)",
      args: [id, states[i % 3]!, Number(s.rows[0]!.id)],
    });
  await tx.commit();
  if (i >= 5) raw.push(performance.now() - t0);
  // The second floor: the same rows as the route, its per-ticket log and audit row included.
  const state = states[(i + 1) % 3]!;
  t0 = performance.now();
  const tx2 = await box.database.client.transaction("write");
  const s2 = await tx2.execute({ sql: "INSERT INTO signatures (data_url) VALUES (?) RETURNING id", args: [signature] });
  const sig = Number(s2.rows[0]!.id);
  await tx2.execute({ sql: `UPDATE ticket_sub_categories SET state = ? WHERE id IN (${ids.join(",")})`, args: [state] });
  for (const id of ids)
    await tx2.execute({
      sql: "INSERT INTO item_log_states (ticket_sub_category_id, state, logged_at, signature_id) VALUES (?, ?, 'x', ?)",
      args: [id, state, sig],
    });
  await tx2.execute({
    sql: `INSERT INTO ticket_log_states (ticket_id, state, logged_at, log, signature_id) SELECT DISTINCT ticket_id, ?, 'x', 'bench', ? FROM ticket_sub_categories WHERE id IN (${ids.join(",")})`,
    args: [state, sig],
  });
  await tx2.execute({
    sql: "INSERT INTO audit_log (at, action, entity, detail) VALUES ('x', 'change_state', 'ticket_sub_category', ?)",
    args: [JSON.stringify({ ids, state })],
  });
  await tx2.commit();
  if (i >= 5) full.push(performance.now() - t0);
}
const a = percentiles(route);
const b = percentiles(raw);
const c = percentiles(full);
console.log(`bulk changes: ${runs} × 50 items with a ${(signature.length / 1024).toFixed(1)} KB signature`);
console.log(`PUT /ticketSubCategory/changeState  p50 ${fmt(a.p50)}  p95 ${fmt(a.p95)}  p99 ${fmt(a.p99)}  (bar: p95 ≤ 100 ms)`);
console.log(`raw, one transaction                p50 ${fmt(b.p50)}  p95 ${fmt(b.p95)}  (floor, same driver)`);
console.log(`raw, every row the route writes     p50 ${fmt(c.p50)}  p95 ${fmt(c.p95)}  (floor: + tickets' log rows, audit row)`);
console.log(`ratio route/raw at p95: ${(a.p95 / b.p95).toFixed(1)}× (items only), ${(a.p95 / c.p95).toFixed(1)}× (every row)`);
console.log(`ratio route/raw at p50: ${(a.p50 / b.p50).toFixed(1)}× (items only), ${(a.p50 / c.p50).toFixed(1)}× (every row)`);
box.database.close();
rmSync(dir, { recursive: true, force: true }); // a copy of the reference set is 1.5 GB
