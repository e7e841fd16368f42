import { afterAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { backupDatabase } from "./backups";
import { openDatabase, PAGE_SIZE } from "./client";
import { convertPageSize } from "./pageSize";

/**
 * Issue 33, second pass: WAL frames are whole pages, so new databases get 2 KB pages (half the
 * bytes a sale ships to HQ), and an existing box's 4 KB database is rewritten offline.
 */
const dir = mkdtempSync(join(tmpdir(), "ironbox-pagesize-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const one = async (url: string, q: string) => {
  const c = createClient({ url });
  try {
    return (await c.execute(q)).rows[0]![0];
  } finally {
    c.close();
  }
};

test("a new database gets 2 KB pages, in WAL mode", async () => {
  expect(PAGE_SIZE).toBe(2048);
  const database = await openDatabase(`file:${join(dir, "new", "ironbox.db")}`);
  try {
    await database.client.execute("CREATE TABLE t (v TEXT)");
    expect(Number((await database.client.execute("PRAGMA page_size")).rows[0]![0])).toBe(2048);
    expect((await database.client.execute("PRAGMA journal_mode")).rows[0]![0]).toBe("wal");
  } finally {
    database.close();
  }
});

test("an existing 4 KB database opens as it is, and is rewritten with 2 KB pages, its WAL's rows included", async () => {
  const live = join(dir, "live.db");
  const writer = createClient({ url: `file:${live}` });
  await writer.executeMultiple(`PRAGMA page_size=4096; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;
    CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL);
    CREATE INDEX items_name_idx ON items (name);`);
  for (let i = 0; i < 20; i++)
    await writer.execute({ sql: "INSERT INTO items (name) SELECT ? || value FROM generate_series(1, 100)", args: [`batch ${i} item `] });
  // A box stopped hard: the file and a WAL never checkpointed into it.
  const file = join(dir, "box.db");
  copyFileSync(live, file);
  copyFileSync(`${live}-wal`, `${file}-wal`);
  writer.close();

  // Opening an existing database does not change its page size (SQLite cannot, in WAL mode).
  const opened = await openDatabase(`file:${file}`);
  expect(Number((await opened.client.execute("PRAGMA page_size")).rows[0]![0])).toBe(4096);
  // Nor that of the copy an upgrade takes first (VACUUM INTO would use a page size set on the connection).
  const copy = await backupDatabase(opened.client, file, "test", new Date("2026-11-28T12:00:00Z"));
  opened.close();
  expect(Number(await one(`file:${copy.file}`, "PRAGMA page_size"))).toBe(4096);

  const logs: string[] = [];
  const r = await convertPageSize(file, { log: (m) => logs.push(m) });
  expect(r).toMatchObject({ from: 4096, to: 2048 });
  expect(logs.at(-1)).toContain("now 2048-byte pages");
  expect(existsSync(`${file}.page-size`)).toBe(false);
  expect(Number(await one(`file:${file}`, "PRAGMA page_size"))).toBe(2048);
  expect(await one(`file:${file}`, "PRAGMA journal_mode")).toBe("wal");
  expect(await one(`file:${file}`, "PRAGMA integrity_check")).toBe("ok");
  expect(Number(await one(`file:${file}`, "SELECT count(*) FROM items"))).toBe(2000);
  // AUTOINCREMENT's high-water mark came along: no id is handed out twice.
  expect(Number(await one(`file:${file}`, "SELECT seq FROM sqlite_sequence WHERE name = 'items'"))).toBe(2000);
  expect(Number(await one(`file:${file}`, "SELECT count(*) FROM sqlite_schema WHERE name = 'items_name_idx'"))).toBe(1);

  // Run again (an upgrade run twice): nothing to do.
  const again = await convertPageSize(file);
  expect(again).toMatchObject({ from: 2048, to: 2048, ms: 0 });
});

test("a database that is being written is not swapped out from under its writer", async () => {
  const file = join(dir, "busy.db");
  const writer = createClient({ url: `file:${file}`, timeout: 100 });
  await writer.executeMultiple("PRAGMA page_size=4096; PRAGMA journal_mode=WAL; CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('x');");
  const tx = await writer.transaction("write");
  await tx.execute("INSERT INTO t VALUES ('y')");
  try {
    await expect(convertPageSize(file, { busyMs: 100 })).rejects.toThrow(/busy|locked/i);
  } finally {
    await tx.rollback();
    writer.close();
  }
  expect(Number(await one(`file:${file}`, "PRAGMA page_size"))).toBe(4096);
  expect(Number(await one(`file:${file}`, "SELECT count(*) FROM t"))).toBe(1);
  expect(existsSync(`${file}.page-size`)).toBe(false);
});
