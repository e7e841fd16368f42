import { closeSync, existsSync, fsyncSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Client, createClient, type InStatement, type Transaction, type TransactionMode } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { type Backup, backupDatabase } from "./backups";
import * as schema from "./schema";
import { cacheStatements, releaseClosed } from "./statementCache";

export type Db = LibSQLDatabase<typeof schema>;
export interface Database {
  db: Db;
  client: Client;
  close(): void;
  /** The database file, for a local `file:` database. */
  file?: string;
  /** Local files only: when writes happened, and a checkpoint taken on its own thread (see startCheckpointer). */
  activity?: WriteActivity;
  checkpoint?: () => Promise<{ busy: boolean; log: number; checkpointed: number }>;
}

/** What the checkpointer needs to know about writes: when the last one was and how many since the last checkpoint. */
export interface WriteActivity {
  lastWriteAt: number;
  sinceCheckpoint: number;
  lastCheckpointAt: number;
}

export const migrationsFolder = resolve(import.meta.dir, "migrations");

/** A first-come, first-served async lock. */
function createMutex() {
  let tail = Promise.resolve();
  return async (): Promise<() => void> => {
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const before = tail;
    tail = before.then(() => mine);
    await before;
    let done = false;
    return () => {
      if (!done) (done = true), release();
    };
  };
}

/**
 * The page size of a new database (issue 33, docs/decisions/wal-per-sale.md). A WAL frame is a
 * whole page, and what a shop ships to HQ is its WAL: a counter flow touches about 80 pages
 * whatever their size, so 2 KB pages ship half the bytes of SQLite's default 4 KB (321 → 165 KB
 * a flow). 1 KB pages would ship 92 KB but deepen every tree and spill more rows to overflow
 * pages. Existing databases keep their size until `scripts/page-size.ts` rewrites them offline.
 */
export const PAGE_SIZE = 2048;

const NO_AUTO_CHECKPOINT = "PRAGMA wal_autocheckpoint=0";

const isRead = (stmt: InStatement) => {
  const text = typeof stmt === "string" ? stmt : stmt.sql;
  return /^\s*(SELECT|EXPLAIN)\b/i.test(text) || /^\s*PRAGMA\s+[\w.]+\s*(\(\s*\w*\s*\))?\s*;?\s*$/i.test(text);
};

/**
 * libSQL waits for a busy database synchronously, on the event loop. Two writers of this
 * process on two pooled connections (one request inside a transaction, another writing)
 * would freeze the loop until the busy timeout and then fail. So every write, and every
 * transaction from begin to commit, takes one in-process lock; reads (WAL) go straight on.
 * The busy timeout is then only for writers outside the process (Litestream's checkpoints).
 */
export function serializeWrites(
  client: Client,
  opts: { activity?: WriteActivity; manualCheckpoints?: boolean; lock?: ReturnType<typeof createMutex> } = {},
): Client {
  const lock = opts.lock ?? createMutex();
  const activity = opts.activity;
  const locked = async <T>(run: () => Promise<T>): Promise<T> => {
    const release = await lock();
    try {
      return await run();
    } finally {
      if (activity) (activity.lastWriteAt = Date.now()), activity.sinceCheckpoint++;
      release();
    }
  };
  // Auto-checkpoints run inside the commit that crosses 1000 WAL pages and, on a large file
  // with synchronous=FULL, hold that request (and libSQL's synchronous event loop) for about
  // half a second. They are turned off on every pooled connection a write uses (the pragma
  // is per connection, and the pool opens connections lazily); startCheckpointer checkpoints
  // when the box is idle instead.
  const pin = opts.manualCheckpoints ? NO_AUTO_CHECKPOINT : null;
  return new Proxy(client, {
    get(target, prop, receiver) {
      switch (prop) {
        case "execute":
          return (stmt: InStatement, args?: unknown) => {
            if (isRead(stmt)) return target.execute(stmt as never, args as never);
            const text = typeof stmt === "string" ? stmt : stmt.sql;
            // Connection-level pragmas (journal_mode…) cannot run inside a transaction: as they are.
            if (!pin || /^\s*PRAGMA\b/i.test(text)) return locked(() => target.execute(stmt as never, args as never));
            const one: InStatement = typeof stmt === "string" ? { sql: stmt, args: (args ?? []) as never } : stmt;
            return locked(async () => (await target.batch([pin, one], "write"))[1]!);
          };
        case "batch":
          return (stmts: InStatement[], mode?: TransactionMode) =>
            locked(async () => (pin ? (await target.batch([pin, ...stmts], mode)).slice(1) : target.batch(stmts, mode)));
        case "executeMultiple":
          return (sql: string) => locked(() => target.executeMultiple(sql));
        case "migrate":
          return (stmts: InStatement[]) => locked(() => target.migrate(stmts));
        case "transaction":
          return async (mode?: TransactionMode) => {
            const release = await lock();
            let tx: Transaction;
            try {
              tx = await target.transaction(mode);
              if (pin) await tx.execute(pin);
            } catch (e) {
              release();
              throw e;
            }
            const end =
              <A extends unknown[], R>(f: (...a: A) => R) =>
              async (...a: A) => {
                try {
                  return await f(...a);
                } finally {
                  if (activity) (activity.lastWriteAt = Date.now()), activity.sinceCheckpoint++;
                  release();
                }
              };
            return new Proxy(tx, {
              get(t, p, r) {
                if (p === "commit") return end(() => t.commit());
                // SQLite rolls a transaction back by itself when the disk is full or an I/O
                // error strikes (SQLITE_FULL, SQLITE_IOERR); libSQL's rollback then throws
                // TRANSACTION_CLOSED, which would hide the real cause from the caller. Nothing is
                // left to roll back, so that is not an error.
                if (p === "rollback")
                  return end(async () => {
                    try {
                      await t.rollback();
                    } catch (e) {
                      if ((e as { code?: string }).code !== "TRANSACTION_CLOSED") throw e;
                    }
                  });
                if (p === "close") return () => (t.close(), release());
                const v = Reflect.get(t, p, r);
                return typeof v === "function" ? v.bind(t) : v;
              },
            });
          };
        default: {
          const v = Reflect.get(target, prop, receiver);
          return typeof v === "function" ? v.bind(target) : v;
        }
      }
    },
  });
}

