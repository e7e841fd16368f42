/**
 * The nightly backup's process: `bun backupChild.ts` reads a job as JSON on standard input,
 * takes a consistent copy of the box's database into the data disk's backup folder and each
 * further folder (a second disk, a USB stick), checks every copy, keeps the newest few in
 * each, and prints the outcome as JSON. A process of its own, like the database check
 * (integrityChild.ts): copying and checking read the whole file, seconds on a big database.
 *
 * `VACUUM INTO` is a read transaction on the source (a snapshot with the WAL's commits, never a
 * checkpoint), so Litestream's view of the database is untouched. Each copy is written under a
 * temporary name, fsync'd, checked with `PRAGMA integrity_check`, then renamed: a folder never
 * holds a half-written or unchecked copy under a copy's name.
 */
import { Database } from "bun:sqlite";
import { closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { backupName, listBackupsIn } from "../../../db/backups";

export interface BackupJob {
  source: string;
  version: string;
  at: string;
  /** The data disk's folder first; a copy there is the one the others are copied from. */
  dirs: string[];
  keep: number;
  /**
   * Copies by hand: each further folder is the backup folder's manual/ folder, made when the
   * backup folder itself is there (an unplugged disk is still never made).
   */
  inFolders?: boolean;
}
export interface BackupOutcome {
  file: string;
  bytes: number;
  ms: number;
  /** One per further folder: the copy there, or why there is none. */
  copies: { dir: string; file: string | null; error: string | null }[];
}

function check(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.query("PRAGMA integrity_check(20)").values() as unknown as [string][];
    const result = rows.map((r) => String(r[0]));
    if (!(result.length === 1 && result[0] === "ok")) throw new Error(`the copy failed its integrity check: ${result.join("; ").slice(0, 300)}`);
  } finally {
    db.close();
  }
}
function fsyncFile(file: string) {
  const fd = openSync(file, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
/** Moves a checked copy in under its name, and drops the oldest beyond `keep`. */
function settle(partial: string, dir: string, name: string, keep: number) {
  renameSync(partial, join(dir, name));
  for (const old of listBackupsIn(dir).slice(keep)) rmSync(old.file, { force: true });
  return join(dir, name);
}

export function runBackup(job: BackupJob): BackupOutcome {
  const t0 = performance.now();
  const name = backupName(job.version, new Date(job.at));
  const [home, ...others] = job.dirs as [string, ...string[]];
  mkdirSync(home, { recursive: true });
  const partial = join(home, `.${name}.partial`);
  rmSync(partial, { force: true });
  const source = new Database(job.source, { readonly: true });
  try {
    source.run("PRAGMA busy_timeout = 5000");
    source.run("VACUUM INTO ?", [partial]);
  } finally {
    source.close();
  }
  try {
    fsyncFile(partial);
    check(partial);
  } catch (e) {
    rmSync(partial, { force: true });
    throw e;
  }
  const file = settle(partial, home, name, job.keep);
  const copies = others.map((dir) => {
    const there = join(dir, `.${name}.partial`);
    try {
      // Never create the folder: a missing one is an unplugged disk, not a place to write to.
      if (!statSync(job.inFolders ? dirname(dir) : dir).isDirectory()) throw new Error("not a folder");
      if (job.inFolders) mkdirSync(dir, { recursive: true });
      copyFileSync(file, there);
      fsyncFile(there);
      check(there);
      return { dir, file: settle(there, dir, name, job.keep), error: null };
    } catch (e) {
      rmSync(there, { force: true });
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === "ENOENT" ? "the folder is missing (is the disk plugged in and mounted?)" : (e as Error).message;
      return { dir, file: null, error: why.slice(0, 300) };
    }
  });
  return { file, bytes: statSync(file).size, ms: Math.round(performance.now() - t0), copies };
}

if (import.meta.main) {
  try {
    const job = (await Bun.stdin.json()) as BackupJob;
    process.stdout.write(JSON.stringify(runBackup(job)));
  } catch (e) {
    process.stderr.write(`BackupError: ${(e as Error).message}\n`);
    process.exit(1);
  }
}
