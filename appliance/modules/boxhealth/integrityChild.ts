/**
 * The database check's process: `bun integrityChild.ts <db file>` runs `PRAGMA integrity_check`
 * on a read-only connection, then (on a sound file) the ledger's invariant over the whole
 * database (payments/check.ts: every total_paid equals its payment rows, issue 31), and prints
 * `{ "result": [...], "totals": TotalsCheck | null }`. A process of its own because the
 * check reads the whole file (seconds on a big database) and SQLite is synchronous: on the
 * box's event loop it would hold every request. Locks work across processes as SQLite intends
 * (see reports/child.ts for why not a Worker).
 */
import { Database } from "bun:sqlite";
import { checkTotals, type TotalsCheck } from "../money/check";

const file = process.argv[2];
if (!file) throw new Error("usage: integrityChild.ts <db file>");
const db = new Database(file, { readonly: true });
db.run("PRAGMA busy_timeout = 5000");
const rows = db.query("PRAGMA integrity_check(20)").values() as unknown as [string][];
const sound = rows.length === 1 && rows[0]![0] === "ok";
// A damaged file's queries prove nothing: its integrity findings are the news.
let totals: TotalsCheck | null = null;
if (sound) {
  try {
    totals = await checkTotals((sql) => db.query(sql).values() as unknown[][]);
  } catch (e) {
    totals = { ok: false, count: 0, first: [], error: `The totals check could not run: ${(e as Error).message.slice(0, 300)}` };
  }
}
db.close();
process.stdout.write(JSON.stringify({ result: rows.map((r) => String(r[0])), totals }));