/**
 * Opens the database. For a local file it sets the pragmas the product relies on:
 * WAL, synchronous=FULL (a simulated power cut with NORMAL lost acknowledged tickets),
 * foreign keys on, and a busy timeout so Litestream's checkpoints never fail a write.
 */
export async function openDatabase(url: string, authToken?: string): Promise<Database> {
  const isFile = url.startsWith("file:");
  if (isFile) {
    mkdirSync(dirname(url.slice("file:".length)), { recursive: true });
    flushToDisk(url.slice("file:".length));
  }
  // One pool of connections; libSQL opens each with foreign_keys=ON and synchronous=FULL
  // (asserted in db/client.test.ts), and `timeout` is the busy timeout in ms.
  if (isFile) cacheStatements();
  const raw = createClient({ url, authToken, timeout: 5000 });
  const lock = createMutex();
  const activity: WriteActivity = { lastWriteAt: 0, sinceCheckpoint: 0, lastCheckpointAt: Date.now() };
  const client = serializeWrites(raw, isFile ? { activity, manualCheckpoints: true, lock } : { lock });
  if (isFile) {
    // A new database only (SQLite ignores it once there is a table). Not sent to an existing
    // one: the connection would keep it and a later `VACUUM INTO` (the upgrade's backup) would
    // write its copy with this page size instead of the file's own.
    const empty = Number((await client.execute("SELECT count(*) FROM sqlite_schema")).rows[0]![0]) === 0;
    if (empty) await client.execute(`PRAGMA page_size=${PAGE_SIZE}`);
    await client.execute("PRAGMA journal_mode=WAL");
    await client.execute("PRAGMA synchronous=FULL");
  }
  await client.execute("PRAGMA foreign_keys=ON");
  const db = drizzle(client, { schema });
  if (!isFile) return { db, client, close: () => client.close() };
  const checkpointer = checkpointThread(url);
  /** A PASSIVE checkpoint on the checkpointer's thread: it never waits for readers or writers, and no request waits for it. */
  const checkpoint = async () => {
    const r = await checkpointer.run();
    activity.lastCheckpointAt = Date.now();
    if (!r.busy && r.checkpointed === r.log) activity.sinceCheckpoint = 0;
    return r;
  };
  const close = () => {
    checkpointer.stop();
    client.close();
    releaseClosed();
  };
  return { db, client, close, file: url.slice("file:".length), activity, checkpoint };
}

/**
 * A file just copied into place (a restore, an import, an upgrade's copy) sits in the page
 * cache unwritten; the first fsync that touches it (the first checkpoint's) then writes all of
 * it, 2.3 s for 1.5 GB, while the box serves (issue 33). So it is flushed here, before the box
 * serves anything; a file already on disk flushes in no time.
 */
