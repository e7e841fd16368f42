import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id } from "./_common";
import { agents, employees } from "./people";
import { ticketSubCategories, tickets } from "./tickets";

/**
 * One payment or refund (issue 24): money in (amount > 0) or out (a refund, amount < 0,
 * linked to the payment it returns). Rows are never updated or deleted (triggers refuse it);
 * inserting one adds its amount to `total_paid` of its item (if any) and its ticket in the
 * same statement (triggers in migration 0010), so a total never exists without its rows.
 */
export const payments = sqliteTable(
  "payments",
  {
    id: id(),
    ticket_id: integer("ticket_id")
      .notNull()
      .references(() => tickets.id),
    /** The item paid for; null: the ticket as a whole (charges, a part payment). */
    ticket_sub_category_id: integer("ticket_sub_category_id").references(() => ticketSubCategories.id),
    /** The shop the money was taken at (the ticket's shop). */
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    /** Who took it (a driver on the run: the driver). */
    employee_id: integer("employee_id").references(() => employees.id),
    /** Cents; negative for a refund. */
    amount: integer("amount").notNull(),
    /** cash | card | other */
    tender: text("tender").notNull(),
    /** Cash handed over by the customer (cents), on the first row of the tender. */
    tendered: integer("tendered"),
    /** The change given back for it (cents): tendered less all the tender took. */
    change_given: integer("change_given"),
    /** A driver's run: the stop (pickup or delivery) it was taken at, e.g. "delivery". */
    stop: text("stop"),
    refund_of: integer("refund_of").references((): AnySQLiteColumn => payments.id),
    reason: text("reason"),
    /** UTC ISO time it was taken. */
    taken_at: text("taken_at").notNull(),
    /** The Malta day whose drawer counts it (the next open day when that day was closed). */
    till_day: text("till_day").notNull(),
    /** Who approved a refund (a manager's PIN), when not the caller. */
    approved_by: integer("approved_by").references(() => employees.id),
    /**
     * 1: money the old system took, brought in by the import (issue 32) and dated from the
     * source. History, not cash in this box's drawers: takings.ts leaves it out of every day.
     */
    imported: integer("imported").notNull().default(0),
  },
  (t) => [
    index("payments_ticket_idx").on(t.ticket_id),
    index("payments_item_idx").on(t.ticket_sub_category_id).where(sql`ticket_sub_category_id IS NOT NULL`),
    index("payments_taken_idx").on(t.taken_at),
    index("payments_till_idx").on(t.agent_id, t.till_day),
    index("payments_refund_idx").on(t.refund_of).where(sql`refund_of IS NOT NULL`),
  ],
);

/** A drawer closed for a shop's day: what was expected and counted per tender (cents). */
export const tillCloses = sqliteTable(
  "till_closes",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    day: text("day").notNull(),
    expected_cash: integer("expected_cash").notNull(),
    expected_card: integer("expected_card").notNull(),
    expected_other: integer("expected_other").notNull(),
    counted_cash: integer("counted_cash").notNull(),
    counted_card: integer("counted_card").notNull(),
    counted_other: integer("counted_other").notNull(),
    note: text("note").notNull().default(""),
    employee_id: integer("employee_id").references(() => employees.id),
    closed_at: text("closed_at").notNull(),
    /** Set when an admin reopened the day; the close stays on record. */
    reopened_at: text("reopened_at"),
    reopened_by: integer("reopened_by").references(() => employees.id),
  },
  // One standing close per shop and day: a second close answers 409.
  (t) => [uniqueIndex("till_closes_open_idx").on(t.agent_id, t.day).where(sql`reopened_at IS NULL`)],
);
