import { afterAll, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { listBackups } from "./backups";
import { migrateDatabase, migrationsFolder, openDatabase, pendingMigrations } from "./client";

/**
 * Upgrades in place: before a release migrates a database that has data, the box keeps a
 * consistent copy of it; a migration that fails leaves the database exactly as it was.
 */
const dir = mkdtempSync(join(tmpdir(), "ironbox-backup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the committed migrations with one more: `sql` as migration 0099. */
function migrationsWith(name: string, sql: string) {
  const folder = join(dir, name);
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  const last = journal.entries.at(-1);
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: `0099_${name}` });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(join(folder, `0099_${name}.sql`), sql);
  return folder;
}

const dump = async (file: string) => {
  const c = createClient({ url: `file:${file}` });
  try {
    const tables = (await c.execute("SELECT name, sql FROM sqlite_master ORDER BY name")).rows.map((r) => `${r.name}:${r.sql}`);
    const agents = (await c.execute("SELECT id, name FROM agents ORDER BY id")).rows.map((r) => `${r.id}:${r.name}`);
    const migrations = Number((await c.execute("SELECT count(*) AS n FROM __drizzle_migrations")).rows[0]!.n);
    return { tables, agents, migrations };
  } finally {
    c.close();
  }
};

test("a failing migration leaves the data as it was, the copy taken before it is there, and a good one then applies", async () => {
  const file = join(dir, "box", "ironbox.db");
  const database = await openDatabase(`file:${file}`);
  // A fresh database: nothing to keep, no copy.
  expect((await migrateDatabase(database, { backup: { version: "1.0.0", now: new Date("2026-01-01T00:00:00Z") } })).backup).toBeNull();
  await database.client.execute("INSERT INTO agents (id, name, user_name, is_hq) VALUES (1, 'HQ', 'hq', 1), (2, 'Mosta', 'mosta', 0)");
  database.close();
  const before = await dump(file);

  // The second statement fails after the first has changed the schema and the data.
  const bad = migrationsWith(
    "bad",
    "ALTER TABLE agents ADD COLUMN motto text;\n--> statement-breakpoint\nUPDATE agents SET motto = 'x';\n--> statement-breakpoint\nINSERT INTO no_such_table VALUES (1);",
  );
  const again = await openDatabase(`file:${file}`);
  expect(await pendingMigrations(again, bad)).toBe(1);
  const failed = migrateDatabase(again, { folder: bad, backup: { version: "1.1.0", now: new Date("2026-02-01T10:20:30Z") } });
  expect(failed).rejects.toThrow(/no such table/);
  await failed.catch(() => {});
  expect(await pendingMigrations(again, bad)).toBe(1);
  again.close();
  expect(await dump(file)).toEqual(before);

  const [copy] = listBackups(file);
  expect(copy).toMatchObject({ version: "1.1.0", at: "2026-02-01T10:20:30.000Z" });
  expect(copy!.file).toBe(join(dir, "box", "backups", "ironbox-1.1.0-20260201T102030Z.db"));
  expect(await dump(copy!.file)).toEqual(before);

  // A good migration applies; the copies are kept to the newest five.
  const good = migrationsWith("good", "ALTER TABLE agents ADD COLUMN motto text;");
  for (let i = 0; i < 6; i++) {
    const d = await openDatabase(`file:${file}`);
    if (i > 0) await d.client.execute("DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)");
    if (i > 0) await d.client.execute("ALTER TABLE agents DROP COLUMN motto");
    const r = await migrateDatabase(d, { folder: good, backup: { version: "1.1.1", now: new Date(Date.UTC(2026, 2, 1, 0, 0, i)) } });
    expect(r.applied).toBe(1);
    expect(existsSync(r.backup!.file)).toBe(true);
    d.close();
  }
  const kept = listBackups(file);
  expect(kept.length).toBe(5);
  expect(kept[0]!.at).toBe("2026-03-01T00:00:05.000Z");
  expect((await dump(file)).tables.find((t) => t.startsWith("agents:"))).toContain("motto");
});
