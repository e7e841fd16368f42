import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../../db/schema";

/**
 * HQ-owned reference data, parents before children (the order rows are written in; removed
 * rows are dropped in the reverse order). Everything else on a box is the shop's own
 * (customers, addresses, tickets, employees, agents, settings, hardware) and never travels down.
 * A name listed here that the schema does not (yet) have is skipped.
 */
export const REFERENCE_TABLES = [
  "actions",
  "garment_categories",
  "garment_sub_categories",
  "action_garment_sub_categories",
  "modifiers",
  "ticket_states",
  "localities",
  "streets",
  "preferences",
  "configurations",
  "pickup_deliveries",
  "message_templates",
] as const;

/** A column of some table that holds the id (or, for states, the name) of a reference row. */
export interface Reference {
  table: string;
  column: string;
  /** The referenced column: "id" for foreign keys; ticket states are referenced by name. */
  target: string;
}

export interface ReferenceTable {
  name: string;
  /** The primary key column (HQ's ids are kept): "id", or e.g. a template's state_id. */
  key: string;
  /**
   * Columns pointing at a shop's own records (who last edited a template: an employee of
   * HQ's box): left out of the snapshot; the shop's rows get their default (null).
   */
  local: string[];
  /** Has a `visible` flag: a removed row still in use is hidden rather than kept visible. */
  hideable: boolean;
  /**
   * Who still uses a row: foreign keys that block a delete (cascading ones do not: deleting a
   * preference drops it from customers, exactly like HQ deleting it by hand), plus ticket
   * states, which tickets and items carry by name.
   */
  usedBy: Reference[];
}

const tables = (Object.values(schema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));
const configs = tables.map((t) => getTableConfig(t));

function usedBy(name: string): Reference[] {
  const out: Reference[] = [];
  for (const c of configs) {
    for (const fk of c.foreignKeys) {
      const ref = fk.reference();
      if (getTableConfig(ref.foreignTable).name !== name || fk.onDelete === "cascade") continue;
      out.push({ table: c.name, column: ref.columns[0]!.name, target: ref.foreignColumns[0]!.name });
    }
  }
  if (name === "ticket_states") {
    out.push({ table: "tickets", column: "state", target: "name" }, { table: "ticket_sub_categories", column: "state", target: "name" });
  }
  return out;
}

function localColumns(name: string): string[] {
  const c = configs.find((t) => t.name === name)!;
  return c.foreignKeys
    .map((fk) => fk.reference())
    .filter((ref) => !(REFERENCE_TABLES as readonly string[]).includes(getTableConfig(ref.foreignTable).name))
    .map((ref) => ref.columns[0]!.name);
}

/** The HQ-owned tables this schema has, in write order. */
export const referenceTables: ReferenceTable[] = REFERENCE_TABLES.filter((n) => configs.some((c) => c.name === n)).map((name) => {
  const c = configs.find((t) => t.name === name)!;
  return {
    name,
    key: c.columns.find((col) => col.primary)!.name,
    local: localColumns(name),
    hideable: c.columns.some((col) => col.name === "visible"),
    usedBy: usedBy(name),
  };
});
