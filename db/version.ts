/**
 * What a database says of itself: its schema version (the last migration applied, as drizzle
 * records it in __drizzle_migrations) and the release that last opened it (box_settings
 * "release", written at every boot). HQ reads a site copy's version before it runs any of its
 * SQL on it: SQL is written for one schema, and a shop one upgrade behind or ahead of HQ must
 * be shown as such, never read wrongly (README, "HQ reads shop copies by contract").
 */
import { resolve } from "node:path";
import type { Client } from "@libsql/client";
import { readMigrationFiles } from "drizzle-orm/migrator";

// Not imported from client.ts: HQ's check process reads versions with bun:sqlite, and the
// libSQL client would load its native module there for nothing.
const migrationsFolder = resolve(import.meta.dir, "migrations");

/** The release key in box_settings. */
export const RELEASE_KEY = "release";

export interface SchemaVersion {
  /** The number of the last migration applied (8 for 0008_outbox); null when none is. */
  version: number | null;
  /** The release that last opened the database, when it says. */
  release: string | null;
  /** Against the migrations this release ships: the same, older, or newer than it knows. */
  status: "current" | "behind" | "ahead" | "unknown";
}

/** The migrations this release ships, in order: their `created_at` stamps in __drizzle_migrations. */
function shipped(folder = migrationsFolder): number[] {
  return readMigrationFiles({ migrationsFolder: folder }).map((m) => m.folderMillis);
}

/** The schema version this release migrates to (the last migration's number). */
export function expectedSchemaVersion(folder = migrationsFolder): number {
  return shipped(folder).length - 1;
}

/** The statements a reader runs to learn a database's version, in order; their answers go to `schemaVersionFrom`. */
export const VERSION_SQL = {
  hasMigrations: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('__drizzle_migrations', 'box_settings')",
  migrations: "SELECT count(*), max(created_at) FROM __drizzle_migrations",
  release: `SELECT value FROM box_settings WHERE key = '${RELEASE_KEY}'`,
} as const;

/**
 * A database's version from what it answered: how many migrations it applied and the stamp of
 * the last one (drizzle compares stamps: a migration newer than the last applied is pending).
 */
export function schemaVersionFrom(applied: number, lastAt: number | null, release: string | null, folder = migrationsFolder): SchemaVersion {
  const known = shipped(folder);
  const version = applied > 0 ? applied - 1 : null;
  const newest = known[known.length - 1] ?? 0;
  let status: SchemaVersion["status"] = "unknown";
  if (lastAt === null) status = applied === 0 && known.length === 0 ? "current" : "behind";
  else if (lastAt === newest) status = "current";
  else if (lastAt > newest) status = "ahead";
  else if (known.includes(lastAt)) status = "behind";
  return { version, release, status };
}

/** Reads a database's version through a synchronous reader (bun:sqlite in a child process). */
export function readSchemaVersion(values: (sql: string) => unknown[][], folder = migrationsFolder): SchemaVersion {
  const tables = Number(values(VERSION_SQL.hasMigrations)[0]?.[0] ?? 0);
  if (tables < 2) return { version: null, release: null, status: "unknown" };
  const [n, at] = values(VERSION_SQL.migrations)[0] as [number, number | null];
  const release = (values(VERSION_SQL.release)[0]?.[0] as string | undefined) ?? null;
  return schemaVersionFrom(Number(n), at === null ? null : Number(at), release, folder);
}

/** Records the release now running in the database (at boot, after migrating): a copy of it says which release wrote it. */
export async function recordRelease(client: Client, release: string): Promise<void> {
  await client.execute({
    sql: "INSERT INTO box_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    args: [RELEASE_KEY, release],
  });
}
