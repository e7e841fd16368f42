/**
 * Drizzle queries built once (issue 33, "the box's own overhead", second pass). Building a
 * drizzle query (its SQL text, parameter order and row mapping) costs more CPU than running
 * it: in a profile of opening tickets, drizzle's select building was about a third of the
 * process's time, around reads of 0.1–0.2 ms. A hot query is therefore built once, with
 * `sql.placeholder(…)` for its values, and run with the values on each call.
 *
 * A drizzle prepared query is tied to the session it was built on: built on the box's `db`, it
 * would run outside a caller's transaction (another pooled connection: it would not see the
 * transaction's writes, and a write would wait for the transaction's own lock). So the query is
 * built once and run on the caller's session: the box's db or the transaction it is given.
 */
import { type SQL, sql } from "drizzle-orm";
import type { AnyColumn } from "drizzle-orm";

/** What a libSQL session runs statements on: the client, or the transaction in progress. */
type Session = { client: unknown; tx?: unknown };
type Runs = { session: Session };

/**
 * `build` makes the query (with placeholders) on the first session it is used with; each call
 * returns it bound to the caller's session (`db` or a transaction's `tx`).
 */
export function prepared<Q extends object, D = unknown>(build: (db: D) => Q): (db: D) => Q {
  let query: (Q & Session) | undefined;
  return (db: D) => {
    const s = (db as unknown as Runs).session;
    query ??= build(db) as Q & Session;
    if (query.client === s.client && query.tx === s.tx) return query;
    // The same built statement and mapping, run through the caller's connection.
    return Object.assign(Object.create(Object.getPrototypeOf(query)) as Q & Session, query, { client: s.client, tx: s.tx });
  };
}

/**
 * `column IN (the ids)` as ONE SQL text whatever the number of ids (a JSON array in one
 * parameter), so a prepared query takes lists; an empty list matches nothing, as inArray's.
 */
export function inJsonList(column: AnyColumn | SQL, placeholder: string): SQL {
  return sql`${column} in (select value from json_each(${sql.placeholder(placeholder)}))`;
}
