import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Client, createClient } from "@libsql/client";
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
  const client = createClient({ url, authToken, timeout: 5000 });
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
