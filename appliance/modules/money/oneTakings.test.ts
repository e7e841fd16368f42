// "One takings" (issue 31): a day's drawer is closed, a late cash payment and a refund of the
// closed day's cash go to the next open till day, and the drawer, the home statistics, the
// sales report, the payments report and HQ's check of the site copy give the same figures for
// both days. A head-quarters driver's cash on a shop's ticket lands in HQ's drawer, which closes
// with it. The clock is fixed: the days are calendar days, whatever weekday or month's end.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { addDays } from "../../domain/dates";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { checkCopy } from "../chain/check";

const D = "2026-11-22";
const NEXT = addDays(D, 1);
let box: TestBox;
let admin: string;
const ids: Record<string, number> = {};
const dir = mkdtempSync(join(tmpdir(), "ironbox-one-takings-"));

const call = async (method: string, path: string, body?: unknown, token = admin) => {
  const r = await box.call(method, `/api/v1${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
/** Moves the clock (Malta is UTC+1 in November) and signs in again: sessions do not outlive a day. */
async function at(iso: string) {
  box.clock.set(iso);
  admin = await box.employeeToken(ADMIN.pin);
}
/** A confirmed ticket of one garment for `customer`, written by `token`. */
async function ticket(garment: number, token = admin, customer = ids.customer!) {
  const t = await call("POST", "/tickets/", { customer_id: customer }, token);
  await call("POST", "/ticketSubCategory/", { ticket_id: t.id, garment_sub_category_id: garment }, token);
  await call("PUT", `/tickets/${t.id}/confirm`, undefined, token);
  return t.id as number;
}
async function csv(path: string) {
  const r = await box.app.handle(new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `token ${admin}` } }));
  if (r.status === 204) return { rows: [] as string[][], col: (_: string) => -1 };
  expect(r.status).toBe(200);
  const [header, ...rows] = parse(Buffer.from(await r.arrayBuffer()), { bom: true }) as string[][];
  return { rows, col: (n: string) => header!.indexOf(n) };
}
const cents = (s: string | undefined) => Math.round(Number(s) * 100);
const printed = (day: string) => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;

/** The sales report's Takings per date, in cents. */
async function salesTakings(from: string, to: string) {
  const { rows, col } = await csv(`/tickets/csv/salesReport?from=${from}&to=${to}`);
  const out: Record<string, number> = {};
  for (const r of rows) out[r[col("Date")]!] = (out[r[col("Date")]!] ?? 0) + cents(r[col("Takings")]);
  return out;
}
/** The payments report's rows of one till day: the sum in cents, and the rows. */
async function paymentsReport(day: string) {
  const { rows, col } = await csv(`/tickets/csv/paymentsReport?from=${day}&to=${day}`);
  return { sum: rows.reduce((s, r) => s + cents(r[col("Amount")]), 0), rows, col };
}
/** HQ's check of a copy of this box's database, as the Sites screen shows it. */
function hqFigure(day: string) {
  const copy = join(dir, `site-${day}.db`);
  // The file and its WAL copied as they are (nothing writes meanwhile), as Litestream ships
  // them: a bun:sqlite connection to the live file, closed in this process, would checkpoint the
  // WAL under libSQL's feet (reports/child.ts says why).
  for (const ext of ["", "-wal"]) {
    rmSync(copy + ext, { force: true });
    if (existsSync(box.database.file! + ext)) copyFileSync(box.database.file! + ext, copy + ext);
  }
  return checkCopy(copy, day).takings_cents;
}

beforeAll(async () => {
  box = await testBox({ now: `${D}T08:00:00Z` });
  admin = await box.employeeToken(ADMIN.pin);
  const dc = (await call("POST", "/actions/", { name: "Dry Cleaning", up_charge: 10 })).id;
  const cat = (await call("POST", "/garmentCategories/", { type: "Dry Clean", name: "Suits", default_action_id: dc })).id;
  for (const [name, price] of [
    ["Suit", 12.5],
    ["Coat", 12.35],
  ] as const) {
    ids[name] = (await call("POST", "/garmentSubCategories/", { garment_category_id: cat, name })).id;
    await call("POST", "/actionGarmentSubCategories/", { garment_sub_category_id: ids[name], action_id: dc, price });
  }
  ids.customer = (await call("POST", "/customers/", { full_name: "Rita Borg", mobile: "79555111" })).id;
});
afterAll(() => {
  box.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a late payment and a refund after the close count in the next open day, the same on every screen and report", async () => {
  // Day D: €12.50 cash and €12.50 card; the drawer closes at 19:00 with what it expects.
  await at(`${D}T09:00:00Z`);
  const a = await ticket(ids.Suit!);
  const b = await ticket(ids.Suit!);
  await call("PUT", `/tickets/paidFor/${a}?method=cash&tendered=20`);
  await call("PUT", `/tickets/paidFor/${b}?method=card`);
  await at(`${D}T18:00:00Z`);
  const closed = await call("POST", `/till/${D}/close`, { counted: { cash: 12.5, card: 12.5, other: 0 } });
  expect(closed.closed.variance).toEqual({ cash: 0, card: 0, other: 0 });

  // Still day D in Malta (20:00 and 20:30): €12.35 cash taken, €2.50 of the morning's cash refunded.
  await at(`${D}T19:00:00Z`);
  const c = await ticket(ids.Coat!);
  await call("PUT", `/tickets/paidFor/${c}?method=cash`);
  await at(`${D}T19:30:00Z`);
  const [morning] = await call("GET", `/payments/?ticket=${a}`);
  await call("POST", `/payments/${morning.id}/refund`, { amount: 2.5, reason: "Button missing" });

  // Day D is what its drawer closed with; the next day holds €12.35 − €2.50.
  const want: Record<string, { cash: number; card: number; other: number }> = {
    [D]: { cash: 12.5, card: 12.5, other: 0 },
    [NEXT]: { cash: 9.85, card: 0, other: 0 },
  };
  const total = (day: string) => Math.round((want[day]!.cash + want[day]!.card + want[day]!.other) * 100);

  // Home on day D (the evening): today is the closed drawer's figure, not €34.85.
  const homeD = (await call("GET", "/statistics/home")).periods.today;
  expect(homeD).toMatchObject({ from: D, takings: 25, ...want[D] });
  const tillD = await call("GET", `/till/${D}`);
  expect(tillD.expected).toEqual(want[D]);
  expect(homeD.takings).toBe(tillD.expected.cash + tillD.expected.card + tillD.expected.other);
  expect(tillD).toMatchObject({ payments: 2, refunds: 0, moved_to_next_day: 2 });

  // The next day: its home figure, then its drawer closed with what it expects.
  await at(`${NEXT}T10:00:00Z`);
  const homeNext = (await call("GET", "/statistics/home")).periods.today;
  expect(homeNext).toMatchObject({ from: NEXT, takings: 9.85, ...want[NEXT] });
  const closedNext = await call("POST", `/till/${NEXT}/close`, { counted: { cash: 9.85, card: 0, other: 0 } });
  expect(closedNext).toMatchObject({ expected: want[NEXT], payments: 1, refunds: 1 });
  expect(closedNext.closed.variance).toEqual({ cash: 0, card: 0, other: 0 });
  expect((await call("GET", `/till/${D}`)).expected).toEqual(want[D]);

  // The reports and HQ's check, for both days.
  const sales = await salesTakings(D, NEXT);
  expect(sales).toEqual({ [printed(D)]: total(D), [printed(NEXT)]: total(NEXT) });
  for (const day of [D, NEXT]) {
    expect((await paymentsReport(day)).sum).toBe(total(day));
    expect(hqFigure(day)).toBe(total(day));
  }
  // The late rows show when they were taken beside the till day they count in.
  const late = await paymentsReport(NEXT);
  expect(late.rows.map((r) => [r[late.col("Date")], r[late.col("Time")], r[late.col("Till day")], r[late.col("Amount")]])).toEqual([
    [printed(D), "20:00", printed(NEXT), "12.35"],
    [printed(D), "20:30", printed(NEXT), "-2.50"],
  ]);
}, 60_000);

test("a head-quarters driver's cash on a shop's ticket is in HQ's drawer, which closes with it", async () => {
  const day = addDays(D, 2);
  await at(`${day}T08:00:00Z`);
  const shop = await call("POST", "/agents/", { name: "Mosta", user_name: "mosta-t" });
  await call("PUT", `/agents/password/${shop.id}`, { password: "mosta-t-pass" });
  await call("POST", "/employees/", { agent_id: shop.id, full_name: "Mona Manager", role: "manager", pin: 6101 });
  await call("POST", "/employees/", { full_name: "Vince Van", role: "driver", pin: 6102 });
  const manager = await box.employeeToken(6101, await box.agentToken("mosta-t", "mosta-t-pass"));
  const driver = await box.employeeToken(6102);
  const customer = (await call("POST", "/customers/", { full_name: "Mosta Customer", mobile: "79555222" }, manager)).id;
  const t = await ticket(ids.Coat!, manager, customer);
  await call("PUT", `/tickets/paidFor/${t}?method=cash`, undefined, driver);

  const hqDay = await call("GET", `/till/${day}`);
  const hqId = hqDay.agent_id;
  expect(hqDay.expected).toEqual({ cash: 12.35, card: 0, other: 0 });
  expect(hqDay.by_employee).toEqual([expect.objectContaining({ employee: "Vince Van", role: "driver", cash: 12.35 })]);
  // Not also in the shop's: the shop never held the money.
  expect((await call("GET", `/till/${day}?agent=${shop.id}`)).expected).toEqual({ cash: 0, card: 0, other: 0 });
  expect((await call("GET", `/till/${day}`, undefined, manager)).expected.cash).toBe(0);
  const close = await call("POST", `/till/${day}/close`, { counted: { cash: 12.35, card: 0, other: 0 } });
  expect(close.closed.variance).toEqual({ cash: 0, card: 0, other: 0 });
  // Every screen and report puts it in HQ's drawer: the home per shop, the payments report's Shop.
  const home = await call("GET", "/statistics/home");
  expect(home.shops.find((s: { agent_id: number }) => s.agent_id === hqId).periods.today.cash).toBe(12.35);
  expect(home.shops.find((s: { agent_id: number }) => s.agent_id === shop.id).periods.today.cash).toBe(0);
  const report = await paymentsReport(day);
  expect(report.rows.map((r) => r[report.col("Amount")])).toEqual(["12.35"]);
  expect(report.rows[0]![report.col("Shop")]).not.toBe("Mosta");
}, 60_000);
