/**
 * The check of a freshly restored site copy, in a process of its own (`bun check.ts <file>
 * <day start> <day end>`): `PRAGMA integrity_check` reads the whole file, seconds on a 1 GB
 * copy, which the box's event loop must not wait for. Prints one JSON line (CheckResult).
 *
 * A copy that passes is turned into a rollback-journal database (journal_mode=DELETE): readers
 * then open it read-only with no -wal or -shm file beside it, so swapping the file by rename
 * can never pair a new copy with an old copy's WAL index, and a reader holding the old file
 * keeps reading it whole.
 */
import { Database } from "bun:sqlite";
import { readSchemaVersion, type SchemaVersion } from "../../../db/version";

export interface CheckResult {
  /** "ok", or SQLite's first complaints. */
  integrity: string;
  /** The newest ticket or item state change in the copy (UTC ISO), null in an empty one. */
  last_data_at: string | null;
  /** Payments taken in [day start, day end), in cents. */
  takings_cents: number;
  /** The copy's schema version and release; its figures above are read only when it is HQ's own. */
  schema?: SchemaVersion;
}

/**
 * The first audit row at or after `at`. Audit rows are written in time order, so their ids
 * and times rise together: a binary search by id reads about twenty rows, where a filter on
 * `at` (not indexed) would read the whole log.
 */
function firstAuditAt(db: Database, at: string): number {
  const [lo0, hi0] = db.query("SELECT coalesce(min(id), 0), coalesce(max(id), 0) FROM audit_log").values()[0] as [number, number];
  let lo = lo0;
  let hi = hi0 + 1;
  const atOf = db.query("SELECT at FROM audit_log WHERE id >= ? ORDER BY id LIMIT 1");
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const row = atOf.values(mid)[0] as [string] | undefined;
    if (!row || row[0] >= at) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function checkCopy(path: string, dayStart: string, dayEnd: string): CheckResult {
  const db = new Database(path);
  try {
    const problems = db.query("PRAGMA integrity_check(5)").values() as [string][];
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
    const [takings] = db
      .query(
        `SELECT coalesce(sum(json_extract(detail, '$.amount_cents')), 0) FROM audit_log
         WHERE id >= ? AND at >= ? AND at < ? AND action IN ('payment', 'pay_in_full')`,
      )
      .values(firstAuditAt(db, dayStart), dayStart, dayEnd)[0] as [number];
    return { integrity, last_data_at: last, takings_cents: Number(takings), schema };
  } finally {
    db.close();
  }
}

if (import.meta.main) {
  const [path, dayStart, dayEnd] = process.argv.slice(2);
  try {
    process.stdout.write(JSON.stringify(checkCopy(path!, dayStart!, dayEnd!)));
  } catch (err) {
    // A file SQLite cannot read at all ("file is not a database", "malformed") fails the check too.
    process.stdout.write(JSON.stringify({ integrity: err instanceof Error ? err.message : String(err), last_data_at: null, takings_cents: 0 }));
  }
}
