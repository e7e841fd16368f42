import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { openDatabase } from "./client";

/** Issue 33: a statement is prepared once per connection, and stays right across schema changes and errors. */
test("the same SQL text is prepared once per connection; a schema change and a failed run leave it usable", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ironbox-stmts-"));
  const database = await openDatabase(`file:${join(dir, "t.db")}`);
  try {
    const raw = new Database(join(dir, "raw.db"));
    expect(raw.prepare("SELECT 1")).toBe(raw.prepare("SELECT 1"));
    expect(raw.prepare("SELECT 1")).not.toBe(new Database(join(dir, "raw.db")).prepare("SELECT 1"));
    raw.close();

    const c = database.client;
    await c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT UNIQUE)");
    const ins = "INSERT INTO t (a) VALUES (?)";
    await c.execute({ sql: ins, args: ["x"] });
    await expect(c.execute({ sql: ins, args: ["x"] })).rejects.toThrow(/UNIQUE/);
    await c.execute({ sql: ins, args: ["y"] });
    await c.execute("ALTER TABLE t ADD COLUMN b TEXT DEFAULT 'z'");
    const read = "SELECT a, b FROM t ORDER BY id";
    expect((await c.execute(read)).rows.map((r) => [r.a, r.b])).toEqual([
      ["x", "z"],
      ["y", "z"],
    ]);
    // `*` widens with the schema: such a text is not kept.
    await c.execute("SELECT * FROM t");
    await c.execute("ALTER TABLE t ADD COLUMN d INTEGER DEFAULT 4");
    expect((await c.execute("SELECT * FROM t")).columns).toEqual(["id", "a", "b", "d"]);
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The file's descriptors this process holds. */
const openFds = (file: string) =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(file);
    } catch {
      return false;
    }
  }).length;

test("a closed database releases its file at once, kept statements and all (an import or a restore checks /proc)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "ironbox-stmts-"));
  const file = join(dir, "t.db");
  try {
    const database = await openDatabase(`file:${file}`);
    await database.client.execute("CREATE TABLE t (a)");
    for (let i = 0; i < 3; i++) await database.client.execute({ sql: "INSERT INTO t VALUES (?)", args: [i] });
    await database.client.execute("SELECT a FROM t");
    expect(openFds(file)).toBeGreaterThan(0);
    database.close();
    await Bun.sleep(0); // the collected statements' finalizers run on the next turn
    expect(openFds(file)).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
