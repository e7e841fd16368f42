import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statfsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { createClient } from "@libsql/client";
import { PAGE_SIZE } from "./client";

/**
 * Rewrites an existing box's database with the page size new boxes get (PAGE_SIZE, issue 33:
 * WAL frames are whole pages, so a smaller page ships fewer bytes per sale to HQ; see
 * docs/decisions/wal-per-sale.md). SQLite only changes the page size of a database in WAL
 * mode by rewriting it, so this is an offline step: the box must not be serving (its writes
 * after the copy would go to the replaced file), and the disk needs room for one more copy.
 *
 * `VACUUM INTO` writes the new file beside the old one, so the old one is untouched until the
 * new one is whole, checked and on disk; then a rename swaps them (atomic on one file system).
 * A write lock is held on the old file meanwhile, so a box started by mistake cannot write
 * into a file about to be replaced (its writes fail with SQLITE_BUSY instead of being lost).
 */
export async function convertPageSize(
  file: string,
  opts: { size?: number; log?: (m: string) => void; busyMs?: number } = {},
): Promise<{ from: number; to: number; ms: number; bytesBefore: number; bytesAfter: number }> {
  const size = opts.size ?? PAGE_SIZE;
  const log = opts.log ?? (() => {});
  if (!existsSync(file)) throw new Error(`${file}: no such database`);
  const t0 = performance.now();
  const url = `file:${file}`;
  const reader = createClient({ url });
  const locker = createClient({ url, timeout: opts.busyMs ?? 5000 });
  const next = `${file}.page-size`;
  try {
    const from = Number((await reader.execute("PRAGMA page_size")).rows[0]![0]);
    const bytesBefore = statSync(file).size;
    if (from === size) {
      log(`${file}: already ${size}-byte pages, nothing to do`);
      return { from, to: size, ms: 0, bytesBefore, bytesAfter: bytesBefore };
    }
    // The copy is at most the size of the file and its WAL; 5 % spare for the free pages.
    const walBytes = existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0;
    const fs = statfsSync(dirname(file));
    const free = fs.bavail * fs.bsize;
    if (free < (bytesBefore + walBytes) * 1.05)
      throw new Error(`${file}: needs ${Math.ceil((bytesBefore + walBytes) / 2 ** 20)} MiB free beside it, ${Math.floor(free / 2 ** 20)} MiB free`);
    await locker.execute("PRAGMA journal_mode=WAL");
    // Fold the WAL in first, so the swap leaves no frame of the old layout behind.
    await locker.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    const lock = await locker.transaction("write"); // BEGIN IMMEDIATE, on a connection of its own
    rmSync(next, { force: true }); // a copy left by an interrupted run
    log(`${file}: rewriting ${from}-byte pages as ${size}-byte pages (${Math.round(bytesBefore / 2 ** 20)} MiB)`);
    // The new page size applies to the file VACUUM INTO creates. The path is the box's own, quoted.
    await reader.executeMultiple(`PRAGMA page_size=${Number(size)}; VACUUM INTO '${next.replaceAll("'", "''")}'`);
    const copy = createClient({ url: `file:${next}` });
    try {
      const to = Number((await copy.execute("PRAGMA page_size")).rows[0]![0]);
      if (to !== size) throw new Error(`${next}: written with ${to}-byte pages, not ${size}`);
      const check = String((await copy.execute("PRAGMA quick_check")).rows[0]![0]);
      if (check !== "ok") throw new Error(`${next}: quick_check: ${check}`);
      await copy.execute("PRAGMA journal_mode=WAL");
    } finally {
      copy.close();
    }
    const fd = openSync(next, "r+");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // Nothing of the old file's is open any more when the new one takes its name. The copy holds
    // all the WAL held (VACUUM INTO reads through it) and nothing has written since (the lock),
    // so the old -wal and -shm go with the old file.
    await lock.rollback();
    locker.close();
    reader.close();
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    renameSync(next, file);
    const dir = openSync(dirname(file), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
    const ms = performance.now() - t0;
    const bytesAfter = statSync(file).size;
    log(`${file}: now ${size}-byte pages, ${Math.round(bytesAfter / 2 ** 20)} MiB, in ${(ms / 1000).toFixed(1)} s`);
    return { from, to: size, ms, bytesBefore, bytesAfter };
  } finally {
    rmSync(next, { force: true });
    reader.close();
    locker.close();
  }
}
