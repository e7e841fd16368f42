/**
 * The totals check's process: `bun totalsChild.ts <db file>` runs checkTotals (check.ts) on a
 * read-only connection and prints the TotalsCheck as JSON. A process of its own because the
 * check reads every ticket, item and payment (seconds on the reference data) and SQLite is
 * synchronous: on the box's event loop it would hold every request (see boxhealth's
 * integrityChild.ts, which runs the same check after `PRAGMA integrity_check`).
 */
import { Database } from "bun:sqlite";
import { checkTotals } from "./check";

const file = process.argv[2];
if (!file) throw new Error("usage: totalsChild.ts <db file>");
const db = new Database(file, { readonly: true });
db.run("PRAGMA busy_timeout = 5000");
const result = await checkTotals((sql) => db.query(sql).values() as unknown[][]);
db.close();
process.stdout.write(JSON.stringify(result));
