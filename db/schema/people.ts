import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cents, createdAt, flag, id } from "./_common";
import { addresses } from "./places";

export const agents = sqliteTable("agents", {
  id: id(),
  name: text("name").notNull(),
  type: text("type").notNull().default("SHOP"),
  user_name: text("user_name").notNull().unique(),
  /** argon2id hash (Bun.password); null until a password is set. */
  password_hash: text("password_hash"),
  landline: text("landline").notNull().default(""),
  mobile: text("mobile").notNull().default(""),
  address_id: integer("address_id").references(() => addresses.id),
  /** Whole percent. */
  commission: integer("commission").notNull().default(0),
  contact_person: text("contact_person").notNull().default(""),
  email_address: text("email_address").notNull().default(""),
  queens: flag("queens"),
  detail: text("detail"),
  can_see_action: text("can_see_action"),
  /** The head-quarters agent sees every agent's records (see README, agent scoping). */
  is_hq: flag("is_hq"),
  enabled: flag("enabled", true),
  /** Set when an agent with history is deleted (issue 22): hidden from lists, no login; restorable. */
  archived_at: text("archived_at"),
  created_at: createdAt(),
});

export const employees = sqliteTable(
  "employees",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    full_name: text("full_name").notNull(),
    mobile: text("mobile").notNull().default(""),
    landline: text("landline").notNull().default(""),
    role: text("role", { enum: ["admin", "manager", "employee", "driver"] }).notNull(),
    /** HMAC-SHA256(box secret, agent_id:pin): PINs are never stored in plain text. */
    pin_hash: text("pin_hash").notNull(),
    /**
     * Set on PINs stored before PINs became 4-8 digit strings: their hash is of the number
     * (leading zeros lost). Login also tries that form and re-hashes the typed string.
     */
    pin_legacy: flag("pin_legacy"),
    accumulated: cents("accumulated"),
    pending: cents("pending"),
    enable_login: flag("enable_login", true),
    hq: flag("hq"),
    /** Comma-separated locality ids (spec §3). */
    localities: text("localities").notNull().default(""),
    /**
     * Set when an employee with history is deleted (issue 22): hidden from lists and pickers,
     * sessions ended, PIN hash replaced so the PIN is free; the row stays so history keeps its names.
     */
    archived_at: text("archived_at"),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex("employees_agent_pin_uq").on(t.agent_id, t.pin_hash), index("employees_agent_idx").on(t.agent_id)],
);

export const preferences = sqliteTable("preferences", {
  id: id(),
  name: text("name").notNull().unique(),
});

export const customers = sqliteTable(
  "customers",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    title: text("title").notNull().default(""),
    full_name: text("full_name").notNull(),
    first_name: text("first_name").notNull().default(""),
    last_name: text("last_name").notNull().default(""),
    address_id: integer("address_id").references(() => addresses.id),
    mobile: text("mobile").notNull().default(""),
    landline: text("landline").notNull().default(""),
    email_address: text("email_address").notNull().default(""),
    date_of_birth: text("date_of_birth"),
    id_card: text("id_card").notNull().default(""),
    /** Whole percent 0..100. */
    discount: integer("discount").notNull().default(0),
    occupation: text("occupation").notNull().default(""),
    comments: text("comments").notNull().default(""),
    /** The customer asked for no messages: bulk sends skip them (issue 14). */
    no_messages: flag("no_messages"),
    created_at: createdAt(),
  },
  (t) => [
    index("customers_agent_idx").on(t.agent_id),
    index("customers_mobile_idx").on(t.mobile),
    index("customers_landline_idx").on(t.landline),
    index("customers_email_idx").on(t.email_address),
    index("customers_id_card_idx").on(t.id_card),
  ],
);

export const customerPreferences = sqliteTable(
  "customer_preferences",
  {
    customer_id: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    preference_id: integer("preference_id")
      .notNull()
      .references(() => preferences.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.customer_id, t.preference_id] })],
);

/**
 * Per-customer figures shown on every customer screen, kept in step with tickets by
 * triggers (migration 0003), so ranks are an index count rather than a scan of all tickets.
 */
export const customerStats = sqliteTable(
  "customer_stats",
  {
    customer_id: integer("customer_id")
      .primaryKey()
      .references(() => customers.id, { onDelete: "cascade" }),
    number_of_visits: integer("number_of_visits").notNull().default(0),
    total_spent: integer("total_spent").notNull().default(0),
    ticket_total: integer("ticket_total").notNull().default(0),
    outstanding_balance: integer("outstanding_balance").notNull().default(0),
    last_visit: text("last_visit"),
  },
  (t) => [index("customer_stats_spent_idx").on(t.total_spent), index("customer_stats_visits_idx").on(t.number_of_visits)],
);
