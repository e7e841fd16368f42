import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "./_common";
import { payments } from "./payments";
import { agents, customers, employees } from "./people";
import { ticketSubCategories, tickets } from "./tickets";

/**
 * Business accounts (issue 34): a hotel, restaurant or office billed for its tickets. Nothing
 * here stores a balance: an account's balance is its charges less its payments and credit
 * notes, each a row that is never changed (triggers in migration 0017 refuse updates and
 * deletes of the money rows).
 */
export const accounts = sqliteTable(
  "accounts",
  {
    id: id(),
    /** The shop that bills it. */
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    name: text("name").notNull(),
    billing_contact: text("billing_contact").notNull().default(""),
    email: text("email").notNull().default(""),
    vat_number: text("vat_number").notNull().default(""),
    /** Days from the invoice date to its due date. */
    terms_days: integer("terms_days").notNull().default(30),
    /** Cents; charges past it need a manager's approval. */
    credit_limit: integer("credit_limit").notNull().default(0),
    /** Whole percent the account's customers are offered (informational on the account). */
    discount: integer("discount"),
    created_at: createdAt(),
  },
  (t) => [index("accounts_agent_idx").on(t.agent_id, t.name)],
);

/** The customers that may charge to an account; a customer charges to at most one. */
export const accountCustomers = sqliteTable(
  "account_customers",
  {
    account_id: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    customer_id: integer("customer_id")
      .notNull()
      .references(() => customers.id),
  },
  (t) => [primaryKey({ columns: [t.account_id, t.customer_id] }), uniqueIndex("account_customers_customer_idx").on(t.customer_id)],
);

/**
 * A ticket's money charged to an account: one row per payment row of tender `account` (a
 * refund of one is a negative charge). Its amount is the payment row's (a trigger refuses
 * another), so the ticket's total_paid and the account's balance count the same cents.
 */
export const accountCharges = sqliteTable(
  "account_charges",
  {
    id: id(),
    account_id: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    payment_id: integer("payment_id")
      .notNull()
      .unique()
      .references(() => payments.id),
    ticket_id: integer("ticket_id")
      .notNull()
      .references(() => tickets.id),
    ticket_sub_category_id: integer("ticket_sub_category_id").references(() => ticketSubCategories.id),
    amount: integer("amount").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("account_charges_account_idx").on(t.account_id, t.at)],
);

/** An invoice: its totals are the sums of its lines; it is never edited or deleted. */
export const invoices = sqliteTable(
  "invoices",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    account_id: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    /** e.g. BKR-2026-000123: the shop's prefix, the year, the number in that year's series. */
    number: text("number").notNull().unique(),
    year: integer("year").notNull(),
    seq: integer("seq").notNull(),
    period_from: text("period_from").notNull(),
    period_to: text("period_to").notNull(),
    /** The shop's day it was issued (YYYY-MM-DD) and its due date from the terms. */
    issued_on: text("issued_on").notNull(),
    due_on: text("due_on").notNull(),
    /** What the invoice shows of the account when issued (it never changes after). */
    account_name: text("account_name").notNull(),
    vat_number: text("vat_number").notNull(),
    employee_id: integer("employee_id").references(() => employees.id),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("invoices_series_idx").on(t.agent_id, t.year, t.seq), index("invoices_account_idx").on(t.account_id, t.issued_on)],
);

/** One line per ticket and item charged: net + VAT = gross exactly (cents). */
export const invoiceLines = sqliteTable(
  "invoice_lines",
  {
    id: id(),
    invoice_id: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    ticket_id: integer("ticket_id")
      .notNull()
      .references(() => tickets.id),
    ticket_sub_category_id: integer("ticket_sub_category_id").references(() => ticketSubCategories.id),
    description: text("description").notNull(),
    /** Hundredths of a percent (1800 = 18 %). */
    vat_rate: integer("vat_rate").notNull(),
    net: integer("net").notNull(),
    vat: integer("vat").notNull(),
    gross: integer("gross").notNull(),
  },
  (t) => [index("invoice_lines_invoice_idx").on(t.invoice_id)],
);

/** Which charges an invoice bills: each charge at most once. */
export const invoiceCharges = sqliteTable(
  "invoice_charges",
  {
    invoice_id: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    charge_id: integer("charge_id")
      .notNull()
      .unique()
      .references(() => accountCharges.id),
  },
  (t) => [index("invoice_charges_invoice_idx").on(t.invoice_id)],
);

/** Money taken off an invoice, numbered in its own series. */
export const creditNotes = sqliteTable(
  "credit_notes",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    account_id: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    invoice_id: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    number: text("number").notNull().unique(),
    year: integer("year").notNull(),
    seq: integer("seq").notNull(),
    /** Cents, > 0: what it takes off. */
    amount: integer("amount").notNull(),
    reason: text("reason").notNull(),
    issued_on: text("issued_on").notNull(),
    employee_id: integer("employee_id").references(() => employees.id),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("credit_notes_series_idx").on(t.agent_id, t.year, t.seq), index("credit_notes_invoice_idx").on(t.invoice_id)],
);

/** Money received on an account; what no allocation takes stays as credit on the account. */
export const accountPayments = sqliteTable(
  "account_payments",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    account_id: integer("account_id")
      .notNull()
      .references(() => accounts.id),
    amount: integer("amount").notNull(),
    method: text("method").notNull(),
    reference: text("reference").notNull().default(""),
    received_on: text("received_on").notNull(),
    employee_id: integer("employee_id").references(() => employees.id),
    created_at: text("created_at").notNull(),
  },
  (t) => [index("account_payments_account_idx").on(t.account_id, t.received_on)],
);

/** A part of a payment on account settling an invoice. */
export const paymentAllocations = sqliteTable(
  "payment_allocations",
  {
    id: id(),
    account_payment_id: integer("account_payment_id")
      .notNull()
      .references(() => accountPayments.id),
    invoice_id: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    amount: integer("amount").notNull(),
  },
  (t) => [index("payment_allocations_payment_idx").on(t.account_payment_id), index("payment_allocations_invoice_idx").on(t.invoice_id)],
);

/**
 * The last number given in a shop's series (invoice or credit note) of a year: incremented in
 * the transaction that inserts the document, so numbers have no gaps and no repeats.
 */
export const documentCounters = sqliteTable(
  "document_counters",
  {
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    series: text("series", { enum: ["invoice", "credit"] }).notNull(),
    year: integer("year").notNull(),
    last: integer("last").notNull(),
  },
  (t) => [primaryKey({ columns: [t.agent_id, t.series, t.year] })],
);

/** Each shop's invoice prefix, set by HQ (e.g. "BKR"). */
export const invoicePrefixes = sqliteTable("invoice_prefixes", {
  agent_id: integer("agent_id")
    .primaryKey()
    .references(() => agents.id),
  prefix: text("prefix").notNull().unique(),
});

/** An invoice e-mailed: its outbox row (keyed by the invoice and the send's round). */
export const invoiceSends = sqliteTable(
  "invoice_sends",
  {
    id: id(),
    invoice_id: integer("invoice_id")
      .notNull()
      .references(() => invoices.id),
    round: integer("round").notNull(),
    message_id: integer("message_id").notNull(),
    recipient: text("recipient").notNull(),
    employee_id: integer("employee_id").references(() => employees.id),
    created_at: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("invoice_sends_round_idx").on(t.invoice_id, t.round)],
);
