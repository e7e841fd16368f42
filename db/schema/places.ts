import { type AnySQLiteColumn, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id } from "./_common";
import { agents } from "./people";

export const localities = sqliteTable("localities", {
  id: id(),
  name: text("name").notNull().unique(),
});

export const streets = sqliteTable(
  "streets",
  {
    id: id(),
    locality_id: integer("locality_id")
      .notNull()
      .references(() => localities.id),
    name: text("name").notNull(),
  },
  (t) => [index("streets_locality_idx").on(t.locality_id, t.name)],
);

export const addresses = sqliteTable(
  "addresses",
  {
    id: id(),
    name: text("name").notNull().default(""),
    number: text("number").notNull().default(""),
    locality_id: integer("locality_id")
      .notNull()
      .references(() => localities.id),
    street_id: integer("street_id")
      .notNull()
      .references(() => streets.id),
    /**
     * The shop that owns the address (a customer's home, an agent's premises, a ticket's
     * pickup point). Only that agent (and HQ) may read, change or reference it. Null only
     * on rows that no migration could attribute; those count as HQ's.
     */
    agent_id: integer("agent_id").references((): AnySQLiteColumn => agents.id),
  },
  (t) => [index("addresses_locality_idx").on(t.locality_id), index("addresses_agent_idx").on(t.agent_id)],
);
