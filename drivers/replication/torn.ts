/**
 * A WAL segment torn at HQ, and the restore of everything before it. Litestream 0.3.13's SFTP
 * client writes a segment in place, so a box that dies while uploading one leaves it torn, and
 * every `litestream restore` of the latest fails on it ("cannot download wal …: EOF"). Used by
 * scripts/restore-box.ts (a dead box) and HQ's restores of its sites (appliance/modules/chain).
 *
 * The restore then reads a local replica of the generation: its newest snapshot and every WAL
 * segment after it except the torn one (the newest). Exactly what the box had shipped whole,
 * and no less: `-timestamp` alone cannot leave out one segment, since SFTP keeps whole seconds,
 * and cost every segment of the torn one's second as well (two or three at a 500 ms sync).
 * Files are fetched with OpenSSH's `sftp` (key login) or copied from a folder (file://).
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface Segment {
  generation: string;
  index: number;
  offset: number;
  size: number;
  created: string;
}

export type Run = (cmd: string[]) => Promise<{ code: number; out: string; err: string }>;

/** `litestream wal` (columns: replica, generation, index, offset, size, created) as rows, in replica order. */
export function parseWalListing(out: string): Segment[] {
  return out
    .split("\n")
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length >= 6 && /^\d+$/.test(c[2]!) && /^\d+$/.test(c[3]!))
    .map((c) => ({ generation: c[1]!, index: Number(c[2]), offset: Number(c[3]), size: Number(c[4]), created: c[5]! }))
    .sort((a, b) => a.generation.localeCompare(b.generation) || a.index - b.index || a.offset - b.offset);
}

/** `litestream snapshots` (columns: replica, generation, index, size, created): the snapshot indexes of `generation`. */
export function parseSnapshotIndexes(out: string, generation: string): number[] {
  return out
    .split("\n")
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((c) => c.length >= 5 && c[1] === generation && /^\d+$/.test(c[2]!))
    .map((c) => Number(c[2]));
}

/**
 * A restore that failed while fetching WAL, after its snapshot came: the generation and the
 * error (the same text twice in a row means a torn segment, not an upload that overlapped).
 * Null for any other failure.
 */
export function walFailure(stderr: string): string | null {
  // Two formats: slog's text (`level=ERROR msg=…`, with -config) and Go's default (`… ERROR failed to run error=…`).
  const generation = /restoring snapshot"?[^\n]*?\bgeneration=(\w+)/.exec(stderr)?.[1];
  const error = /(?:level=)?ERROR\b[^\n]*?\berror=("(?:[^"\\]|\\.)*"|\S+)/.exec(stderr)?.[1];
  const text = error?.startsWith('"') ? (JSON.parse(error) as string) : (error ?? "");
  return generation && /cannot download wal|context canceled|\bEOF\b/i.test(text) ? `${generation} ${text}` : null;
}

const hex = (n: number) => n.toString(16).padStart(8, "0");
const walFile = (s: Segment) => `${hex(s.index)}_${hex(s.offset)}.wal.lz4`;
const snapshotFile = (index: number) => `${hex(index)}.snapshot.lz4`;

/**
 * Builds in `into` (an empty folder) a replica of `generation` without its newest WAL segment:
 * the newest snapshot at or before that segment, and the segments after the snapshot. Returns
 * the file:// URL to restore from and the segment left out; or why not (then the caller falls
 * back to `-timestamp`). SFTP needs a key (a password cannot be given to `sftp` in batch mode).
 */
export async function replicaWithoutNewest(o: {
  url: string;
  keyPath: string | null;
  generation: string;
  wal: Segment[];
  snapshots: number[];
  into: string;
  run: Run;
}): Promise<{ url: string; left: Segment; segments: number } | { error: string }> {
  const wal = o.wal.filter((s) => s.generation === o.generation);
  const left = wal[wal.length - 1];
  if (!left) return { error: "the generation has no WAL segment" };
  const snapshot = Math.max(-1, ...o.snapshots.filter((i) => i <= left.index));
  if (snapshot < 0) return { error: "no snapshot before the torn segment" };
  const keep = wal.slice(0, -1).filter((s) => s.index >= snapshot);
  const gen = join(o.into, "generations", o.generation);
  mkdirSync(join(gen, "snapshots"), { recursive: true });
  mkdirSync(join(gen, "wal"), { recursive: true });
  const files = [`snapshots/${snapshotFile(snapshot)}`, ...keep.map((s) => `wal/${walFile(s)}`)];
  const u = new URL(o.url);
  if (u.protocol === "file:") {
    const from = join(fileURLToPath(u), "generations", o.generation);
    try {
      for (const f of files) copyFileSync(join(from, f), join(gen, f));
    } catch (e) {
      return { error: (e as Error).message };
    }
  } else if (u.protocol === "sftp:") {
    if (!o.keyPath || u.password) return { error: "SFTP without a key file" };
    const remote = `${decodeURIComponent(u.pathname).replace(/\/+$/, "") || "."}/generations/${o.generation}`;
    // One session, one `get` per file; names are hex, so nothing to quote but the folders.
    const q = (p: string) => `"${p.replace(/(["\\])/g, "\\$1")}"`;
    const batch = files.map((f) => `get ${q(`${remote}/${f}`)} ${q(join(gen, f))}`).join("\n");
    const batchFile = join(o.into, "batch");
    await Bun.write(batchFile, `${batch}\n`);
    const res = await o.run([
      "sftp",
      "-q",
      "-b",
      batchFile,
      "-i",
      o.keyPath,
      "-P",
      u.port || "22",
      // Litestream itself does not check HQ's host key (InsecureIgnoreHostKey): neither does this.
      "-o",
      "StrictHostKeyChecking=no",
      "-o",
      "UserKnownHostsFile=/dev/null",
      "-o",
      "BatchMode=yes",
      "-o",
      "ConnectTimeout=15",
      `${decodeURIComponent(u.username) || "root"}@${u.hostname}`,
    ]);
    if (res.code !== 0) return { error: `sftp: ${(res.err || res.out).trim().split("\n").pop() ?? res.code}` };
  } else return { error: `${u.protocol} replicas are restored up to a time only` };
  return { url: pathToFileURL(o.into).toString(), left, segments: keep.length };
}

/** A segment in words: "index 3, offset 708672 (uploaded 2026-11-25T10:00:01Z)". */
export const segmentWords = (s: Segment) => `index ${s.index}, offset ${s.offset} (uploaded ${s.created})`;
