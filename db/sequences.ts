import type { Database } from "bun:sqlite";

/**
 * Ids a restored box must never give again. A box that died may have handed out ids its copy
 * (HQ's replica, or a nightly backup) never saw: tickets acknowledged and labels printed in its
 * last second, or in the hours since the backup. A new ticket reusing such an id would share a
 * label with a garment already on the rail. So before a restored box serves, every id sequence
 * (every AUTOINCREMENT table: tickets, items, customers, and anything else printed) moves on by
 * a gap far beyond what one shop issues in the time the copy may be behind.
 *
 * The gap: SEQUENCE_GAP_PER_DAY for each started day the copy may be behind (at least one).
 * A busy shop issues a few hundred tickets and about a thousand items a day; 10,000 a day
 * leaves ten times that. Ids are 64-bit: even a restore a week puts no table near the end.
 */
export const SEQUENCE_GAP_PER_DAY = 10_000;

export interface SequenceMove {
  table: string;
  from: number;
  to: number;
}

/** The gap for a copy `behindMs` behind what the box may have issued (unknown: one day). */
export const sequenceGap = (behindMs: number | null) => SEQUENCE_GAP_PER_DAY * Math.max(1, Math.ceil((behindMs ?? 0) / 86_400_000));

/**
 * Moves every AUTOINCREMENT sequence of `db` on by `gap`, in one transaction: a table with rows
 * goes from its sequence, one that never had a row from 0 (its first ids may have been given).
 */
export function advanceSequences(db: Database, gap: number): SequenceMove[] {
  const tables = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' ORDER BY name").all() as { name: string }[]).map(
    (t) => t.name,
  );
  const moves: SequenceMove[] = [];
  db.transaction(() => {
    for (const table of tables) {
      const row = db.query("SELECT seq FROM sqlite_sequence WHERE name = ?").get(table) as { seq: number } | null;
      const from = row?.seq ?? 0;
      if (row) db.query("UPDATE sqlite_sequence SET seq = ? WHERE name = ?").run(from + gap, table);
      else db.query("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").run(table, from + gap);
      moves.push({ table, from, to: from + gap });
    }
  })();
  return moves;
}
