import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { cents, createdAt, flag, id } from "./_common";
import { actions, garmentSubCategories, modifiers } from "./catalogue";
import { agents, customers, employees } from "./people";
import { addresses } from "./places";

/** Ticket states are data: seeded with spec §4's list in its order; admins add locality states. */
export const ticketStates = sqliteTable("ticket_states", {
  id: id(),
  name: text("name").notNull().unique(),
  position: integer("position").notNull(),
  /** A delivery state named after a locality (B Kara, Mosta, San Gwann). */
  is_locality_delivery: flag("is_locality_delivery"),
  /** Receipts print prices only in states where this is true (spec §4). */
  prices_on_receipt: flag("prices_on_receipt", true),
  hidden_in_lists: flag("hidden_in_lists"),
});

/** A drawn signature, stored once per bulk change and referenced by the log rows. */
export const signatures = sqliteTable(
  "signatures",
  {
    id: id(),
    data_url: text("data_url").notNull(),
    created_at: createdAt(),
    /**
     * The shop whose staff drew it, and its size in bytes (issue 22: each shop's signatures
     * count against its storage quota). Both are set by triggers (migration signature_shop):
     * the size when the row is written, the shop when the first ticket log row of its change
     * references it, so every writer (changes, imports, the demo) keeps them.
     */
    agent_id: integer("agent_id").references(() => agents.id),
    bytes: integer("bytes").notNull().default(0),
  },
  (t) => [index("signatures_agent_bytes_idx").on(t.agent_id, t.bytes)],
);

export const tickets = sqliteTable(
  "tickets",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    employee_id: integer("employee_id")
      .notNull()
      .references(() => employees.id),
    customer_id: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    pickup_date: text("pickup_date"),
    delivery_date: text("delivery_date"),
    pickup_comment: text("pickup_comment").notNull().default(""),
    delivery_comment: text("delivery_comment").notNull().default(""),
    delivery_to_client: flag("delivery_to_client"),
    pickup_from_client: flag("pickup_from_client"),
    has_express_item: flag("has_express_item"),
    state: text("state").notNull().default("CREATED"),
    total: cents("total"),
    total_paid: cents("total_paid"),
    delivery_charge: cents("delivery_charge"),
    pickup_charge: cents("pickup_charge"),
    delivery_address_id: integer("delivery_address_id").references(() => addresses.id),
    pickup_address_id: integer("pickup_address_id").references(() => addresses.id),
    confirmed_at: text("confirmed_at"),
    discount: text("discount").notNull().default("PERCENTAGE 0"),
    created_at: createdAt(),
  },
  (t) => [
    index("tickets_customer_idx").on(t.customer_id, t.id),
    index("tickets_agent_state_idx").on(t.agent_id, t.state, t.id),
    // A shop's ticket list, newest first, without sorting all its tickets.
    index("tickets_agent_idx").on(t.agent_id, t.id),
    index("tickets_delivery_idx").on(t.delivery_date),
    index("tickets_pickup_idx").on(t.pickup_date),
    // Confirmed tickets only: every query on it bounds confirmed_at, and a new ticket (unconfirmed)
    // then writes no page of it (issue 33, migration 0016).
    index("tickets_confirmed_idx").on(t.confirmed_at).where(sql`confirmed_at IS NOT NULL`),
    // The scheduler's booked stops by day (issue 12): only confirmed pickups and deliveries,
    // with what the count joins on, so a week reads a few hundred index entries.
    index("tickets_pickup_stop_idx").on(t.pickup_date, t.customer_id, t.pickup_address_id).where(sql`pickup_from_client = 1 AND confirmed_at IS NOT NULL`),
    index("tickets_delivery_stop_idx")
      .on(t.delivery_date, t.customer_id, t.delivery_address_id)
      .where(sql`delivery_to_client = 1 AND confirmed_at IS NOT NULL`),
  ],
);

