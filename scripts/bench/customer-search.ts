/**
 * Customer search benchmark (QUALITY.md: p95 ≤ 20 ms at 50k customers, ≤ 50 ms at 1M).
 *   bun scripts/bench/customer-search.ts <dataDir> [--runs 400]
 * Times GET /customers/?limit=20&term=… through the whole HTTP stack, and beside it the raw
 * FTS5 substring query through the same libSQL driver (the ceiling the route cannot beat).
 */
import { sql } from "drizzle-orm";
import { bootLoggedIn, fmt, percentiles } from "./lib";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: bun scripts/bench/customer-search.ts <dataDir> [--runs 400]");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 400;

const { box, token, call } = await bootLoggedIn(dataDir);
const db = box.database.db;
const n = ((await db.all(sql`SELECT count(*) AS n FROM customers`)) as { n: number }[])[0]?.n ?? 0;

// Realistic terms drawn from the data: surnames, first names, partial words, phone digits,
// and misspellings (a letter dropped or doubled) so the typo-tolerant pass is exercised.
const sample = (await db.all(sql`SELECT full_name, mobile FROM customers ORDER BY id % 997, id LIMIT 200`)) as { full_name: string; mobile: string }[];
const terms: string[] = [];
for (const [i, c] of sample.entries()) {
  const [first = "", last = ""] = c.full_name.split(" ");
  const kind = i % 5;
  if (kind === 0) terms.push(last);
  else if (kind === 1) terms.push(first.slice(0, 4));
  else if (kind === 2) terms.push(c.mobile.slice(2, 7));
  // a letter doubled in a name, as people mistype (Camillleri, Borgg)
  else if (kind === 3) terms.push(last.length > 3 ? last.slice(0, 3) + last[2] + last.slice(3) : last);
  else terms.push(`${first} ${last}`.toLowerCase());
}

for (const t of terms.slice(0, 20)) await call("GET", `/customers/?limit=20&term=${encodeURIComponent(t)}`, token); // warm-up
const route: number[] = [];
const raw: number[] = [];
let empty = 0;
const byKind = new Map<number, number[]>();
const emptyTerms: string[] = [];
for (let i = 0; i < runs; i++) {
  const term = terms[i % terms.length]!;
  let t0 = performance.now();
  const r = await call("GET", `/customers/?limit=20&term=${encodeURIComponent(term)}`, token);
  const ms = performance.now() - t0;
  route.push(ms);
  byKind.set((i % terms.length) % 5, [...(byKind.get((i % terms.length) % 5) ?? []), ms]);
  if (r.status !== 200) throw new Error(`search failed: ${r.status} ${JSON.stringify(r.json)}`);
  if (r.json.data.length === 0) empty++, emptyTerms.push(term);
  t0 = performance.now();
  await db.all(sql`SELECT rowid FROM customers_fts WHERE customers_fts MATCH ${`"${term.replace(/"/g, '""')}"`} LIMIT 100`);
  raw.push(performance.now() - t0);
}
const r = percentiles(route);
const b = percentiles(raw);
console.log(`customers: ${n}, searches: ${runs}, terms with no result: ${empty}`);
console.log(`GET /customers/?term  p50 ${fmt(r.p50)}  p95 ${fmt(r.p95)}  p99 ${fmt(r.p99)}  (bar: p95 ≤ ${n > 100_000 ? 50 : 20} ms)`);
console.log(`raw FTS5 substring    p50 ${fmt(b.p50)}  p95 ${fmt(b.p95)}  p99 ${fmt(b.p99)}  (ceiling, same driver)`);
const kinds = ["surname", "first-name prefix", "phone digits", "misspelt surname", "full name"];
for (const [k, v] of [...byKind].sort()) console.log(`  ${kinds[k]!.padEnd(18)} p95 ${fmt(percentiles(v).p95)}`);
if (emptyTerms.length) console.log(`  no result for e.g. ${[...new Set(emptyTerms)].slice(0, 5).join(", ")}`);
console.log(`ratio route/raw at p95: ${(r.p95 / b.p95).toFixed(1)}×`);
box.database.close();
