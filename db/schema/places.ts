import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id } from "./_common";

export const localities = sqliteTable("localities", {
  id: id(),
  name: text("name").notNull().unique(),
});

export const streets = sqliteTable(
  "streets",
  {
    id: id(),
    locality_id: integer("locality_id").notNull().references(() => localities.id),
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
    locality_id: integer("locality_id").notNull().references(() => localities.id),
    street_id: integer("street_id").notNull().references(() => streets.id),
  },
  (t) => [index("addresses_locality_idx").on(t.locality_id)],
);
