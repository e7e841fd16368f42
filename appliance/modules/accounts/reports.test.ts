/**
 * The statement and the aged report made off the request thread (issue 34): the route's JSON
 * and CSV agree line for line, and the figures come from the process's own connection to the
 * database it is given, not from the box's. On the demo's hotel account (made through the
 * services: charges, an invoice, a part payment, a charge not invoiced yet).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { parse } from "csv-parse/sync";
import { type TestBox, testBox } from "../../test/harness";
import { createAccountReports } from "./reports";

const NOW = "2026-11-30T16:00:00Z";
let box: TestBox;
let manager: string;
let hq: string;
let hotel = 0;

const get = async (path: string, token: string) => {
  const r = await box.call("GET", `/api/v1${path}`, { token });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
};
const csv = async (path: string, token: string) => {
  const r = await box.app.handle(new Request(`http://localhost/api/v1${path}`, { headers: { authorization: `token ${token}` } }));
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toContain("text/csv");
  return parse(await r.text()) as string[][];
};
const money = (v: string) => Math.round(Number(v) * 100);
const cents = (eur: number) => Math.round(eur * 100);

beforeAll(async () => {
  box = await testBox({ demo: true, now: NOW });
  manager = await box.employeeToken(7777, await box.agentToken("mosta", "shop-demo-2026"));
  hq = await box.employeeToken(1111);
  hotel = (await get("/accounts/", manager)).data[0].id;
}, 60_000);
afterAll(() => box?.close());

test("the statement's CSV is its JSON line for line, and closing + not invoiced = the account's balance", async () => {
  const from = "2026-09-01";
  const to = "2026-11-30";
  const s = (await get(`/accounts/${hotel}/statement?from=${from}&to=${to}`, manager)).data;
  expect(s.lines.map((l: { kind: string }) => l.kind)).toEqual(["invoice", "payment"]);
  const rows = await csv(`/accounts/${hotel}/statement?from=${from}&to=${to}&format=csv`, manager);
  expect(rows[0]).toEqual(["Date", "Kind", "Reference", "Amount", "Balance"]);
  expect(money(rows[1]![4]!)).toBe(cents(s.opening_balance));
  const body = rows.slice(2, -2);
  expect(body.length).toBe(s.lines.length);
  body.forEach((r, i) => {
    const l = s.lines[i];
    expect([r[0], r[1], r[2], money(r[3]!), money(r[4]!)]).toEqual([
      `${l.date.slice(8, 10)}-${l.date.slice(5, 7)}-${l.date.slice(0, 4)}`,
      l.kind.replace("_", " "),
      l.reference,
      cents(l.amount),
      cents(l.balance),
    ]);
  });
  expect(money(rows.at(-2)![4]!)).toBe(cents(s.closing_balance));
  expect(money(rows.at(-1)![4]!)).toBe(cents(s.not_invoiced));
  const account = (await get(`/accounts/${hotel}`, manager)).data;
  expect(cents(s.closing_balance) + cents(s.not_invoiced)).toBe(cents(account.balance));
  // The demo's invoice is half paid and its later charge not invoiced: both show.
  expect(s.closing_balance).toBeGreaterThan(0);
  expect(s.not_invoiced).toBeGreaterThan(0);
});

test("the aged report's CSV is its JSON, HQ's and the shop's alike; the invoice sits in 31-60 days", async () => {
  for (const token of [manager, hq]) {
    const a = (await get("/accounts/aged", token)).data;
    expect(a.on).toBe("2026-11-30");
    expect(a.accounts.length).toBe(1);
    expect(a.accounts[0].d31_60).toBeGreaterThan(0);
    const rows = await csv("/accounts/aged?format=csv", token);
    expect(rows.length).toBe(a.accounts.length + 2);
    const figures = (r: { not_invoiced: number; d0_30: number; d31_60: number; d61_90: number; d90_plus: number; balance: number }) =>
      [r.not_invoiced, r.d0_30, r.d31_60, r.d61_90, r.d90_plus, r.balance].map(cents);
    // The shop by its name (HQ's report lists every shop's), not its number.
    expect([rows[1]![0], rows[1]![1], ...rows[1]!.slice(2).map(money)]).toEqual([a.accounts[0].name, a.accounts[0].agent_name, ...figures(a.accounts[0])]);
    expect(rows.at(-1)!.slice(2).map(money)).toEqual(figures(a.totals));
  }
  // Another shop's manager sees no account of Mosta's, and cannot open its statement.
  const bkara = await box.employeeToken(5555, await box.agentToken("birkirkara", "shop-demo-2026"));
  expect((await get("/accounts/aged", bkara)).data.accounts).toEqual([]);
  expect((await box.call("GET", `/api/v1/accounts/${hotel}/statement?from=2026-09-01&to=2026-11-30&format=csv`, { token: bkara })).status).toBe(404);
});

test("the figures come from the process's own connection: pointed at a copy, it answers the copy's", async () => {
  const copy = join(box.dir, "books-copy.db");
  const own = createClient({ url: `file:${join(box.dir, "ironbox.db")}` });
  await own.execute(`VACUUM INTO '${copy}'`);
  own.close();
  // Money received after the copy: the box's statement has it, the copy's does not.
  const r = await box.call("POST", `/api/v1/accounts/${hotel}/payments`, { token: manager, body: { amount: 1, method: "cash" } });
  expect(r.status).toBe(200);
  const caller = {
    kind: "employee",
    jti: "t",
    agent: { id: 0, name: "", is_hq: true },
    employee: { id: 1, full_name: "HQ", role: "admin", hq: true },
  } as const;
  const onCopy = createAccountReports({ db: box.database.db, clock: box.clock, target: { url: `file:${copy}` } });
  const live = (await get(`/accounts/${hotel}/statement?from=2026-09-01&to=2026-11-30`, manager)).data;
  const fromCopy = await onCopy.statement(caller, hotel, "2026-09-01", "2026-11-30");
  expect(cents(fromCopy.closing_balance) - cents(live.closing_balance)).toBe(100);
  expect(live.lines.length).toBe(fromCopy.lines.length + 1);
});
