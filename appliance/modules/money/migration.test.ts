// Migration 0010 (issue 24): paid amounts written before payments were rows become rows of
// tender `other`, dated by the audit log where it names the payment, and every total stays.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "drizzle-orm/libsql/migrator";
import { type Database, migrateDatabase, migrationsFolder, openDatabase } from "../../../db/client";
import { checkPaymentSums } from "./check";

let dir: string;
let database: Database;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-pay-mig-"));
  const old = join(dir, "migrations-before");
  cpSync(migrationsFolder, old, { recursive: true });
  const journal = JSON.parse(readFileSync(join(old, "meta/_journal.json"), "utf8"));
  // Found by name, so renumbering the migration keeps the test meaningful.
  const at = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith("_payments"));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(join(old, "meta/_journal.json"), JSON.stringify(journal));
  database = await openDatabase(`file:${join(dir, "t.db")}`);
  await migrate(database.db, { migrationsFolder: old });
});
afterAll(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

test("existing paid amounts become rows (tender other, dated by the audit log); every total stays", async () => {
  const run = (sql: string) => database.client.execute(sql);
  await run("INSERT INTO agents (id, name, user_name, is_hq) VALUES (1, 'HQ', 'hq', 1), (2, 'Mosta', 'mosta', 0)");
  await run("INSERT INTO employees (id, agent_id, full_name, role, pin_hash) VALUES (1, 2, 'Sarah', 'manager', 'h1'), (2, 2, 'Dan', 'driver', 'h2')");
  await run("INSERT INTO customers (id, agent_id, full_name, mobile) VALUES (1, 2, 'Joe', '79000000')");
  await run("INSERT INTO garment_categories (id, type, name) VALUES (1, 'Dry Clean', 'Suits')");
  await run("INSERT INTO garment_sub_categories (id, garment_category_id, name) VALUES (1, 1, 'Suit')");
  // Ticket 1: paid in full by the driver (audit: pay_in_full) incl. a €2 charge; ticket 2: one item paid
  // (audit: payment, in summer time); ticket 3: nothing paid; ticket 4: paid, no audit row (its confirmation dates it).
  await run(`INSERT INTO tickets (id, agent_id, employee_id, customer_id, total, total_paid, delivery_charge, confirmed_at, created_at) VALUES
    (1, 2, 1, 1, 1200, 1200, 200, '2026-01-10T09:00:00.000Z', '2026-01-10T08:00:00.000Z'),
    (2, 2, 1, 1, 1500, 500, 0, '2026-07-01T09:00:00.000Z', '2026-07-01T08:00:00.000Z'),
    (3, 2, 1, 1, 900, 0, 0, '2026-07-02T09:00:00.000Z', '2026-07-02T08:00:00.000Z'),
    (4, 2, 1, 1, 700, 700, 0, '2026-03-29T22:30:00.000Z', '2026-03-29T22:00:00.000Z')`);
  await run(`INSERT INTO ticket_sub_categories (id, ticket_id, garment_sub_category_id, total, total_paid) VALUES
    (1, 1, 1, 1000, 1000), (2, 2, 1, 500, 500), (3, 2, 1, 1000, 0), (4, 3, 1, 900, 0), (5, 4, 1, 700, 700)`);
  await run(`INSERT INTO audit_log (at, agent_id, employee_id, action, entity, entity_id, detail) VALUES
    ('2026-01-12T23:30:00.000Z', 2, 2, 'pay_in_full', 'ticket', 1, '{"amount_cents":1200}'),
    ('2026-07-03T22:30:00.000Z', 2, 1, 'payment', 'ticket_sub_category', 2, '{"amount_cents":500}')`);

  await migrateDatabase(database);

  const rows = (
    await run("SELECT ticket_id, ticket_sub_category_id, amount, tender, employee_id, taken_at, till_day FROM payments ORDER BY ticket_id, id")
  ).rows.map((r) => Object.values(r));
  expect(rows).toEqual([
    [1, null, 200, "other", 2, "2026-01-12T23:30:00.000Z", "2026-01-13"],
    [1, 1, 1000, "other", 2, "2026-01-12T23:30:00.000Z", "2026-01-13"],
    [2, 2, 500, "other", 1, "2026-07-03T22:30:00.000Z", "2026-07-04"],
    // 22:30 UTC on 29 March 2026 is after the change to summer time: 00:30 on the 30th in Malta.
    [4, 5, 700, "other", 1, "2026-03-29T22:30:00.000Z", "2026-03-30"],
  ]);
  const totals = (await run("SELECT id, total_paid FROM tickets ORDER BY id")).rows.map((r) => Object.values(r));
  expect(totals).toEqual([
    [1, 1200],
    [2, 500],
    [3, 0],
    [4, 700],
  ]);
  expect(await checkPaymentSums(async (sql) => (await run(sql)).rows.map((r) => Object.values(r)))).toEqual([]);
  // From now on a row moves its totals with it.
  await run(
    "INSERT INTO payments (ticket_id, ticket_sub_category_id, agent_id, amount, tender, taken_at, till_day) VALUES (2, 3, 2, 1000, 'card', '2026-11-22T09:00:00.000Z', '2026-11-22')",
  );
  expect((await run("SELECT total_paid FROM tickets WHERE id = 2")).rows[0]!.total_paid).toBe(1500);
  expect((await run("SELECT total_paid FROM ticket_sub_categories WHERE id = 3")).rows[0]!.total_paid).toBe(1000);
});
