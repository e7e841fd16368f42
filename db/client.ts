import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Client, createClient, type InStatement, type Transaction, type TransactionMode } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import * as schema from "./schema";

export type Db = LibSQLDatabase<typeof schema>;
export interface Database {
  db: Db;
  client: Client;
  close(): void;
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
export function serializeWrites(client: Client): Client {
  const lock = createMutex();
  const locked = async <T>(run: () => Promise<T>): Promise<T> => {
    const release = await lock();
    try {
      return await run();
    } finally {
      release();
    }
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      switch (prop) {
        case "execute":
          return (stmt: InStatement, args?: unknown) =>
            isRead(stmt) ? target.execute(stmt as never, args as never) : locked(() => target.execute(stmt as never, args as never));
        case "batch":
          return (stmts: InStatement[], mode?: TransactionMode) => locked(() => target.batch(stmts, mode));
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
            } catch (e) {
              release();
              throw e;
            }
            const end = <A extends unknown[], R>(f: (...a: A) => R) => async (...a: A) => {
              try {
                return await f(...a);
              } finally {
                release();
              }
            };
            return new Proxy(tx, {
              get(t, p, r) {
                if (p === "commit") return end(() => t.commit());
                if (p === "rollback") return end(() => t.rollback());
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
  if (isFile) mkdirSync(dirname(url.slice("file:".length)), { recursive: true });
  // One pool of connections; libSQL opens each with foreign_keys=ON and synchronous=FULL
  // (asserted in db/client.test.ts), and `timeout` is the busy timeout in ms.
  const client = serializeWrites(createClient({ url, authToken, timeout: 5000 }));
  if (isFile) {
    await client.execute("PRAGMA journal_mode=WAL");
    await client.execute("PRAGMA synchronous=FULL");
  }
  await client.execute("PRAGMA foreign_keys=ON");
  const db = drizzle(client, { schema });
  return { db, client, close: () => client.close() };
}

/** Applies the committed SQL migrations in order (idempotent). */
export async function migrateDatabase(database: Database): Promise<void> {
  await migrate(database.db, { migrationsFolder });
}
