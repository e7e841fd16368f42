import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, migrateDatabase, openDatabase, PAGE_SIZE, startCheckpointer } from "./client";

let dir: string;
let database: Database;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-db-"));
  database = await openDatabase(`file:${join(dir, "t.db")}`);
  await migrateDatabase(database);
});
afterAll(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const pragma = async (name: string) => Object.values((await database.client.execute(`PRAGMA ${name}`)).rows[0]!)[0];

test("durability pragmas are in force on the pool's connections, inside transactions too", async () => {
  expect(await pragma("journal_mode")).toBe("wal");
  expect(await pragma("synchronous")).toBe(2); // FULL
  expect(await pragma("foreign_keys")).toBe(1);
  expect(await pragma("busy_timeout")).toBe(5000);
  const tx = await database.client.transaction("write");
  try {
    expect(Object.values((await tx.execute("PRAGMA synchronous")).rows[0]!)[0]).toBe(2);
    expect(Object.values((await tx.execute("PRAGMA foreign_keys")).rows[0]!)[0]).toBe(1);
  } finally {
    await tx.rollback();
  }
});

test("migrations apply once and re-apply as a no-op", async () => {
  await migrateDatabase(database);
  const tables = await database.client.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name");
  const names = tables.rows.map((r) => r.name);
  for (const t of [
    "tickets",
    "ticket_sub_categories",
    "ticket_states",
    "sessions",
    "audit_log",
    "idempotency_keys",
    "print_jobs",
    "outgoing_messages",
    "images",
    "employee_owings",
  ]) {
    expect(names).toContain(t);
  }
  expect(await pragma("integrity_check")).toBe("ok");
});

test("foreign keys are enforced", async () => {
  expect(database.client.execute("INSERT INTO streets (locality_id, name) VALUES (424242, 'Nowhere')")).rejects.toThrow(/FOREIGN KEY/);
});

test("the audit trail refuses updates and deletes", async () => {
  await database.client.execute("INSERT INTO audit_log (at, action, entity) VALUES ('2026-01-01T00:00:00Z', 'test', 'x')");
  expect(database.client.execute("UPDATE audit_log SET action = 'changed'")).rejects.toThrow(/append-only/);
  expect(database.client.execute("DELETE FROM audit_log")).rejects.toThrow(/append-only/);
});

test("a write during another request's transaction waits its turn instead of freezing on SQLITE_BUSY", async () => {
  await database.client.execute("CREATE TABLE IF NOT EXISTS t_conc (v INTEGER)");
  const slowTx = (async () => {
    const tx = await database.client.transaction("write");
    await tx.execute("INSERT INTO t_conc VALUES (1)");
    await Bun.sleep(200); // a request awaiting something mid-transaction
    await tx.execute("INSERT INTO t_conc VALUES (2)");
    await tx.commit();
  })();
  await Bun.sleep(20);
  const other = database.client.execute("INSERT INTO t_conc VALUES (3)");
  const read = await database.client.execute("SELECT count(*) AS n FROM t_conc"); // reads never wait
  // A write frozen on SQLITE_BUSY would block the loop, so the transaction's sleep could not end
  // and the write would fail with SQLITE_BUSY: both settle, in order.
  await Promise.all([slowTx, other]);
  expect(Number(read.rows[0]!.n)).toBe(0);
  expect((await database.client.execute("SELECT v FROM t_conc ORDER BY rowid")).rows.map((r) => r.v)).toEqual([1, 2, 3]);
});

test("no auto-checkpoint holds a write: the WAL grows past 1000 pages on every connection writes use; an idle checkpointer folds it back", async () => {
  const d = await openDatabase(`file:${join(dir, "wal.db")}`);
  try {
    const c = d.client;
    await c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)");
    // Writes of every kind, with reads running during transactions so the pool opens more connections.
    for (let i = 0; i < 600; i++) {
      const tx = await c.transaction("write");
      const reading = c.execute("SELECT count(*) FROM t");
      await tx.execute({ sql: "INSERT INTO t (v) VALUES (?)", args: [`tx ${i}`] });
      await tx.commit();
      await reading;
      await c.execute({ sql: "INSERT INTO t (v) VALUES (?)", args: [`plain ${i}`] });
      await c.batch([{ sql: "INSERT INTO t (v) VALUES (?)", args: [`batch ${i}`] }], "write");
    }
    // A frame is a 24-byte header and a page.
    const walPages = () => Bun.file(join(dir, "wal.db-wal")).size / (24 + PAGE_SIZE);
    // With SQLite's default (1000 pages) the WAL would have been checkpointed and reused.
    expect(walPages()).toBeGreaterThan(1500);
    expect(d.activity!.sinceCheckpoint).toBeGreaterThanOrEqual(1800);
    // The checkpoint runs on its own thread (issue 33): the event loop keeps turning while it
    // copies the WAL's pages. On the loop's own connection libSQL would hold it to the end, and
    // a callback that re-queues itself with setImmediate would not run once.
    let turns = 0;
    let pending = true;
    const spin = () => {
      if (!pending) return;
      turns++;
      setImmediate(spin);
    };
    setImmediate(spin);
    const first = await d.checkpoint!();
    pending = false;
    expect(first).toMatchObject({ busy: false });
    expect(first.checkpointed).toBeGreaterThan(1500);
    expect(turns).toBeGreaterThan(0);
    // New writes, then the idle checkpointer folds them back.
    for (let i = 0; i < 50; i++) await c.execute({ sql: "INSERT INTO t (v) VALUES (?)", args: [`late ${i}`] });
    const stop = startCheckpointer(d, { everyMs: 20, idleMs: 60 });
    for (let i = 0; i < 100 && d.activity!.sinceCheckpoint > 0; i++) await Bun.sleep(20);
    stop();
    expect(d.activity!.sinceCheckpoint).toBe(0);
    const [busy, log, checkpointed] = Object.values((await c.execute("PRAGMA wal_checkpoint(PASSIVE)")).rows[0]!).map(Number);
    expect([busy, checkpointed]).toEqual([0, log]);
    expect(Number(Object.values((await c.execute("SELECT count(*) FROM t")).rows[0]!)[0])).toBe(1850);
  } finally {
    d.close();
  }
});
