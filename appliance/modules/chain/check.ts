/**
 * The check of a freshly restored site copy, in a process of its own (`bun check.ts <file>
 * <till day> [full|quick]`): `PRAGMA integrity_check` (full) or `quick_check` reads the whole
 * file, seconds on a 1 GB copy, which the box's event loop must not wait for. Prints one JSON
 * line (CheckResult). The chain service picks the full check once a day per site (issue 33).
 *
 * A copy that passes is turned into a rollback-journal database (journal_mode=DELETE): readers
 * then open it read-only with no -wal or -shm file beside it, so swapping the file by rename
 * can never pair a new copy with an old copy's WAL index, and a reader holding the old file
 * keeps reading it whole.
 */
import { Database } from "bun:sqlite";
import { checkTotalsSync, type TotalsCheck } from "../money/check";
import { DEPOSIT_DAY_SQL, type DepositDay, depositDayArgs, depositDayRows, takingsQuery, takingsRows, totalTakings } from "../money/reads";
import { readSchemaVersion, type SchemaVersion } from "../../../db/version";

export interface CheckResult {
  /** "ok", or SQLite's first complaints. */
  integrity: string;
  /** The newest ticket or item state change in the copy (UTC ISO), null in an empty one. */
  last_data_at: string | null;
  /** The takings of the till day asked for (every shop of the copy), in cents. */
  takings_cents: number;
  /** The copy's schema version and release; its figures above are read only when it is HQ's own. */
  schema?: SchemaVersion;
  /**
   * Every paid total of the copy against its payment rows (payments/check.ts, issue 31): the
   * site's own database refuses a total that differs, so a finding here is an old or damaged
   * site file. Absent when the copy was not read (failed its integrity check, other version).
   */
  totals?: TotalsCheck;
  /** Per shop of the copy: the till day's deposits taken, given back and spent, and the balances held (issue 34). */
  deposits?: DepositDay[];
}

export function checkCopy(path: string, day: string, full = true): CheckResult {
  const db = new Database(path);
  try {
    const problems = db.query(full ? "PRAGMA integrity_check(5)" : "PRAGMA quick_check(5)").values() as [string][];
    const integrity = problems.map((r) => r[0]).join("; ");
    if (integrity !== "ok") return { integrity, last_data_at: null, takings_cents: 0 };
    db.run("PRAGMA journal_mode = DELETE");
    // The version first: the queries below are written for this release's schema, and a copy
    // on another one is never read with them.
    const schema = readSchemaVersion((sql) => db.query(sql).values() as unknown[][]);
    if (schema.status !== "current") return { integrity, last_data_at: null, takings_cents: 0, schema };
    // Tickets and item state logs are written in time order: the last id is the newest.
    const [ticket] = (db.query("SELECT created_at FROM tickets ORDER BY id DESC LIMIT 1").values()[0] ?? [null]) as [string | null];
    const [log] = (db.query("SELECT logged_at FROM item_log_states ORDER BY id DESC LIMIT 1").values()[0] ?? [null]) as [string | null];
    const last =
      [ticket, log]
        .filter((x): x is string => !!x)
        .sort()
        .pop() ?? null;
    // Takings as every screen counts them: the payments module's one definition (the copy is
    // on HQ's schema version, checked above, so its payments table is there).
    const tq = takingsQuery({ from: day, to: day, agents: null });
    const all = totalTakings(takingsRows(db.query(tq.sql).values(...tq.args) as unknown[][]));
    const totals = checkTotalsSync((sql) => db.query(sql).values() as unknown[][]);
    const deposits = depositDayRows(db.query(DEPOSIT_DAY_SQL).values(...depositDayArgs(day)) as unknown[][]);
    return { integrity, last_data_at: last, takings_cents: all.total, schema, totals, deposits };
  } finally {
    db.close();
  }
}

if (import.meta.main) {
  const [path, day, mode] = process.argv.slice(2);
  try {
    process.stdout.write(JSON.stringify(checkCopy(path!, day!, mode !== "quick")));
  } catch (err) {
    // A file SQLite cannot read at all ("file is not a database", "malformed") fails the check too.
    process.stdout.write(JSON.stringify({ integrity: err instanceof Error ? err.message : String(err), last_data_at: null, takings_cents: 0 }));
  }
}
