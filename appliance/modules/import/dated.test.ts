// Issue 32 "History on its own days": money the old system took arrives as payment rows dated
// from the source (the paid state's log, else the confirmation), marked imported, on their own
// till days. Dated on an earlier day it is history, in no drawer of this box; dated on the
// import's own day the old till took it today and it is cash in today's drawer. So after the
// import the target's drawer, home statistics and HQ show the money taken today: what the old
// system's records date today, then what the target itself takes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { businessDay } from "../../domain/dates";
import { PAID_STATES } from "../../domain/states";
import type { TestBox } from "../../test/harness";
import { ADMIN, importInto, type Served, serve, testBox } from "./testkit";

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

const ok = async (box: TestBox, method: string, path: string) => {
  const r = await box.call(method, `/api/v1${path}`, { token: await box.employeeToken(ADMIN.pin) });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const NOTHING = { cash: 0, card: 0, other: 0 };

test("imported payments are dated from the source, marked imported; history stays out of the drawers", async () => {
  const today = businessDay(src.clock.now());
  // The old system takes money today: €5.00 cash on an item with a balance, and €2.50 by card.
  const [item] = await src.database.db.all<{ id: number; ticket_id: number }>(
    sql`SELECT i.id, i.ticket_id FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id
        WHERE t.confirmed_at IS NOT NULL AND coalesce(i.total_override, i.total) - i.total_paid >= 1000 ORDER BY i.id LIMIT 1`,
  );
  expect(item).toBeDefined();
  await ok(src, "PUT", `/ticketSubCategory/paidFor/${item!.id}/5`);
  await ok(src, "PUT", `/ticketSubCategory/paidFor/${item!.id}/2.5?method=card`);
  const srcDrawer = await ok(src, "GET", `/till/${today}`);
  expect(srcDrawer.expected.cash + srcDrawer.expected.card).toBeGreaterThanOrEqual(7.5);

  const report = await importInto(dst, served.url);
  expect(report.refusals).toEqual([]);
  expect(report.totals).toMatchObject({ ok: true });

  // Every row the import wrote is marked, and none is on today's till day but those the source dates today.
  const rows = await dst.database.db.all<{ ticket_id: number; taken_at: string; till_day: string; imported: number }>(
    sql`SELECT ticket_id, taken_at, till_day, imported FROM payments ORDER BY id`,
  );
  expect(rows.length).toBeGreaterThan(10);
  expect(rows.every((r) => r.imported === 1)).toBe(true); // nothing the source dates today: all history
  expect(rows.every((r) => r.till_day === businessDay(new Date(r.taken_at)))).toBe(true);
  expect(new Set(rows.map((r) => r.till_day)).size).toBeGreaterThan(3);

  // Demo ticket 1 (paid, delivered): its rows on the day of its first paid log, not the import's.
  const logs = await src.database.db.all<{ state: string; logged_at: string }>(
    sql`SELECT state, logged_at FROM ticket_log_states WHERE ticket_id = 1 ORDER BY logged_at`,
  );
  const paidLog = logs.find((l) => PAID_STATES.includes(l.state))!.logged_at;
  const one = await ok(dst, "GET", "/payments/?ticket=1");
  expect(one.length).toBeGreaterThan(0);
  for (const p of one) expect(p).toMatchObject({ taken_at: paidLog, till_day: businessDay(new Date(paidLog)), imported: true, tender: "other" });
  // The item paid today at the source is not in a paid state: its rows take the confirmation's time.
  const [t] = await src.database.db.all<{ confirmed_at: string }>(sql`SELECT confirmed_at FROM tickets WHERE id = ${item!.ticket_id}`);
  const its = (await ok(dst, "GET", `/payments/?ticket=${item!.ticket_id}`)).filter(
    (p: { ticket_sub_category_id: number }) => p.ticket_sub_category_id === item!.id,
  );
  expect(its).toEqual([expect.objectContaining({ taken_at: t!.confirmed_at, imported: true })]);

  // Today's drawer, the home statistics and HQ's takings: nothing this box took.
  const drawer = await ok(dst, "GET", `/till/${today}`);
  expect({ expected: drawer.expected, payments: drawer.payments }).toEqual({ expected: NOTHING, payments: 0 });
  const home = await ok(dst, "GET", "/statistics/home");
  expect(home.periods.today).toMatchObject({ takings: 0, ...NOTHING });
  // No day holds imported money: the week, month and year neither.
  for (const period of Object.values(home.periods) as { takings: number }[]) expect(period.takings).toBe(0);
  // A ticket's balance still counts the imported money.
  const ticket = await ok(dst, "GET", `/tickets/${item!.ticket_id}`);
  const [srcTicket] = await src.database.db.all<{ total_paid: number }>(sql`SELECT total_paid FROM tickets WHERE id = ${item!.ticket_id}`);
  expect(Math.round(ticket.total_paid * 100)).toBe(srcTicket!.total_paid);

  // Money taken at this box today is the drawer's, to the cent.
  await ok(dst, "PUT", `/ticketSubCategory/paidFor/${item!.id}/1.25`);
  const after = await ok(dst, "GET", `/till/${today}`);
  expect({ expected: after.expected, payments: after.payments }).toEqual({ expected: { ...NOTHING, cash: 1.25 }, payments: 1 });
  expect((await ok(dst, "GET", "/statistics/home")).periods.today).toMatchObject({ takings: 1.25, cash: 1.25 });
}, 180_000);

test("what the old till sold today is in today's drawer after the import, equal to the source's", async () => {
  const day = "2026-11-23T16:00:00Z"; // a Monday; both boxes' clocks there
  const src2 = await testBox({ demo: true, now: day });
  const served2 = serve(src2);
  const dst2 = await testBox({ now: day });
  try {
    const today = businessDay(src2.clock.now());
    const before = await ok(src2, "GET", `/till/${today}`);
    // The old system sells over the counter today: an open ticket confirmed and paid in full now.
    const [open] = await src2.database.db.all<{ id: number; total: number }>(
      sql`SELECT t.id, t.total FROM tickets t WHERE t.confirmed_at IS NULL AND t.total > 0 ORDER BY t.id LIMIT 1`,
    );
    expect(open).toBeDefined();
    await ok(src2, "PUT", `/tickets/${open!.id}/confirm`);
    await ok(src2, "PUT", `/tickets/paidFor/${open!.id}`);
    const srcDrawer = await ok(src2, "GET", `/till/${today}`);
    const taken = srcDrawer.expected.cash + srcDrawer.expected.card + srcDrawer.expected.other;
    expect(taken - (before.expected.cash + before.expected.card + before.expected.other)).toBeCloseTo(open!.total / 100, 2);

    const report = await importInto(dst2, served2.url);
    expect(report.refusals).toEqual([]);
    // The target's drawer today holds what the source's does (as other: the old system kept no tender).
    const drawer = await ok(dst2, "GET", `/till/${today}`);
    expect(drawer.expected.cash + drawer.expected.card).toBe(0);
    expect(drawer.expected.other).toBeCloseTo(taken, 2);
    expect((await ok(dst2, "GET", "/statistics/home")).periods.today.takings).toBeCloseTo(taken, 2);
    // Today's rows are marked as the old till's today (2); every other imported row is history (1).
    const marks = await dst2.database.db.all<{ imported: number; today: number; n: number }>(
      sql`SELECT imported, till_day = ${today} AS today, count(*) AS n FROM payments GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(marks.map((m) => [m.imported, m.today])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    // A second run the same day pays nothing twice: the drawer is unchanged.
    await importInto(dst2, served2.url);
    expect((await ok(dst2, "GET", `/till/${today}`)).expected.other).toBeCloseTo(taken, 2);
  } finally {
    served2.stop();
    src2.close();
    dst2.close();
  }
}, 180_000);
