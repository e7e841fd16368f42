/**
 * Opening a ticket (QUALITY.md: GET /tickets/{id} p95 ≤ 10 ms; cold start ≤ 2 s).
 *   bun scripts/bench/ticket-open.ts <dataDir> [--runs 500]
 * Boots the real appliance on the data dir (cold start, timed), then opens random tickets
 * through the whole HTTP stack; beside it, the raw primary-key read of the ticket row through
 * the same libSQL driver.
 */
import { sql } from "drizzle-orm";
import { bootLoggedIn, fmt, percentiles } from "./lib";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: bun scripts/bench/ticket-open.ts <dataDir> [--runs 500]");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 500;

const t0 = performance.now();
const { box, token, call } = await bootLoggedIn(dataDir);
const bootMs = performance.now() - t0;
const db = box.database.db;
const max = ((await db.all(sql`SELECT max(id) AS n FROM tickets`)) as { n: number }[])[0]?.n ?? 0;

// Deterministic spread of ticket ids over the whole table.
const ids = Array.from({ length: runs }, (_, i) => 1 + ((i * 7919 + 13) % max));
for (const id of ids.slice(0, 20)) await call("GET", `/tickets/${id}`, token);
const route: number[] = [];
const raw: number[] = [];
let items = 0;
for (const id of ids) {
  let s = performance.now();
  const r = await call("GET", `/tickets/${id}`, token);
  route.push(performance.now() - s);
  if (r.status !== 200) throw new Error(`GET /tickets/${id}: ${r.status} ${JSON.stringify(r.json)}`);
  items += r.json.data.ticket_sub_categories.length;
  s = performance.now();
  await db.all(sql`SELECT * FROM tickets WHERE id = ${id}`);
  raw.push(performance.now() - s);
}
const r = percentiles(route);
const b = percentiles(raw);
console.log(`tickets: ${max}, opened: ${runs}, items per ticket: ${(items / runs).toFixed(1)}`);
console.log(`cold start (migrate check, seed states, boot, login): ${fmt(bootMs)}  (bar ≤ 2000 ms, includes two logins' password hashing)`);
console.log(`GET /tickets/{id}     p50 ${fmt(r.p50)}  p95 ${fmt(r.p95)}  p99 ${fmt(r.p99)}  (bar: p95 ≤ 10 ms)`);
console.log(`raw ticket PK read    p50 ${fmt(b.p50)}  p95 ${fmt(b.p95)}  (ceiling, same driver)`);
console.log(`ratio route/raw at p95: ${(r.p95 / b.p95).toFixed(1)}×`);
box.database.close();
