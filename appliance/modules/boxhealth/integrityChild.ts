/**
 * The database check's process: `bun integrityChild.ts <db file>` runs `PRAGMA integrity_check`
 * on a read-only connection and prints `{ "result": [...] }`. A process of its own because the
 * check reads the whole file (seconds on a big database) and SQLite is synchronous: on the
 * box's event loop it would hold every request. Locks work across processes as SQLite intends
 * (see reports/child.ts for why not a Worker).
 */
import { Database } from "bun:sqlite";

const file = process.argv[2];
if (!file) throw new Error("usage: integrityChild.ts <db file>");
const db = new Database(file, { readonly: true });
db.run("PRAGMA busy_timeout = 5000");
const rows = db.query("PRAGMA integrity_check(20)").values() as unknown as [string][];
db.close();
process.stdout.write(JSON.stringify({ result: rows.map((r) => String(r[0])) }));
