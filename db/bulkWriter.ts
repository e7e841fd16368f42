/**
 * A long bulk writer beside the box (the import, issue 32): checkpoints as it goes, gives a box
 * serving on the same file room for its writes, and leaves the file flushed at its end.
 */
import { existsSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { type Database, flushToDisk } from "./client";

/** Whether another process has `file` open (Linux /proc; elsewhere: assumed so). */
export function openElsewhere(file: string): boolean {
  let procs: string[];
  try {
    procs = readdirSync("/proc").filter((d) => /^\d+$/.test(d) && d !== String(process.pid));
  } catch {
    return true;
  }
  const target = resolve(file);
  for (const pid of procs) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or another user's (a box of another user could not write this file anyway)
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === target) return true;
      } catch {}
    }
  }
  return false;
}

/**
 * For a long bulk writer (the import: issue 32): a PASSIVE checkpoint on the checkpointer's
 * thread once `writes` writes have gone in since the last one, awaited so the WAL stops growing
 * until it is folded back. Without it the import's own connections (auto-checkpoint off, as
 * every connection here) left a 632 MB WAL beside a 4 KB file after 50k tickets, and the box's
 * first checkpoint then held every tablet for seconds. A checkpoint that a reader keeps from
 * finishing (the box serving beside) is simply taken again later.
 */
export function checkpointEvery(database: Database, writes: number, paused?: () => boolean): () => Promise<void> {
  const { activity, checkpoint } = database;
  if (!activity || !checkpoint) return async () => {};
  return async () => {
    // While Litestream runs on this file it alone checkpoints (README "Who checkpoints when").
    if (activity.sinceCheckpoint < writes || paused?.()) return;
    await checkpoint();
  };
}

/**
 * For a bulk writer beside a serving box (issue 32). A box's write that finds the import's
 * transaction holding the lock waits in SQLite's busy handler, which tries again only every
 * 100 ms (after the first few); the import's next page began within tens of milliseconds, so a
 * box write lost that race page after page (1.5 s, measured), its event loop held all along.
 * A pause of `gapMs` (more than the busy handler's 100 ms) after each of the bulk writer's
 * transactions, while another process has the file open, lets a waiting write in. The check
 * for other processes (a /proc scan) is repeated every `recheckEvery` writes.
 */
export function yieldToOthers(file: string | undefined, gapMs = 120, recheckEvery = 16): () => Promise<void> {
  if (!file) return async () => {};
  let n = 0;
  let others = false;
  return async () => {
    if (n++ % recheckEvery === 0) others = openElsewhere(file);
    if (others) await Bun.sleep(gapMs);
  };
}

/**
 * Leaves the file flushed when a bulk writer ends: what is left in the WAL folded into the
 * file, and the file fsynced (a checkpoint with synchronous=FULL syncs too; the fsync makes
 * it so when a reader kept it short). The WAL is then truncated to nothing, unless
 * `truncate: false`, or Litestream has ever replicated this file (its `.<name>-litestream`
 * folder is there: a TRUNCATE behind its back forces a new generation, a whole upload, see
 * STACK-NOTES), or another process (a box serving) has the file open (TRUNCATE would hold the
 * box's writes while it waits for the box's readers; its checkpointer does the rest). While
 * `paused()` (Litestream runs: it alone checkpoints) the files are only fsynced.
 */
export async function settleWal(database: Database, o: { truncate?: boolean; paused?: () => boolean } = {}): Promise<{ truncated: boolean; walBytes: number }> {
  const file = database.file;
  if (!file || !database.checkpoint) return { truncated: false, walBytes: 0 };
  if (o.paused?.()) return (flushToDisk(file), { truncated: false, walBytes: statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0 });
  await database.checkpoint();
  const replicated = existsSync(join(dirname(file), `.${basename(file)}-litestream`));
  let truncated = false;
  // A box serving on the file: TRUNCATE would hold its writes while it waits for its readers.
  if (o.truncate !== false && !replicated && !openElsewhere(file)) {
    // Little is left after the PASSIVE one; TRUNCATE waits (busy timeout) for readers of the WAL.
    const r = await database.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    truncated = Number(Object.values(r.rows[0] ?? {})[0]) === 0;
  }
  flushToDisk(file);
  return { truncated, walBytes: existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0 };
}
