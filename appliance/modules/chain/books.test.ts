/**
 * The books at HQ (issue 34) over the sites' restored copies, shipped as a shop box ships them
 * (a real `litestream replicate`, then HQ's real restore): the Sites view shows each copy's
 * deposits of the day and the liability it holds, and the accountant's journal reads HQ's own
 * database and every site's copy (or one, ?site=), one balanced journal per day, site and shop.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { type TestBox, testBox } from "../../test/harness";
import { shipSite } from "../../test/chainSites";

const NOW = "2026-11-22T09:00:00Z";
const tmp = mkdtempSync(join(tmpdir(), "ironbox-chain-books-"));
const storage = join(tmp, "storage");
let hq: TestBox;
let hqStaff: string;
/** At mosta today: a deposit of €30 taken and a ticket paid from it (its total, cents). */
let spentCents = 0;
let hqAgent = 0;

beforeAll(async () => {
  mkdirSync(storage);
  await shipSite(storage, "mosta", "Mosta Customer", NOW, async (_sql, call) => {
    const c = (await call("POST", "/customers/", { full_name: "Rita Deposit", mobile: "79000123" })).id as number;
    await call("POST", `/customers/${c}/deposits`, { amount: 30, method: "cash" });
    const t = (await call("POST", "/tickets/", { customer_id: c })).id as number;
    const garments = (await call("GET", "/garmentSubCategories/")) as { id: number; name: string }[];
    await call("POST", "/ticketSubCategory/", { ticket_id: t, garment_sub_category_id: garments.find((g) => g.name === "Shirt")!.id });
    await call("PUT", `/tickets/${t}/confirm`);
    await call("PUT", `/tickets/paidFor/${t}?method=balance`);
    spentCents = Math.round((await call("GET", `/tickets/${t}`)).total * 100);
  });
  await shipSite(storage, "birkirkara", "Birkirkara Customer", NOW);
  hq = await testBox({ demo: true, now: NOW, env: { IRONBOX_MODE: "hq", IRONBOX_HQ_STORAGE: storage, IRONBOX_HQ_RESTORE_SECONDS: "0" } });
  hqStaff = await hq.employeeToken(1111);
  hqAgent = Number((await hq.database.client.execute("SELECT id FROM agents WHERE is_hq = 1")).rows[0]!.id);
  for (const site of ["mosta", "birkirkara"]) expect((await hq.call("POST", `/api/v1/chain/sites/${site}/restore`, { token: hqStaff })).status).toBe(200);
}, 90_000);

afterAll(() => {
  hq?.close();
  rmSync(tmp, { recursive: true, force: true });
});

test("the Sites view shows each copy's deposits of the day, taken and spent, and the balances held, per shop and summed", async () => {
  expect(spentCents).toBeGreaterThan(0);
  const sites = (await hq.call("GET", "/api/v1/chain/sites", { token: hqStaff })).json.data as { site: string; deposits: any }[];
  const mosta = sites.find((s) => s.site === "mosta")!.deposits;
  const bkara = sites.find((s) => s.site === "birkirkara")!.deposits;
  // The demo's own deposit (€20 at Mosta, six days ago) is held at both copies; today's only at mosta.
  expect(bkara).toMatchObject({ day: "2026-11-22", taken: 0, given_back: 0, spent: 0, held: 20 });
  expect(mosta).toMatchObject({ day: "2026-11-22", taken: 30, given_back: 0, spent: spentCents / 100, held: (2000 + 3000 - spentCents) / 100 });
  // Per shop: today's money is the taker's shop's (HQ's admin took it), the demo's is Mosta's.
  const today = mosta.shops.find((s: { agent_id: number }) => s.agent_id === hqAgent);
  expect(today).toEqual({ agent_id: hqAgent, taken: 30, given_back: 0, spent: spentCents / 100, held: (3000 - spentCents) / 100 });
  expect(mosta.shops.reduce((a: number, s: { held: number }) => a + Math.round(s.held * 100), 0)).toBe(2000 + 3000 - spentCents);
});

const journal = async (query: string) => {
  const r = await hq.call("GET", `/api/v1/accounting/journal?from=2026-08-01&to=2026-11-22&format=csv${query}`, { token: hqStaff });
  expect(r.status).toBe(200);
  return (parse(String(r.json).replace(/^\uFEFF/, "")) as string[][]).slice(1);
};
const cents = (v: string) => (v === "" ? 0 : Math.round(Number(v) * 100));
/** Each journal's debits less credits (0 when it balances), by its number. */
function nets(rows: string[][]) {
  const by = new Map<string, number>();
  for (const r of rows) by.set(r[2]!, (by.get(r[2]!) ?? 0) + cents(r[6]!) - cents(r[7]!));
  return by;
}

