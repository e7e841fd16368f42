// Issue 32 "History on its own days": money the old system took arrives as payment rows dated
// from the source (the paid state's log, else the confirmation), marked imported, on their own
// till days, and in no drawer of this box. The source takes money today; after the import the
// target's drawer, home statistics and HQ show only what the target itself took today.
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

test("imported payments are dated from the source, marked imported, and kept out of today's drawer", async () => {
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
  expect(rows.every((r) => r.imported === 1)).toBe(true);
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
