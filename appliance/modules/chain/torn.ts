/**
 * A site whose newest WAL segment at HQ is torn (its box died uploading it: Litestream 0.3.13's
 * SFTP client writes in place), so every restore of the latest fails on it: HQ restores from a
 * local replica without that segment (drivers/replication/torn.ts), as scripts/restore-box.ts
 * does for a dead box, and says so on the Sites screen. Without this, HQ's copy of a dead
 * shop stayed at the last restore before the death, however much more had arrived whole.
 */
import { existsSync, rmSync } from "node:fs";
import { parseSnapshotIndexes, parseWalListing, replicaWithoutNewest, type Run, segmentWords } from "../../../drivers/replication/torn";

/** Restores into `tmp` (which must not exist); returns what to say of it, or null when it could not be done. */
export async function restoreBeforeTorn(o: {
  run: Run;
  litestream: string;
  /** The arguments naming the replica for `litestream snapshots` (a URL, or a configuration and path). */
  replicaArgs: string[];
  url: string;
  keyPath: string | null;
  generation: string;
  /** `litestream wal` of the replica. */
  listing: string;
  tmp: string;
  /** A scratch folder for the local replica (removed after). */
  into: string;
}): Promise<string | null> {
  const snaps = await o.run([o.litestream, "snapshots", ...o.replicaArgs]);
  if (snaps.code !== 0) return null;
  rmSync(o.into, { recursive: true, force: true });
  try {
    const local = await replicaWithoutNewest({
      url: o.url,
      keyPath: o.keyPath,
      generation: o.generation,
      wal: parseWalListing(o.listing),
      snapshots: parseSnapshotIndexes(snaps.out, o.generation),
      into: o.into,
      run: o.run,
    });
    if ("error" in local) return null;
    const res = await o.run([o.litestream, "restore", "-o", o.tmp, local.url]);
    if (res.code !== 0 || !existsSync(o.tmp)) return null;
    return `The newest WAL segment at HQ cannot be read (the box died uploading it?): restored everything before it (${segmentWords(local.left)} left out)`;
  } finally {
    rmSync(o.into, { recursive: true, force: true });
  }
}
