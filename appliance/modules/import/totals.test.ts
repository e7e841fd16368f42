// Issue 31: the importer writes money only as payment rows (the database refuses any other
// write of total_paid, migration 0014), and checks every paid total of the box after each run.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { TestBox } from "../../test/harness";
import { importInto, type Served, serve, testBox } from "./testkit";

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

const one = async <T>(box: TestBox, q: ReturnType<typeof sql>) => (await box.database.db.all<T>(q))[0];

test("each run checks the whole box: ok after a clean import", async () => {
  const report = await importInto(dst, served.url);
  expect(report.refusals).toEqual([]);
  expect(report.totals).toEqual({ ok: true, count: 0, message: "ok" });
  // A dry run writes nothing and checks nothing.
  expect((await importInto(dst, served.url, { dryRun: true })).totals).toBeNull();
}, 120_000);

test("a changed ticket whose money is partly on the ticket itself (its charges) is written again without touching what was paid", async () => {
  // A ticket with a payment row of its own (no item): what the old upsert reset to its items' sum.
  const own = await one<{ id: number; total_paid: number }>(
    src,
    sql`SELECT t.id, t.total_paid FROM tickets t WHERE EXISTS (SELECT 1 FROM payments p WHERE p.ticket_id = t.id AND p.ticket_sub_category_id IS NULL) ORDER BY t.id LIMIT 1`,
  );
  expect(own).toBeDefined();
  await src.database.client.execute({ sql: "UPDATE tickets SET delivery_comment = 'Ring twice' WHERE id = ?", args: [own!.id] });
  const report = await importInto(dst, served.url);
  expect(report.refusals).toEqual([]);
  expect(report.kinds.ticket).toMatchObject({ changed: 1, refused: 0 });
  expect(report.totals).toMatchObject({ ok: true, count: 0 });
  const here = await one<{ total_paid: number; delivery_comment: string; rows: number }>(
    dst,
    sql`SELECT total_paid, delivery_comment, (SELECT count(*) FROM payments WHERE ticket_id = ${own!.id}) AS rows FROM tickets WHERE id = ${own!.id}`,
  );
  const there = await one<{ rows: number }>(src, sql`SELECT count(*) AS rows FROM payments WHERE ticket_id = ${own!.id}`);
  // Same money, no second row for what was paid already.
  expect(here).toEqual({ total_paid: own!.total_paid, delivery_comment: "Ring twice", rows: there!.rows });
}, 120_000);

test("a paid total changed behind the triggers' back (an old or damaged file) is reported by the next run", async () => {
  const t = await one<{ id: number }>(dst, sql`SELECT id FROM tickets WHERE total_paid > 0 ORDER BY id LIMIT 1`);
  // The guard refuses it while it stands; drop it to make the damage an old file could hold.
  await expect(dst.database.client.execute({ sql: "UPDATE tickets SET total_paid = total_paid + 1 WHERE id = ?", args: [t!.id] })).rejects.toThrow(
    /total_paid must equal the sum of its payment rows/,
  );
  await dst.database.client.execute("DROP TRIGGER tickets_total_paid_update");
  await dst.database.client.execute({ sql: "UPDATE tickets SET total_paid = total_paid + 1 WHERE id = ?", args: [t!.id] });
  const report = await importInto(dst, served.url);
  expect(report.totals).toMatchObject({ ok: false, count: 1 });
  expect(report.totals!.message).toMatch(new RegExp(`^1 paid total differs from the payment rows \\(ticket ${t!.id}: €[\\d.]+ for €[\\d.]+ in rows\\)$`));
  // Kept with the run, for the screen and the report file.
  const stored = await one<{ report: string }>(dst, sql`SELECT report FROM import_runs ORDER BY id DESC LIMIT 1`);
  expect(JSON.parse(stored!.report).totals).toMatchObject({ ok: false, count: 1 });
}, 120_000);