/** One garment line of a ticket (spec: TicketSubCategory). */
export const ticketSubCategories = sqliteTable(
  "ticket_sub_categories",
  {
    id: id(),
    ticket_id: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    garment_sub_category_id: integer("garment_sub_category_id")
      .notNull()
      .references(() => garmentSubCategories.id),
    description: text("description").notNull().default(""),
    discount: text("discount").notNull().default("PERCENTAGE 0"),
    quantity: integer("quantity").notNull().default(1),
    state: text("state").notNull().default("CREATED"),
    comments: text("comments").notNull().default(""),
    location: text("location").notNull().default(""),
    pieces: text("pieces").notNull().default(""),
    /** Comma-separated pieces already sorted. */
    sorted_items: text("sorted_items").notNull().default(""),
    sorted: flag("sorted"),
    has_express: flag("has_express"),
    detail: text("detail"),
    total: cents("total"),
    pre_discount_total: cents("pre_discount_total"),
    /** Replaces total when present. */
    total_override: integer("total_override"),
    total_paid: cents("total_paid"),
    process_date: text("process_date"),
    created_at: createdAt(),
  },
  (t) => [
    index("tsc_ticket_idx").on(t.ticket_id),
    index("tsc_state_idx").on(t.state),
    // Express items only (a few in a hundred): an ordinary item added at the counter writes no
    // page of it. Queries must say `has_express = 1` literally for SQLite to use it (migration 0016).
    index("tsc_express_idx").on(t.state).where(sql`has_express = 1`),
    // The plant's load by process date (workload statistics, the date proposal). Only dated items:
    // an item gets its date after the counter, so adding one writes no page of it (migration 0016).
    index("tsc_process_idx").on(t.process_date, t.quantity).where(sql`process_date IS NOT NULL`),
  ],
);

export const ticketSubCategoryActions = sqliteTable(
  "ticket_sub_category_actions",
  {
    id: id(),
    ticket_sub_category_id: integer("ticket_sub_category_id")
      .notNull()
      .references(() => ticketSubCategories.id, { onDelete: "cascade" }),
    action_id: integer("action_id")
      .notNull()
      .references(() => actions.id),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull().default(1),
    price: cents("price"),
    /** JSON array of image ids. */
    images: text("images").notNull().default("[]"),
  },
  (t) => [
    index("tsca_item_idx").on(t.ticket_sub_category_id),
    // Only the few lines with photos: the upload sweep reads their image ids without
    // scanning two million action lines on the event loop.
    index("tsca_photos_idx").on(t.id).where(sql`images <> '[]'`),
  ],
);

export const ticketSubCategoryModifiers = sqliteTable(
  "ticket_sub_category_modifiers",
  {
    id: id(),
    ticket_sub_category_id: integer("ticket_sub_category_id")
      .notNull()
      .references(() => ticketSubCategories.id, { onDelete: "cascade" }),
    modifier_id: integer("modifier_id")
      .notNull()
      .references(() => modifiers.id),
    modifier_type: text("modifier_type").notNull(),
  },
  (t) => [index("tscm_item_idx").on(t.ticket_sub_category_id)],
);

export const itemLogStates = sqliteTable(
  "item_log_states",
  {
    id: id(),
    ticket_sub_category_id: integer("ticket_sub_category_id")
      .notNull()
      .references(() => ticketSubCategories.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
    logged_at: text("logged_at").notNull(),
    log: text("log").notNull().default(""),
    employee_id: integer("employee_id").references(() => employees.id),
    signature_id: integer("signature_id").references(() => signatures.id),
  },
  (t) => [index("ils_item_idx").on(t.ticket_sub_category_id), index("ils_logged_idx").on(t.logged_at)],
);

export const ticketLogStates = sqliteTable(
  "ticket_log_states",
  {
    id: id(),
    ticket_id: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    state: text("state").notNull(),
    logged_at: text("logged_at").notNull(),
    log: text("log").notNull().default(""),
    employee_id: integer("employee_id").references(() => employees.id),
    agent_id: integer("agent_id").references(() => agents.id),
    signature_id: integer("signature_id").references(() => signatures.id),
  },
  (t) => [index("tls_ticket_idx").on(t.ticket_id), index("tls_logged_idx").on(t.logged_at)],
);

export const employeeOwings = sqliteTable(
  "employee_owings",
  {
    id: id(),
    ticket_id: integer("ticket_id")
      .notNull()
      .references(() => tickets.id),
    employee_id: integer("employee_id")
      .notNull()
      .references(() => employees.id),
    ticket_sub_category_id: integer("ticket_sub_category_id").references(() => ticketSubCategories.id),
    amount: cents("amount"),
    /** Whole percent; the amount received is amount × percentage / 100. */
    percentage: integer("percentage").notNull().default(100),
    payment_date: text("payment_date"),
    state: text("state").notNull().default("OPEN"),
    paid_in_full: flag("paid_in_full"),
    employee_payment_date: text("employee_payment_date"),
  },
  (t) => [index("owings_employee_idx").on(t.employee_id, t.state)],
);
