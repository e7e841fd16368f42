/**
 * Leaving (issue 26): everything this box holds as one zip, written to standard output:
 * `ironbox.db`, a consistent copy of the database (VACUUM INTO), and one CSV per table read
 * from that same copy, so the CSVs and the copy agree row for row. RFC 4180 with a BOM, and
 * cells that a spreadsheet would run as a formula are neutralised as the reports do.
 *
 * Its own process (as the reports are), so a big export never takes the box's memory or
 * event loop; the box streams its output to the client and kills it when the client goes.
 * `bun exportChild.ts <database file> <scratch dir> [<copy's path>]`; exit 0 done, 1 failed (why
 * on stderr). The box names the copy, so it removes it however this process ends (issue 32).
 *
 * What is left out: the box's token secret and other stored secrets (box_settings keys naming
 * a secret, token, password, SMTP or SMS gateway), sessions, login failures and idempotency
 * keys. They are the box's, not the chain's, and a token secret would sign logins elsewhere.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { Database } from "bun:sqlite";
import { csvField, neutralise } from "../reports/cells";

const BOM = "\uFEFF";
const SECRET_KEYS = "key LIKE '%secret%' OR key LIKE '%token%' OR key LIKE '%password%' OR key LIKE '%smtp%' OR key LIKE '%gateway%'";
const CLEARED = ["sessions", "auth_failures", "idempotency_keys"];

function cell(v: unknown): string {
  if (v == null) return "";
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v).toString("base64");
  return csvField(neutralise(String(v)));
}

/** A table's rows as CSV, produced as the zip asks for them (never the whole table in memory). */
function tableCsv(db: Database, table: string): Readable {
  return Readable.from(
    (function* () {
      const columns = (db.query(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
      yield `${BOM}${columns.map((c) => csvField(c)).join(",")}\r\n`;
      let chunk = "";
      for (const row of db.query(`SELECT * FROM "${table}"`).values() as unknown[][]) {
        chunk += `${row.map(cell).join(",")}\r\n`;
        if (chunk.length > 256 * 1024) yield chunk, (chunk = "");
      }
      if (chunk) yield chunk;
    })(),
  );
}

/** Writes the zip to `out`; resolves when it is all written. */
export async function exportZip(dbFile: string, scratch: string, out: Writable, copy = join(scratch, `export-${process.pid}-${Date.now()}.db`)): Promise<void> {
  // The copy holds what the zip does: 0600 from the start (VACUUM INTO fills an empty file).
  writeFileSync(copy, "", { mode: 0o600 });
  const live = new Database(dbFile, { readonly: true });
  live.run("PRAGMA busy_timeout = 5000");
  try {
    live.run(`VACUUM INTO '${copy.replaceAll("'", "''")}'`);
  } finally {
    live.close();
  }
  try {
    const db = new Database(copy);
    db.run("PRAGMA secure_delete = ON"); // what is removed below is overwritten, not left in free pages
    db.run(`DELETE FROM box_settings WHERE ${SECRET_KEYS}`);
    for (const t of CLEARED) db.run(`DELETE FROM "${t}"`);
    const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[])
      .map((t) => t.name)
      .filter((n) => !n.startsWith("sqlite_") && !n.startsWith("__") && !/_fts($|_)/.test(n));
    const { default: archiver } = (await import("archiver")) as { default: (f: string, o: object) => any };
    const zip = archiver("zip", { zlib: { level: 6 }, forceZip64: false });
    const done = new Promise<void>((resolve, reject) => {
      out.on("finish", resolve);
      out.on("close", resolve);
      zip.on("error", reject);
      out.on("error", reject);
    });
    zip.pipe(out);
    for (const t of tables) zip.append(tableCsv(db, t), { name: `csv/${t}.csv` });
    zip.file(copy, { name: "ironbox.db" });
    await zip.finalize();
    await done;
    db.close();
  } finally {
    rmSync(copy, { force: true });
  }
}

if (import.meta.main) {
  const [dbFile, scratch, copy] = process.argv.slice(2);
  const stdout = Bun.stdout.writer();
  const sink = new Writable({
    async write(chunk, _enc, cb) {
      try {
        stdout.write(chunk);
        await stdout.flush();
        cb();
      } catch (e) {
        cb(e as Error);
      }
    },
  });
  exportZip(dbFile!, scratch!, sink, copy)
    .then(() => process.exit(0))
    .catch((e) => {
      console.error((e as Error).message);
      process.exit(1);
    });
}