test("the journal at HQ reads HQ's database and every site's copy: a balanced journal per day, site and shop", async () => {
  const rows = await journal("");
  const numbers = nets(rows);
  for (const [n, net] of numbers) expect(net, n).toBe(0);
  const ofSite = (site: string) => rows.filter((r) => r[1]!.endsWith(`(${site})`));
  // Both copies are there, their journals numbered apart (their shops' ids are alike), beside HQ's own.
  expect(ofSite("mosta").length).toBeGreaterThan(0);
  expect(ofSite("birkirkara").length).toBeGreaterThan(0);
  expect(rows.some((r) => !r[1]!.endsWith(")"))).toBe(true);
  expect(ofSite("mosta").every((r) => /^\d{8}-mosta-\d+$/.test(r[2]!))).toBe(true);
  // Today's deposit and its spend are in mosta's journal of today, not birkirkara's.
  const mostaToday = ofSite("mosta").filter((r) => r[0] === "22/11/2026");
  const bkToday = ofSite("birkirkara").filter((r) => r[0] === "22/11/2026");
  const depositsOwed = (rs: string[][]) => rs.filter((r) => /deposit/i.test(r[4]!)).reduce((a, r) => a + cents(r[7]!) - cents(r[6]!), 0);
  expect(depositsOwed(mostaToday)).toBe(3000 - spentCents);
  expect(depositsOwed(bkToday)).toBe(0);

  // One site: only its copy, the same lines as in the chain-wide file.
  const one = await journal("&site=mosta");
  expect(one).toEqual(ofSite("mosta"));
  // One shop of one site.
  const shop = await journal(`&site=mosta&agent=${hqAgent}`);
  expect(shop.length).toBeGreaterThan(0);
  expect(shop.every((r) => r[2]!.endsWith(`-mosta-${hqAgent}`))).toBe(true);
  expect(shop).toEqual(one.filter((r) => r[2]!.endsWith(`-mosta-${hqAgent}`)));
  // A site HQ does not know is not found; one without a copy yet is a conflict, as the chain reports.
  expect((await hq.call("GET", "/api/v1/accounting/journal?from=2026-11-01&to=2026-11-22&site=nowhere", { token: hqStaff })).status).toBe(404);
  mkdirSync(join(storage, "qormi"));
  expect((await hq.call("GET", "/api/v1/accounting/journal?from=2026-11-01&to=2026-11-22&site=qormi", { token: hqStaff })).status).toBe(409);
});

type AgedRow = { account_id: number; site: string | null; agent_name: string; name: string; balance: number } & Record<string, number | string | null>;
const BUCKETS = ["not_invoiced", "d0_30", "d31_60", "d61_90", "d90_plus", "balance"] as const;

test("the aged report at HQ reads HQ's database and every site's copy (?site= one), and a site's account has its statement there", async () => {
  const get = async (path: string) => {
    const r = await hq.call("GET", `/api/v1${path}`, { token: hqStaff });
    expect(r.status, `${path}: ${JSON.stringify(r.json)}`).toBe(200);
    return r.json.data;
  };
  const all = (await get("/accounts/aged")) as { accounts: AgedRow[]; totals: Record<string, number> };
  const of = (site: string | null) => all.accounts.filter((r) => r.site === site);
  // The demo's hotel is in HQ's own database and in both copies, each named by its shop and site.
  for (const site of [null, "mosta", "birkirkara"])
    expect(
      of(site).map((r) => r.name),
      String(site),
    ).toContain("Hotel Santa Maria");
  expect(of("mosta").every((r) => r.agent_name !== "" && !/^\d+$/.test(r.agent_name))).toBe(true);
  // The totals are every database's rows added up, to the cent.
  for (const k of BUCKETS) expect(Math.round(all.totals[k]! * 100), k).toBe(all.accounts.reduce((s, r) => s + Math.round(Number(r[k]) * 100), 0));
  // One site: its copy's rows only, the same as in the chain-wide report.
  const mosta = (await get("/accounts/aged?site=mosta")) as { accounts: AgedRow[] };
  expect(mosta.accounts).toEqual(of("mosta"));

  // The hotel's statement read in mosta's copy agrees with its aged row to the cent.
  const hotel = of("mosta").find((r) => r.name === "Hotel Santa Maria")!;
  const s = await get(`/accounts/${hotel.account_id}/statement?from=2026-01-01&to=2026-11-22&site=mosta`);
  expect(s.account_name).toBe("Hotel Santa Maria");
  expect(Math.round(s.closing_balance * 100) + Math.round(s.not_invoiced * 100)).toBe(Math.round(hotel.balance * 100));
  expect(s.lines.length).toBeGreaterThan(0);

  // The CSV names each row's shop and site.
  const csv = await hq.call("GET", "/api/v1/accounts/aged?format=csv", { token: hqStaff });
  expect(csv.status).toBe(200);
  const rows = parse(String(csv.json).replace(/^\uFEFF/, "")) as string[][];
  expect(rows.filter((r) => r[0] === "Hotel Santa Maria").map((r) => r[1]!.replace(/^.*\(/, "("))).toEqual(expect.arrayContaining(["(mosta)", "(birkirkara)"]));
  expect(rows.length).toBe(all.accounts.length + 2);

  // Unknown site, a site without a copy, an account the copy does not have: as the journal.
  expect((await hq.call("GET", "/api/v1/accounts/aged?site=nowhere", { token: hqStaff })).status).toBe(404);
  mkdirSync(join(storage, "qormi"), { recursive: true });
  expect((await hq.call("GET", "/api/v1/accounts/aged?site=qormi", { token: hqStaff })).status).toBe(409);
  expect((await hq.call("GET", "/api/v1/accounts/999999/statement?from=2026-01-01&to=2026-11-22&site=mosta", { token: hqStaff })).status).toBe(404);
});
