/**
 * Applies a site's new WAL segments to a copy of the copy HQ keeps (issue 33), in a process of
 * its own (`bun apply.ts <db> <plan json>`): what `litestream restore` does after its snapshot
 * (Litestream 0.3.13, replica.go Restore/downloadWAL, db.go applyWAL), without the snapshot.
 * Per WAL index, in order: the index's segments lz4-decompressed and joined (each starts where
 * the one before ended: offset 0, then offset + length), written as `<db>-wal`, then SQLite
 * folds it in (a checkpoint). Prints one JSON line: `{ ok: true, frames }`
 * or `{ error }`; on an error the file is half-applied and the caller throws it away.
 *
 * Stricter than Litestream: a segment missing between two (a gap), a segment cut short or
 * damaged (lz4), or a WAL whose frames SQLite does not all take (a checksum chain broken
 * part-way: SQLite would silently stop there) is an error, so the caller restores in full.
 */
import { Database } from "bun:sqlite";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { lz4Decode } from "../../../drivers/replication/lz4";

export interface ApplySegment {
  index: number;
  offset: number;
  /** The segment's file (`<replica>/generations/<g>/wal/<index>_<offset>.wal.lz4`). */
  path: string;
}

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** The segments of one WAL index joined into the WAL file they were cut from. */
export function walOfIndex(segments: ApplySegment[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let at = 0;
  for (const s of segments) {
    if (s.offset !== at) throw new Error(`WAL index ${s.index}: a segment is missing before offset ${s.offset} (the WAL reached ${at})`);
    const part = lz4Decode(readFileSync(s.path));
    parts.push(part);
    at += part.length;
  }
  return Buffer.concat(parts);
}

export function applySegments(db: string, segments: ApplySegment[]): { frames: number } {
  const indexes = [...new Set(segments.map((s) => s.index))].sort((a, b) => a - b);
  // The copy HQ keeps is a rollback-journal database (check.ts): back to WAL mode first, so
  // SQLite reads the -wal put beside it as it does in a restore from a snapshot.
  const setup = new Database(db);
  setup.run("PRAGMA journal_mode = WAL");
  setup.close();
  let frames = 0;
  for (const index of indexes) {
    const wal = walOfIndex(segments.filter((s) => s.index === index).sort((a, b) => a.offset - b.offset));
    if (wal.length < WAL_HEADER) throw new Error(`WAL index ${index} has no header`);
    const raw = new DataView(wal.buffer, wal.byteOffset).getUint32(8);
    const pageSize = raw === 1 ? 65536 : raw;
    const expected = (wal.length - WAL_HEADER) / (pageSize + FRAME_HEADER);
    if (!Number.isInteger(expected)) throw new Error(`WAL index ${index} ends part-way through a frame`);
    rmSync(`${db}-shm`, { force: true });
    writeFileSync(`${db}-wal`, wal);
    const d = new Database(db);
    try {
      // FULL, not Litestream's TRUNCATE: a TRUNCATE that resets the WAL reports 0 frames, and
      // the counts are the check that SQLite took the whole WAL (Litestream ships whole
      // transactions, so every frame must be taken; a broken checksum chain stops SQLite short).
      const [busy, log, done] = d.query("PRAGMA wal_checkpoint(FULL)").values()[0] as [number, number, number];
      if (busy !== 0 || log !== expected || done !== expected)
        throw new Error(`WAL index ${index}: SQLite took ${log} of ${expected} frames (checkpoint ${busy}/${log}/${done})`);
      d.query("PRAGMA wal_checkpoint(TRUNCATE)").values();
    } finally {
      d.close();
    }
    frames += expected;
  }
  rmSync(`${db}-wal`, { force: true });
  rmSync(`${db}-shm`, { force: true });
  return { frames };
}

if (import.meta.main) {
  const [db, plan] = process.argv.slice(2);
  try {
    process.stdout.write(JSON.stringify({ ok: true, ...applySegments(db!, JSON.parse(readFileSync(plan!, "utf8")) as ApplySegment[]) }));
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
  }
}
