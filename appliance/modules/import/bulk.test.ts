// Issue 26, speed: a page of new tickets is written at once (bulk.ts). A hostile record in a
// page is still refused alone with its reason and never half-written, the others land, and
// every paid amount is the sum of its payment rows. The attacks: money that does not add up
// (passes the record check, fails the money check), and an item id that two tickets of one
// page both claim (the page's transaction fails and is written record by record).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { TestBox } from "../../test/harness";
import { checkPaymentSums } from "../money/check";
import { importInto, type Served, serve, testBox } from "./testkit";

let src: TestBox;
let served: Served;

beforeAll(async () => {
  src = await testBox({ demo: true });
  served = serve(src);
}, 60_000);
afterAll(() => {
  served.stop();
  src.close();
});

/** The old system as the demo box, with the ticket list's pages spoiled by `spoil`. */
const spoiled = (spoil: (rows: any[]) => void): typeof fetch =>
  Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init);
      if (new URL(String(input)).pathname !== "/api/v1/tickets/") return res;
      const body = (await res.json()) as { success: boolean; data: any[] };
      spoil(body.data);
      return new Response(JSON.stringify(body), { status: res.status, headers: { "content-type": "application/json" } });
    },
    { preconnect: fetch.preconnect },
  );

const count = async (box: TestBox, q: string) => (await box.database.db.all<{ n: number }>(sql.raw(q)))[0]!.n;
const sumsOf = (box: TestBox) => checkPaymentSums(async (q) => (await box.database.client.execute(q)).rows.map((r) => Object.values(r)));

/** The source's tickets with items, newest first, as the list pages them. */
const listed = async () => src.database.db.all<{ id: number; total: number; total_paid: number }>(sql`SELECT id, total, total_paid FROM tickets ORDER BY id`);

test("control: a clean import writes every ticket in pages, paid amounts equal to their rows and to the source", async () => {
  const dst = await testBox({});
  try {
    const r = await importInto(dst, served.url);
    expect(r.refusals).toEqual([]);
    expect(r.money.equal_to_source).toBe(true);
    expect(await sumsOf(dst)).toEqual([]);
    const there = new Map((await listed()).map((t) => [t.id, t]));
    const here = await dst.database.db.all<{ id: number; total: number; total_paid: number }>(sql`SELECT id, total, total_paid FROM tickets ORDER BY id`);
    expect(here.length).toBe(there.size);
    for (const t of here) expect(t).toEqual(there.get(t.id)!);
    // Payment rows: one per paid item, one per ticket for what was paid beyond its items.
    expect(await count(dst, "SELECT count(*) AS n FROM payments WHERE amount <= 0")).toBe(0);
    expect(await count(dst, "SELECT count(*) AS n FROM payments")).toBeGreaterThan(10);
    expect(await count(dst, "SELECT count(*) AS n FROM import_records WHERE kind = 'ticket'")).toBe(there.size);
  } finally {
    dst.close();
  }
}, 120_000);

test("attack: one ticket of a page whose money does not add up is refused with its reason; the page's others land whole", async () => {
  let victim = 0;
  const fetchSpoiled = spoiled((rows) => {
    const t = rows.find((x) => x.ticket_sub_categories?.length >= 2 && (victim === 0 || x.id === victim));
    if (!t) return;
    victim = t.id;
    t.total = Math.round((t.total + 1) * 100) / 100; // one euro more than its items and charges
  });
  const dst = await testBox({});
  try {
    const r = await importInto(dst, served.url, { fetch: fetchSpoiled });
    expect(victim).toBeGreaterThan(0);
    const refused = r.refusals.filter((x) => x.kind === "ticket");
    expect(refused).toEqual([
      { kind: "ticket", id: victim, reason: expect.stringMatching(/^money check: total €[\d.]+ is not the sum of its items and charges/) },
    ]);
    expect(r.money.equal_to_source).toBe(false);
    // Nothing of it was written: not the ticket, its items, its payments nor its fingerprint.
    expect(await count(dst, `SELECT count(*) AS n FROM tickets WHERE id = ${victim}`)).toBe(0);
    expect(await count(dst, `SELECT count(*) AS n FROM ticket_sub_categories WHERE ticket_id = ${victim}`)).toBe(0);
    expect(await count(dst, `SELECT count(*) AS n FROM payments WHERE ticket_id = ${victim}`)).toBe(0);
    expect(await count(dst, `SELECT count(*) AS n FROM import_records WHERE kind = 'ticket' AND source_id = ${victim}`)).toBe(0);
    // Every other ticket came, equal to the source, its paid amounts the sums of their rows.
    const there = new Map((await listed()).map((t) => [t.id, t]));
    const here = await dst.database.db.all<{ id: number; total: number; total_paid: number }>(sql`SELECT id, total, total_paid FROM tickets ORDER BY id`);
    expect(here.length).toBe(there.size - 1);
    for (const t of here) expect(t).toEqual(there.get(t.id)!);
    expect(await sumsOf(dst)).toEqual([]);
  } finally {
    dst.close();
  }
}, 120_000);

test("attack: two tickets of one page claiming the same item id: the first lands, the second is refused, the rest of the page lands", async () => {
  let pair: [number, number] | null = null;
  const fetchSpoiled = spoiled((rows) => {
    const withItems = rows.filter((x) => x.ticket_sub_categories?.length === 1);
    if (pair === null && withItems.length >= 2) pair = [withItems[0].id, withItems[1].id];
    if (!pair) return;
    const a = rows.find((x) => x.id === pair![0]);
    const b = rows.find((x) => x.id === pair![1]);
    if (a && b) b.ticket_sub_categories[0].id = a.ticket_sub_categories[0].id;
  });
  const dst = await testBox({});
  try {
    const r = await importInto(dst, served.url, { fetch: fetchSpoiled });
    expect(pair).not.toBeNull();
    const [first, second] = pair!;
    const refused = r.refusals.filter((x) => x.kind === "ticket");
    expect(refused.map((x) => x.id)).toEqual([second]);
    expect(refused[0]!.reason).toMatch(/item \d+ belongs to ticket \d+ on this box/);
    expect(await count(dst, `SELECT count(*) AS n FROM tickets WHERE id = ${first}`)).toBe(1);
    expect(await count(dst, `SELECT count(*) AS n FROM tickets WHERE id = ${second}`)).toBe(0);
    expect(await count(dst, `SELECT count(*) AS n FROM payments WHERE ticket_id = ${second}`)).toBe(0);
    expect(await count(dst, "SELECT count(*) AS n FROM tickets")).toBe((await listed()).length - 1);
    expect(await sumsOf(dst)).toEqual([]);
  } finally {
    dst.close();
  }
}, 120_000);
