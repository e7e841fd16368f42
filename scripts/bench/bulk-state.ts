/**
 * Scan → state change (QUALITY.md: bulk change of 50 items with a signature, p95 ≤ 100 ms).
 *   bun scripts/bench/bulk-state.ts <dataDir> [--runs 60]
 * PUT /ticketSubCategory/changeState with 50 item ids and a signature, through the whole HTTP
 * stack on a copy of the reference data; beside it, the same rows written raw in one
 * transaction through the same driver.
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
}
const a = percentiles(route);
const b = percentiles(raw);
console.log(`bulk changes: ${runs} × 50 items with a ${(signature.length / 1024).toFixed(1)} KB signature`);
console.log(`PUT /ticketSubCategory/changeState  p50 ${fmt(a.p50)}  p95 ${fmt(a.p95)}  p99 ${fmt(a.p99)}  (bar: p95 ≤ 100 ms)`);
console.log(`raw, one transaction                p50 ${fmt(b.p50)}  p95 ${fmt(b.p95)}  (floor, same driver)`);
console.log(`ratio route/raw at p95: ${(a.p95 / b.p95).toFixed(1)}×`);
box.database.close();
rmSync(dir, { recursive: true, force: true }); // a copy of the reference set is 1.5 GB
