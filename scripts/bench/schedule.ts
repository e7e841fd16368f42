/**
 * The scheduler and the plant's workload on the reference data (issue 12: the schedule week
 * and the action workload week p95 ≤ 50 ms each, weeklyStats/thisWeek p95 ≤ 30 ms).
 *   bun scripts/bench/schedule.ts <dataDir> [--runs 200]
 * Boots the real appliance on the data dir and calls the routes through the whole HTTP stack
 * for weeks spread over the last year of data; beside each, the raw grouped query it rests on
 * (the booked stops of the week, the plant's load of the week) through the same driver.
 */
import { sql } from "drizzle-orm";
import { addDays, businessDay } from "../../appliance/domain/dates";
import { dayStartUtc, stepWeek, weekDates, weekOf } from "../../appliance/domain/schedule";
import { bootLoggedIn, fmt, percentiles } from "./lib";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: bun scripts/bench/schedule.ts <dataDir> [--runs 200]");
const runs = Number(process.argv[process.argv.indexOf("--runs") + 1]) || 200;

const { box, token, call } = await bootLoggedIn(dataDir);
const db = box.database.db;

// The last 52 weeks up to now, round-robin.
const now = weekOf(businessDay(new Date()));
const weeks = Array.from({ length: 52 }, (_, i) => stepWeek(now.year, now.week, -i));

async function measure(
  name: string,
  path: (w: { year: number; week: number }) => string,
  raw: (w: { year: number; week: number }) => Promise<unknown>,
  bar: number,
) {
  for (const w of weeks.slice(0, 10)) await call("GET", path(w), token); // warm up
  const route: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const w = weeks[i % weeks.length]!;
    let s = performance.now();
    const r = await call("GET", path(w), token);
    route.push(performance.now() - s);
    if (r.status !== 200) throw new Error(`${path(w)}: ${r.status} ${JSON.stringify(r.json)}`);
    s = performance.now();
    await raw(w);
    rawMs.push(performance.now() - s);
  }
  const a = percentiles(route);
  const b = percentiles(rawMs);
  console.log(`${name.padEnd(44)} p50 ${fmt(a.p50)}  p95 ${fmt(a.p95)}  p99 ${fmt(a.p99)}  (bar: p95 ≤ ${bar} ms) ${a.p95 <= bar ? "ok" : "OVER"}`);
  console.log(`${"  raw query".padEnd(44)} p50 ${fmt(b.p50)}  p95 ${fmt(b.p95)}`);
  return a.p95 <= bar;
}

const stops = ({ year, week }: { year: number; week: number }) => {
  const d = weekDates(year, week);
  return db.all(
    sql`SELECT pickup_date, count(*) FROM tickets WHERE pickup_from_client = 1 AND pickup_date BETWEEN ${d[0]} AND ${d[6]} AND confirmed_at IS NOT NULL GROUP BY pickup_date`,
  );
};
const load = ({ year, week }: { year: number; week: number }) => {
  const d = weekDates(year, week);
  return db.all(
    sql`SELECT a.action_id, substr(i.process_date, 1, 13), sum(i.quantity * a.quantity) FROM ticket_sub_categories i JOIN ticket_sub_category_actions a ON a.ticket_sub_category_id = i.id
        WHERE i.process_date >= ${dayStartUtc(d[0]!)} AND i.process_date < ${dayStartUtc(addDays(d[6]!, 1))} GROUP BY 1, 2`,
  );
};

const [{ n: tickets }] = (await db.all(sql`SELECT count(*) AS n FROM tickets`)) as [{ n: number }];
console.log(`tickets: ${tickets}, weeks: ${weeks.at(-1)!.year}-W${weeks.at(-1)!.week} .. ${now.year}-W${now.week}, runs: ${runs}`);
const ok = [
  await measure("GET /statistics/schedule/week/{w}/year/{y}", (w) => `/statistics/schedule/week/${w.week}/year/${w.year}`, stops, 50),
  await measure("GET /statistics/actionWorkLoad/week/{w}/year/{y}", (w) => `/statistics/actionWorkLoad/week/${w.week}/year/${w.year}`, load, 50),
  await measure(
    "GET /weeklyStats/thisWeek",
    () => "/weeklyStats/thisWeek",
    () => load(now),
    30,
  ),
];
box.database.close();
process.exit(ok.every(Boolean) ? 0 : 1);
