import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "drizzle-orm/libsql/migrator";
import { type Database, migrateDatabase, migrationsFolder, openDatabase } from "./client";

/**
 * Upgrades are tested from the release before: a database migrated up to 0004 with rows in
 * it, then the current migrations. Migration 0005 gives every existing address and image an
 * owner shop, which decides who may read them from then on.
 */
let dir: string;
let database: Database;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-mig-"));
  const old = join(dir, "migrations-0004");
  cpSync(migrationsFolder, old, { recursive: true });
  const journal = JSON.parse(readFileSync(join(old, "meta/_journal.json"), "utf8"));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 4);
  writeFileSync(join(old, "meta/_journal.json"), JSON.stringify(journal));
  database = await openDatabase(`file:${join(dir, "t.db")}`);
  await migrate(database.db, { migrationsFolder: old });
});
afterAll(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

test("0005 assigns each address to the shop that uses it, images to the uploader's shop, and marks PINs as legacy", async () => {
  const run = (sql: string) => database.client.execute(sql);
  await run("INSERT INTO localities (id, name) VALUES (1, 'Mosta')");
  await run("INSERT INTO streets (id, locality_id, name) VALUES (1, 1, 'Triq il-Kbira')");
  // Agent 1 is HQ; 2 and 3 are shops.
  await run("INSERT INTO agents (id, name, user_name, is_hq) VALUES (1, 'HQ', 'hq', 1), (2, 'Mosta', 'mosta', 0), (3, 'B Kara', 'bkara', 0)");
  await run("INSERT INTO employees (id, agent_id, full_name, role, pin_hash) VALUES (1, 2, 'Sarah', 'manager', 'h1'), (2, 3, 'Claire', 'admin', 'h2')");
  // Address 1: a customer's home (shop 2) that shop 3's ticket also points at: the customer wins.
  // 2: only a ticket's pickup point (shop 3). 3: an agent's premises (shop 3). 4: created by
  // shop 2 (audit trail) and used by nothing. 5: nobody's: HQ.
  for (let i = 1; i <= 5; i++) await run(`INSERT INTO addresses (id, locality_id, street_id) VALUES (${i}, 1, 1)`);
  await run("INSERT INTO customers (id, agent_id, full_name, address_id) VALUES (1, 2, 'Rita Borg', 1), (2, 3, 'Paul Vella', NULL)");
  await run("UPDATE agents SET address_id = 3 WHERE id = 3");
  await run("INSERT INTO tickets (id, agent_id, employee_id, customer_id, pickup_address_id, delivery_address_id) VALUES (1, 3, 2, 2, 2, 1)");
  await run("INSERT INTO audit_log (at, agent_id, employee_id, action, entity, entity_id) VALUES ('2026-01-01T00:00:00Z', 2, 1, 'create', 'address', 4)");
  await run("INSERT INTO images (id, file, mime, size, uploaded_by) VALUES (1, 'a.png', 'image/png', 10, 2), (2, 'b.png', 'image/png', 10, NULL)");

  await migrateDatabase(database);

  const owners = (await run("SELECT id, agent_id FROM addresses ORDER BY id")).rows.map((r) => [r.id, r.agent_id]);
  expect(owners).toEqual([
    [1, 2],
    [2, 3],
    [3, 3],
    [4, 2],
    [5, 1],
  ]);
  const images = (await run("SELECT id, agent_id FROM images ORDER BY id")).rows.map((r) => [r.id, r.agent_id]);
  expect(images).toEqual([
    [1, 3],
    [2, 1],
  ]);
  const legacy = (await run("SELECT pin_legacy FROM employees")).rows.map((r) => r.pin_legacy);
  expect(legacy).toEqual([1, 1]);
});
