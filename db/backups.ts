import { lstatSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Client } from "@libsql/client";

/** Where a local database keeps its copies: `<data dir>/backups`, beside the file. */
export const backupsDir = (dbFile: string) => join(dirname(dbFile), "backups");

/** How many copies a box keeps (the oldest go first). */
export const KEEP_BACKUPS = 5;

/** A copy's name: the release that was about to change the database, and when (UTC, no colons). */
const NAME = /^ironbox-(.+)-(\d{8}T\d{6}Z)\.db$/;

export interface Backup {
  file: string;
  version: string;
  at: string;
  bytes: number;
}

/**
 * A consistent copy of the live database (`VACUUM INTO`: a transaction-consistent snapshot,
 * compacted, WAL included, without touching the source, so Litestream's view is unchanged).
 * Keeps the newest `keep` copies.
 */
export async function backupDatabase(client: Client, dbFile: string, version: string, now: Date, keep = KEEP_BACKUPS): Promise<Backup> {
  const dir = backupsDir(dbFile);
  mkdirSync(dir, { recursive: true });
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  const safeVersion = version.replace(/[^\w.+-]/g, "_");
  const file = join(dir, `ironbox-${safeVersion}-${stamp}.db`);
  rmSync(file, { force: true }); // VACUUM INTO refuses an existing file (two boots in one second)
  // As one plain statement: the write wrapper of db/client.ts runs single writes inside a
  // batch (a transaction), where VACUUM is refused. The path is the box's own, quoted.
  await client.executeMultiple(`VACUUM INTO '${file.replaceAll("'", "''")}'`);
  for (const old of listBackups(dbFile).slice(keep)) rmSync(old.file, { force: true });
  return { file, version: safeVersion, at: now.toISOString(), bytes: statSync(file).size };
}

/** Where the nightly copies are kept on the data disk: `<data dir>/backups/nightly`. */
export const nightlyDir = (dbFile: string) => join(backupsDir(dbFile), "nightly");

/** Where the copies taken by hand are kept, apart from the nightly ones: `<data dir>/backups/manual`. */
export const manualDir = (dbFile: string) => join(backupsDir(dbFile), "manual");

/** A copy's file name: `ironbox-<version>-<UTC time without colons>.db`. */
export function backupName(version: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `ironbox-${version.replace(/[^\w.+-]/g, "_")}-${stamp}.db`;
}

/** The copies of a database, newest first. */
export function listBackups(dbFile: string): Backup[] {
  return listBackupsIn(backupsDir(dbFile));
}

/** The copies in a folder, newest first: regular files named as copies (a link is never one). */
export function listBackupsIn(dir: string): Backup[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((n) => ({ n, m: NAME.exec(n) }))
    .filter((x): x is { n: string; m: RegExpExecArray } => !!x.m)
    .flatMap(({ n, m }) => {
      const s = m[2]!;
      const at = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`;
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(join(dir, n));
      } catch {
        return []; // removed meanwhile
      }
      return st.isFile() ? [{ file: join(dir, n), version: m[1]!, at: new Date(at).toISOString(), bytes: st.size }] : [];
    })
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.file.localeCompare(a.file)));
}
