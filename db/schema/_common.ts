import { sql } from "drizzle-orm";
import { integer, text } from "drizzle-orm/sqlite-core";

/** Primary key used by every entity table. */
export const id = () => integer("id").primaryKey({ autoIncrement: true });

/** UTC ISO-8601 timestamp, filled by the database when the row is written. */
export const createdAt = () => text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`);

/** Booleans are stored as 0/1 integers. */
export const flag = (name: string, dflt = false) => integer(name, { mode: "boolean" }).notNull().default(dflt);

/**
 * Money and up-charges are integers in hundredths: cents for flat amounts, hundredths of a
 * percent where a column holds a percentage (documented on each such column).
 */
export const cents = (name: string) => integer(name).notNull().default(0);