export function flushToDisk(file: string) {
  for (const f of [file, `${file}-wal`]) {
    if (!existsSync(f)) continue;
    const fd = openSync(f, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

type CheckpointResult = { busy: boolean; log: number; checkpointed: number };

/**
 * The checkpointer's Worker (db/checkpointWorker.ts), started on the first checkpoint. One
 * checkpoint at a time; the Worker never keeps the process alive.
 */
function checkpointThread(url: string) {
  let worker: Worker | null = null;
  let seq = 0;
  const waiting = new Map<number, { resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }>();
  const start = () => {
    const w = new Worker(new URL("./checkpointWorker.ts", import.meta.url).href);
    w.onmessage = (e: MessageEvent<{ id: number; busy?: number; log?: number; checkpointed?: number; error?: string }>) => {
      const p = waiting.get(e.data.id);
      if (!p) return;
      waiting.delete(e.data.id);
      if (e.data.error !== undefined) p.reject(new Error(e.data.error));
      else p.resolve({ busy: e.data.busy !== 0, log: e.data.log ?? 0, checkpointed: e.data.checkpointed ?? 0 });
    };
    w.onerror = (e) => {
      for (const p of waiting.values()) p.reject(new Error(`checkpoint thread failed: ${e.message}`));
      waiting.clear();
      worker = null;
    };
    (w as Worker & { unref?: () => void }).unref?.();
    return w;
  };
  return {
    run(): Promise<CheckpointResult> {
      worker ??= start();
      const id = ++seq;
      const done = new Promise<CheckpointResult>((resolve, reject) => waiting.set(id, { resolve, reject }));
      worker.postMessage({ id, url });
      return done;
    },
    stop() {
      worker?.terminate();
      worker = null;
      for (const p of waiting.values()) p.reject(new Error("database closed"));
      waiting.clear();
    },
  };
}

/**
 * Checkpoints the WAL when the box is quiet (no write for `idleMs`); once `maxWrites` writes
 * or `maxAgeMs` have passed, in the first lull of `lullMs`; and after 4 × `maxWrites` writes
 * regardless, so the WAL stays bounded under constant load. The checkpoint runs on its own
 * thread (db/checkpointWorker.ts), so no request waits for it; it is still taken in lulls,
 * as its copying and fsync share the disk with the writes' own. Returns a stop function.
 */
export function startCheckpointer(
  database: Database,
  opts: {
    everyMs?: number;
    idleMs?: number;
    lullMs?: number;
    maxWrites?: number;
    maxAgeMs?: number;
    log?: (m: string, e?: unknown) => void;
    /** While true another process checkpoints (Litestream, which must not see the WAL restarted behind its back). */
    paused?: () => boolean;
  } = {},
): () => void {
  const { activity, checkpoint } = database;
  if (!activity || !checkpoint) return () => {};
  const { everyMs = 1000, idleMs = 2000, lullMs = 200, maxWrites = 5000, maxAgeMs = 5 * 60_000 } = opts;
  let running = false;
  const timer = setInterval(async () => {
    if (running || activity.sinceCheckpoint === 0 || opts.paused?.()) return;
    const now = Date.now();
    const quiet = now - activity.lastWriteAt;
    // Quiet for idleMs; or, once the WAL is big or old, the first short lull; or a hard bound.
    const due =
      quiet >= idleMs ||
      ((activity.sinceCheckpoint >= maxWrites || now - activity.lastCheckpointAt >= maxAgeMs) && quiet >= lullMs) ||
      activity.sinceCheckpoint >= 4 * maxWrites;
    if (!due) return;
    running = true;
    try {
      await checkpoint();
    } catch (e) {
      opts.log?.("WAL checkpoint failed; will retry", e);
    } finally {
      running = false;
    }
  }, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** Migrations in `folder` that this database has not applied yet (drizzle's rule: newer than the last one applied). */
export async function pendingMigrations(database: Database, folder = migrationsFolder): Promise<number> {
  const exists = await database.client.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'");
  const last = exists.rows.length ? Number((await database.client.execute("SELECT max(created_at) AS at FROM __drizzle_migrations")).rows[0]?.at ?? 0) : 0;
  return readMigrationFiles({ migrationsFolder: folder }).filter((m) => m.folderMillis > last).length;
}

/**
 * Applies the committed SQL migrations in order (idempotent). drizzle's libSQL migrator runs
 * every pending migration in one transaction (`client.migrate`: BEGIN … COMMIT, ROLLBACK on
 * any error; db/migrations.test.ts proves it), so a failed upgrade leaves the database as it
 * was. With `backup`, a database that has data and pending migrations is first copied to
 * `<data dir>/backups` (db/backups.ts): the way back if the new release must be rolled back.
 */
export async function migrateDatabase(
  database: Database,
  opts: { backup?: { version: string; now: Date }; folder?: string } = {},
): Promise<{ applied: number; backup: Backup | null }> {
  const folder = opts.folder ?? migrationsFolder;
  const applied = await pendingMigrations(database, folder);
  if (!applied) return { applied, backup: null };
  // A fresh database (nothing applied yet) has nothing to keep.
  const hasData = applied < readMigrationFiles({ migrationsFolder: folder }).length;
  const backup = opts.backup && database.file && hasData ? await backupDatabase(database.client, database.file, opts.backup.version, opts.backup.now) : null;
  await migrate(database.db, { migrationsFolder: folder });
  return { applied, backup };
}
