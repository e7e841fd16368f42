// Migration signature_shop (issue 22): a signature carries its shop and size, so a shop's
// signatures are summed from an index instead of a pass over the whole ticket log. Signatures
// kept before the migration get both from the log rows that reference them; later ones from
// triggers, whatever writes them.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "drizzle-orm/libsql/migrator";
import { type Database, migrateDatabase, migrationsFolder, openDatabase } from "../../../db/client";
import { createStorageRules } from "../images/storage";
import { createSignatureStore } from "./signatures";

let dir: string;
let database: Database;
const run = (sql: string) => database.client.execute(sql);
const rows = async (sql: string) => (await run(sql)).rows.map((r) => Object.values(r));
const sig = (chars: number) => `data:image/png;base64,${"A".repeat(chars - 22)}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-sig-mig-"));
  const old = join(dir, "migrations-before");
  cpSync(migrationsFolder, old, { recursive: true });
  const journal = JSON.parse(readFileSync(join(old, "meta/_journal.json"), "utf8"));
  // Found by name, so renumbering the migration keeps the test meaningful.
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith("_signature_shop")),
  );
  writeFileSync(join(old, "meta/_journal.json"), JSON.stringify(journal));
  database = await openDatabase(`file:${join(dir, "t.db")}`);
  await migrate(database.db, { migrationsFolder: old });
});
afterAll(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

test("signatures kept before the migration get their shop (from the log) and size; a shop's total is read from the index", async () => {
  await run("INSERT INTO agents (id, name, user_name, is_hq) VALUES (1, 'HQ', 'hq', 1), (2, 'Mosta', 'mosta', 0), (3, 'Birkirkara', 'bkara', 0)");
  await run("INSERT INTO employees (id, agent_id, full_name, role, pin_hash) VALUES (1, 2, 'Dan', 'driver', 'h1'), (2, 3, 'Bea', 'driver', 'h2')");
  await run("INSERT INTO customers (id, agent_id, full_name, mobile) VALUES (1, 2, 'Joe', '79000000'), (2, 3, 'Ann', '79000001')");
  await run("INSERT INTO tickets (id, agent_id, employee_id, customer_id) VALUES (1, 2, 1, 1), (2, 2, 1, 1), (3, 3, 2, 2)");
  await run(`INSERT INTO signatures (id, data_url, created_at) VALUES
    (1, '${sig(1000)}', '2026-01-01T00:00:00Z'), (2, '${sig(3000)}', '2026-01-01T00:00:00Z'),
    (3, '${sig(500)}', '2026-01-01T00:00:00Z'), (4, '${sig(700)}', '2026-01-01T00:00:00Z')`);
  // Signature 2 signed a change of two tickets (two log rows); 4 is referenced by no ticket log.
  await run(`INSERT INTO ticket_log_states (ticket_id, state, logged_at, log, employee_id, agent_id, signature_id) VALUES
    (1, 'DELIVERED', '2026-01-02T00:00:00Z', 'x', 1, 2, 1), (1, 'CLOSED', '2026-01-03T00:00:00Z', 'x', 1, 2, 2),
    (2, 'CLOSED', '2026-01-03T00:00:00Z', 'x', 1, 2, 2), (3, 'DELIVERED', '2026-01-03T00:00:00Z', 'x', 2, 3, 3),
    (3, 'MARKED', '2026-01-01T00:00:00Z', 'x', 2, 3, NULL)`);

  await migrateDatabase(database);

  expect(await rows("SELECT id, agent_id, bytes FROM signatures ORDER BY id")).toEqual([
    [1, 2, 1000],
    [2, 2, 3000],
    [3, 3, 500],
    [4, null, 700],
  ]);
  const store = createSignatureStore({
    db: database.db,
    rules: createStorageRules({
      dataDir: dir,
      limits: { quotaBytes: 4500, minFreeBytes: 0, minFreeShare: 0 },
      space: async () => ({ free: 1e12, total: 2e12 }),
    }),
    otherBytes: async () => 0,
  });
  expect(await store.bytes(2)).toBe(4000);
  expect(await store.bytes(3)).toBe(500);
  expect(await store.bytes(1)).toBe(0);
  // The quota still holds on the migrated counts: Mosta has 500 bytes left, Birkirkara 4,000.
  expect((await store.hold(2, sig(600)).catch((e) => e)).kind).toBe("insufficient_storage");
  expect(await store.hold(2, sig(500))).not.toBeNull();
  expect(await store.hold(3, sig(3000))).not.toBeNull();
  // The sum reads that shop's entries of the (agent_id, bytes) index, not the log nor the images.
  const plan = (await rows("EXPLAIN QUERY PLAN SELECT coalesce(sum(bytes), 0) FROM signatures WHERE agent_id = 2")).map((r) => String(r.at(-1)));
  expect(plan.join(" ")).toContain("USING COVERING INDEX signatures_agent_bytes_idx (agent_id=?)");
});

test("a signature written after the migration gets its size at once and its shop from its change's log row", async () => {
  await run(`INSERT INTO signatures (id, data_url, created_at) VALUES (10, '${sig(2048)}', '2026-02-01T00:00:00Z')`);
  expect(await rows("SELECT agent_id, bytes FROM signatures WHERE id = 10")).toEqual([[null, 2048]]);
  await run(`INSERT INTO ticket_log_states (ticket_id, state, logged_at, log, employee_id, agent_id, signature_id) VALUES
    (3, 'CLOSED', '2026-02-01T00:00:00Z', 'x', 2, 3, 10), (3, 'CLOSED', '2026-02-01T00:00:00Z', 'x', 2, 2, 10)`);
  // The first log row of the change names the shop; nothing later moves it.
  expect(await rows("SELECT agent_id, bytes FROM signatures WHERE id = 10")).toEqual([[3, 2048]]);
});
