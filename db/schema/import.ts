import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Issue 26, moving in: what the import last wrote of each record of the old system, so a
 * second run (the cut-over delta) or a resumed run writes only what is new or changed. A row
 * is written in the same transaction as the record it describes: after a kill, the records
 * with a row here are whole and the rest are brought again.
 */
export const importRecords = sqliteTable(
  "import_records",
  {
    /** The record kind ("customer", "ticket", …). */
    kind: text("kind").notNull(),
    /** The record's id at the source (ids are kept, so also its id here). */
    source_id: integer("source_id").notNull(),
    /** SHA-256 of the record as the source answered it, normalised. */
    hash: text("hash").notNull(),
    run_id: integer("run_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.source_id] })],
);

/** One import run: where from, when, how it ended and its report (JSON). */
export const importRuns = sqliteTable(
  "import_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    source: text("source").notNull(),
    started_at: text("started_at").notNull(),
    finished_at: text("finished_at"),
    /** running, done, failed, dry-run. */
    status: text("status").notNull(),
    /** The report: counts per kind, refusals with reasons, money check. */
    report: text("report").notNull().default("{}"),
  },
  (t) => [index("import_runs_started_idx").on(t.started_at)],
);
