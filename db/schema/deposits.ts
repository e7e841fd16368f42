import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { id } from "./_common";
import { payments } from "./payments";
import { agents, customers, employees } from "./people";

/**
 * The deposit ledger (issue 34): money a customer left ahead, which the chain owes them. Each
 * cent is a row, never updated or deleted (triggers in migration 0018): a customer's balance
 * at a shop is the sum of their rows at that shop, and the database refuses a row that would
 * take it below zero. Kinds:
 *  - `deposit`  money in (amount > 0), by a tender of the drawer (cash, card, other);
 *  - `refund`   a deposit given back (amount < 0, `refund_of` the deposit), by its tender;
 *  - `spend`    the balance spent on a ticket: written by the database itself for each payment
 *               row of tender `balance` (amount = minus the payment's; a refund of such a
 *               payment puts it back), `payment_id` that row;
 *  - `transfer_out` / `transfer_in`: a transfer HQ signed, applied once per shop (`transfer_id`).
 */
export const deposits = sqliteTable(
  "deposits",
  {
    id: id(),
    customer_id: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    /** The shop that holds the money (the drawer it went into): the balance is spendable there. */
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    employee_id: integer("employee_id").references(() => employees.id),
    kind: text("kind").notNull(),
    /** Cents: positive into the balance, negative out of it. */
    amount: integer("amount").notNull(),
    /** cash | card | other for money in and out of the drawer; `balance` for a spend. */
    tender: text("tender").notNull(),
    payment_id: integer("payment_id").references(() => payments.id),
    refund_of: integer("refund_of").references((): AnySQLiteColumn => deposits.id),
    reason: text("reason"),
    transfer_id: text("transfer_id"),
    approved_by: integer("approved_by").references(() => employees.id),
    /** UTC ISO time. */
    taken_at: text("taken_at").notNull(),
    /** The drawer day it counts in (as payments': the next open day after a close). */
    till_day: text("till_day").notNull(),
  },
  (t) => [
    index("deposits_customer_idx").on(t.customer_id, t.agent_id),
    index("deposits_till_idx").on(t.agent_id, t.till_day),
    uniqueIndex("deposits_payment_idx").on(t.payment_id).where(sql`payment_id IS NOT NULL`),
    index("deposits_refund_idx").on(t.refund_of).where(sql`refund_of IS NOT NULL`),
    // A transfer is applied at most once on each side, whatever the retries.
    uniqueIndex("deposits_transfer_idx").on(t.transfer_id, t.kind).where(sql`transfer_id IS NOT NULL`),
  ],
);
