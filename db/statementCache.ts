/**
 * Prepared statements kept per connection (issue 33, "the box's own overhead"). @libsql/client
 * prepares every statement it runs (`db.prepare(sql)` in its executeStmt), and asks the
 * statement for its columns twice: in a profile of the counter flow, preparation was about a
 * tenth of the box's time and the column lists another 7 %. The pool keeps its connections, so
 * a statement prepared once on a connection serves every later call with the same SQL text.
 * SQLite re-prepares a cached statement by itself after a schema change (sqlite3_prepare_v2).
 * Safe because the client drains each statement synchronously (all() or run()) before the next
 * use: no two calls share a statement's cursor.
 */
import Database from "libsql";

/** Distinct SQL texts kept per connection; drizzle's texts are few, ad-hoc ones are dropped wholesale past this. */
const MAX_PER_CONNECTION = 1000;
const cache = Symbol("ironbox.statements");
/** `SELECT *`, `t.*`, `, *`, `RETURNING *` (not `count(*)`). */
const WIDE = /(SELECT|RETURNING|,)\s*("?\w+"?\.)?\*/i;

type Stmt = { columns(): unknown[] };
type Db = { prepare(sql: string): Stmt; close(): void; [cache]?: Map<string, Stmt> };

/**
 * A watcher that sees every statement the pooled connections run (BEGIN and COMMIT included:
 * the client prepares those too). For benches counting statements per request (issue 33); off
 * (null) in the box, so a statement costs one comparison more.
 */
let watcher: ((sql: string) => void) | null = null;
export function watchStatements(fn: ((sql: string) => void) | null) {
  watcher = fn;
}

let installed = false;
export function cacheStatements() {
  if (installed) return;
  installed = true;
  const proto = (Database as unknown as { prototype: Db }).prototype;
  const prepare = proto.prepare;
  // A connection closes for real (its file released) only once its statements are gone: kept
  // ones would hold the file open until a garbage collection, and a closed box would still
  // look open to an import or a restore (/proc). The kept ones are dropped at close, and
  // `releaseClosed` collects them.
  const close = proto.close;
  proto.close = function (this: Db) {
    this[cache]?.clear();
    this[cache] = undefined;
    return close.call(this);
  };
  proto.prepare = function (this: Db, sql: string) {
    if (watcher) watcher(sql);
    // A `*` column list widens with the schema, and a statement kept from before an ALTER
    // still names the old columns: such texts are prepared each time, as before.
    if (WIDE.test(sql)) return prepare.call(this, sql);
    let stmts = this[cache];
    if (!stmts) this[cache] = stmts = new Map();
    let s = stmts.get(sql);
    if (!s) {
      s = prepare.call(this, sql);
      // A statement's columns are those of its SQL text: asked once.
      const columns = s.columns.bind(s);
      let known: unknown[] | undefined;
      s.columns = () => (known ??= columns());
      if (stmts.size >= MAX_PER_CONNECTION) stmts.clear();
      stmts.set(sql, s);
    }
    return s;
  };
}

/**
 * Collects the statements of connections closed since (see close above), so their files are
 * released by the next turn of the event loop (their finalizers run then). A full collection
 * takes milliseconds; the box closes its database rarely.
 */
export function releaseClosed() {
  if (installed) (globalThis as { Bun?: { gc(force: boolean): void } }).Bun?.gc(true);
}
