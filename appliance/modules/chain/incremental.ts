/**
 * Whether a site's new WAL segments can be applied to the copy HQ keeps instead of restoring
 * the whole database (issue 33: a round then costs what changed, not each shop's size), and
 * which segments (pure), and the apply (apply.ts, in a process of its own) on a copy of the copy.
 *
 * The copy in use holds the generation's snapshot and every WAL index up to `index` (at least
 * the segments listed when it was made; maybe more, uploaded while it was restored). Applying
 * every segment of `index` from offset 0 and of each later index, in order, gives the same
 * pages as a whole restore: WAL frames are whole page images, so frames applied twice change
 * nothing, and a later index wins over an earlier one as in Litestream's own restore.
 */
import { constants, copyFileSync, existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseWalListing, type Run, type Segment } from "../../../drivers/replication/torn";
import type { ApplySegment } from "./apply";

/** Where the copy in use is in its replica: the generation and the last WAL index listed when it was made. */
export interface CopyPosition {
  generation: string;
  index: number;
  /** The replica's generations when the copy was made: another one since is a new generation. */
  generations: string[];
}

const hex = (n: number) => n.toString(16).padStart(8, "0");
const key = (s: Segment) => `${s.generation}/${s.index}/${s.offset}`;

/**
 * The generations in a folder replica (null for others). Read from the folder, not from
 * `litestream wal`: a new generation's snapshot lands before its first WAL segment is listed.
 */
export function replicaGenerations(url: string | null): string[] | null {
  if (!url?.startsWith("file:")) return null;
  const dir = join(fileURLToPath(url), "generations");
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/**
 * The position of a copy that holds `from` (the snapshot a restore started from, or the kept
 * copy's position) and every segment of `listing` (taken before it was made). A snapshot with
 * no segment listed yet is a position too: the next apply starts at the snapshot's index.
 */
export function positionOf(from: { generation: string; index: number } | null, listing: string | null, generations: string[] | null): CopyPosition | null {
  if (!from || listing === null || !generations) return null;
  const mine = parseWalListing(listing).filter((s) => s.generation === from.generation);
  return { generation: from.generation, index: Math.max(from.index, mine[mine.length - 1]?.index ?? 0), generations };
}

/** The generation and snapshot index `litestream restore` took, from its log ("restoring snapshot … generation=<id> index=<n>"). */
export function restoredFrom(stderr: string): { generation: string; index: number } | null {
  const m = /restoring snapshot"?[^\n]*?\bgeneration=([0-9a-f]+)[^\n]*?\bindex=(\d+)/.exec(stderr);
  return m ? { generation: m[1]!, index: Number(m[2]) } : null;
}

/**
 * The segments to apply, in order, or why a whole restore is needed. `before` is the listing
 * the copy in use was made from, `now` the one just taken.
 */
export function planApply(o: {
  url: string;
  position: CopyPosition | null;
  before: string | null;
  now: string | null;
}): { segments: ApplySegment[] } | { why: string } {
  if (!o.url.startsWith("file:")) return { why: "the replica is not a folder on this box" };
  if (!o.position) return { why: "the copy's position in its replica is not known" };
  if (o.before === null || o.now === null) return { why: "the replica could not be listed" };
  const { generation, index } = o.position;
  const known = new Set([...(o.position.generations ?? []), generation]);
  if (replicaGenerations(o.url)?.some((g) => !known.has(g))) return { why: "the site started a new generation" };
  const seen = new Set(parseWalListing(o.before).map(key));
  const all = parseWalListing(o.now);
  const fresh = all.filter((s) => !seen.has(key(s)));
  if (fresh.some((s) => s.generation !== generation)) return { why: "the site started a new generation" };
  const todo = all.filter((s) => s.generation === generation && s.index >= index);
  if (todo[0]?.index !== index || todo[0].offset !== 0) return { why: `the replica no longer starts WAL index ${index} at offset 0` };
  for (let i = 1; i < todo.length; i++) {
    const step = todo[i]!.index - todo[i - 1]!.index;
    if (step > 1 || (step === 1 && todo[i]!.offset !== 0)) return { why: `a WAL segment is missing before index ${todo[i]!.index}` };
  }
  const wal = join(fileURLToPath(o.url), "generations", generation, "wal");
  return { segments: todo.map((s) => ({ index: s.index, offset: s.offset, path: join(wal, `${hex(s.index)}_${hex(s.offset)}.wal.lz4`) })) };
}

/**
 * `copy` (the copy in use) copied to `tmp` and the segments applied there by apply.ts: null
 * when done, else why (`tmp` is then half-applied: the caller throws it away). A copy, not the
 * file in use: readers hold that one, and a failed apply must leave it whole (FICLONE: a
 * reflink where the file system has them, else a plain copy).
 */
export async function applyToCopy(o: { run: Run; apply: string; copy: string; tmp: string; segments: ApplySegment[] }): Promise<string | null> {
  copyFileSync(o.copy, o.tmp, constants.COPYFILE_FICLONE);
  const plan = `${o.tmp}.plan.json`;
  writeFileSync(plan, JSON.stringify(o.segments));
  try {
    const res = await o.run([process.execPath, o.apply, o.tmp, plan]);
    try {
      const out = JSON.parse(res.out) as { ok?: boolean; error?: string };
      return out.ok ? null : (out.error ?? "the apply failed");
    } catch {
      return res.err.slice(0, 300) || `the apply ended with ${res.code}`;
    }
  } finally {
    rmSync(plan, { force: true });
  }
}
