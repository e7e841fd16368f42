import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id } from "./_common";
import { agents, employees } from "./people";
import { ticketStates } from "./tickets";

/** Per-box settings (the token secret, the first-run flag). */
export const boxSettings = sqliteTable("box_settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** Every issued token, so logout and disabling a user revoke it at once. */
export const sessions = sqliteTable(
  "sessions",
  {
    jti: text("jti").primaryKey(),
    kind: text("kind", { enum: ["agent", "employee"] }).notNull(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    employee_id: integer("employee_id").references(() => employees.id),
    /** The agent session an employee session was opened in. */
    parent_jti: text("parent_jti"),
    issued_at: text("issued_at").notNull(),
    expires_at: text("expires_at").notNull(),
    revoked_at: text("revoked_at"),
    /** Last authenticated request: an employee session idle longer than its role allows ends (spec §6). */
    last_seen_at: text("last_seen_at"),
  },
  (t) => [index("sessions_agent_idx").on(t.agent_id), index("sessions_employee_idx").on(t.employee_id)],
);

/** Failed logins, for the brute-force limits of QUALITY.md. */
export const authFailures = sqliteTable(
  "auth_failures",
  {
    id: id(),
    kind: text("kind", { enum: ["password", "pin", "token"] }).notNull(),
    /** Agent id the attempt was made against (or 0 for an unknown user name). */
    agent_id: integer("agent_id").notNull(),
    /** Who tried: the client address for passwords and enrolment tokens, the tablet's agent session for PINs. */
    client: text("client").notNull().default(""),
    at: text("at").notNull(),
    /** Set when a manager/admin lifts the lock; failures before it no longer count. */
    cleared_at: text("cleared_at"),
  },
  (t) => [index("auth_failures_idx").on(t.kind, t.agent_id, t.at)],
);

export const idempotencyKeys = sqliteTable("idempotency_keys", {
  key: text("key").primaryKey(),
  /** method + path + caller + a hash of query and body (http/idempotency), so a key cannot replay another caller's result, nor another request's. */
  scope: text("scope").notNull(),
  status: integer("status").notNull(),
  body: text("body").notNull(),
  created_at: createdAt(),
});

export const printJobs = sqliteTable(
  "print_jobs",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    employee_id: integer("employee_id").references(() => employees.id),
    kind: text("kind").notNull(),
    printer: text("printer").notNull(),
    encoding: text("encoding").notNull(),
    ticket_id: integer("ticket_id"),
    ticket_sub_category_id: integer("ticket_sub_category_id"),
    payload: text("payload").notNull().default(""),
    status: text("status", { enum: ["queued", "sending", "done", "failed"] })
      .notNull()
      .default("queued"),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    created_at: createdAt(),
    finished_at: text("finished_at"),
  },
  (t) => [index("print_jobs_status_idx").on(t.status, t.id)],
);

/**
 * The outbox (issue 14): every message to every recipient is a row, written in the same
 * transaction as the request that asks for it; the sender claims rows (queued -> sending) and
 * records what the channel said. `key` is handed to the channel on every attempt, so a
 * gateway that takes a message id can refuse a second copy and be asked after a crash.
 */
export const outgoingMessages = sqliteTable(
  "outgoing_messages",
  {
    id: id(),
    key: text("key").notNull().unique(),
    /** A bulk send (message_batches); null for a ticket's status message. */
    batch_id: integer("batch_id").references(() => messageBatches.id),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    /** Who asked. */
    employee_id: integer("employee_id").references(() => employees.id),
    customer_id: integer("customer_id"),
    ticket_id: integer("ticket_id"),
    channel: text("channel", { enum: ["sms", "email"] }).notNull(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull().default(""),
    text: text("text").notNull(),
    /** E-mail: what to attach, named by the module that makes it when the row is sent (e.g. "invoice:12"; issue 34). */
    attachment: text("attachment"),
    /** unknown: sent to a channel that cannot be asked, and the box stopped before the answer was recorded (a person decides). */
    status: text("status", { enum: ["queued", "sending", "sent", "failed", "unknown"] })
      .notNull()
      .default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** A queued row is not tried before this (back-off after a transient failure). */
    next_attempt_at: text("next_attempt_at"),
    /** When the sender claimed the row (status sending). */
    claimed_at: text("claimed_at"),
    last_error: text("last_error"),
    /** The channel's own id of the message (the Android gateway's message id). */
    gateway_id: text("gateway_id"),
    created_at: createdAt(),
    sent_at: text("sent_at"),
    updated_at: text("updated_at").notNull(),
  },
  (t) => [
    index("outgoing_messages_sender_idx").on(t.status, t.next_attempt_at),
    index("outgoing_messages_customer_idx").on(t.customer_id, t.id),
    index("outgoing_messages_ticket_idx").on(t.ticket_id, t.id),
    index("outgoing_messages_batch_idx").on(t.batch_id, t.status),
    index("outgoing_messages_employee_idx").on(t.employee_id),
  ],
);

/** A bulk send: who asked, what, and who was skipped and why (its rows are counted by batch_id). */
export const messageBatches = sqliteTable("message_batches", {
  id: id(),
  agent_id: integer("agent_id")
    .notNull()
    .references(() => agents.id),
  employee_id: integer("employee_id").references(() => employees.id),
  text: text("text").notNull(),
  all_customers: flag("all_customers"),
  queued: integer("queued").notNull().default(0),
  skipped_no_messages: integer("skipped_no_messages").notNull().default(0),
  skipped_no_address: integer("skipped_no_address").notNull().default(0),
  created_at: createdAt(),
});

/** A ticket state's status message as an admin wrote it (states without a row use the default text). */
export const messageTemplates = sqliteTable("message_templates", {
  state_id: integer("state_id")
    .primaryKey()
    .references(() => ticketStates.id, { onDelete: "cascade" }),
  text: text("text").notNull(),
  /** Sent by itself when a ticket reaches this state (issue 25), once per ticket and state. */
  auto_send: flag("auto_send"),
  updated_at: text("updated_at").notNull(),
  updated_by: integer("updated_by").references(() => employees.id),
});

/**
 * What became of each automatic status message (issue 25): one row per ticket and state, so a
 * state reached twice, a restart or two followers of the state log never send it twice; a
 * customer who asked for no messages, or has no address, is recorded as skipped.
 */
export const autoMessages = sqliteTable(
  "auto_messages",
  {
    id: id(),
    ticket_id: integer("ticket_id").notNull(),
    state: text("state").notNull(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    outcome: text("outcome", { enum: ["queued", "skipped_no_messages", "skipped_no_address", "skipped_no_channel", "skipped_cannot_render"] }).notNull(),
    outgoing_message_id: integer("outgoing_message_id").references(() => outgoingMessages.id),
    /** The state log row that reached the state. */
    state_log_id: integer("state_log_id").notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex("auto_messages_ticket_state_uq").on(t.ticket_id, t.state)],
);

/** Append-only: triggers in the migration refuse UPDATE and DELETE. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: id(),
    at: text("at").notNull(),
    agent_id: integer("agent_id"),
    employee_id: integer("employee_id"),
    action: text("action").notNull(),
    entity: text("entity").notNull(),
    entity_id: integer("entity_id"),
    detail: text("detail").notNull().default("{}"),
  },
  (t) => [index("audit_entity_idx").on(t.entity, t.entity_id)],
);

export const images = sqliteTable(
  "images",
  {
    id: id(),
    /** File name inside <data dir>/images. */
    file: text("file").notNull().unique(),
    mime: text("mime").notNull(),
    size: integer("size").notNull(),
    uploaded_by: integer("uploaded_by"),
    /** The shop that uploaded it: only that agent (and HQ) may attach it or see its URL. */
    agent_id: integer("agent_id").references(() => agents.id),
    created_at: createdAt(),
  },
  (t) => [index("images_agent_idx").on(t.agent_id)],
);

/**
 * A pickup reminder (issue 35): one per ticket and pickup day, sent the day before with "Reply
 * YES to confirm or SKIP". A reply is matched to the customer's latest open one (answered_at
 * null). `outcome` says what the box decided: sent, or skipped for the back-off / consent /
 * no address; only a `sent` reminder can be answered.
 */
export const reminders = sqliteTable(
  "reminders",
  {
    id: id(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    ticket_id: integer("ticket_id").notNull(),
    customer_id: integer("customer_id").notNull(),
    /** The pickup day (YYYY-MM-DD, the shop's zone) this reminder is about. */
    pickup_date: text("pickup_date").notNull(),
    outcome: text("outcome", { enum: ["sent", "skipped_backoff", "skipped_no_messages", "skipped_no_address"] }).notNull(),
    outgoing_message_id: integer("outgoing_message_id").references(() => outgoingMessages.id),
    sent_at: text("sent_at").notNull(),
    answered_at: text("answered_at"),
    answer: text("answer", { enum: ["yes", "skip", "stop"] }),
    /** The inbound message that answered it. */
    inbound_message_id: integer("inbound_message_id"),
  },
  (t) => [
    uniqueIndex("reminders_ticket_day_uq").on(t.ticket_id, t.pickup_date),
    index("reminders_customer_idx").on(t.customer_id, t.id),
    index("reminders_day_idx").on(t.pickup_date),
  ],
);

/**
 * A text that reached the box (issue 35): from the Android gateway's webhook or read off the
 * modem. `source_id` is the gateway's event id (or the modem's sender+time+text digest): unique,
 * so a webhook delivered twice is applied once. What the box did with it is `action`; anything
 * it could not act on is in the inbox (`handled_at` null) until staff answer or dismiss it.
 */
export const inboundMessages = sqliteTable(
  "inbound_messages",
  {
    id: id(),
    source: text("source", { enum: ["gateway", "modem"] }).notNull(),
    source_id: text("source_id").notNull().unique(),
    /** The customer's shop when matched; null for an unknown number (only HQ sees those). */
    agent_id: integer("agent_id").references(() => agents.id),
    customer_id: integer("customer_id"),
    reminder_id: integer("reminder_id").references(() => reminders.id),
    phone: text("phone").notNull(),
    text: text("text").notNull(),
    received_at: text("received_at").notNull(),
    action: text("action", { enum: ["confirmed", "skipped", "stopped", "inbox"] }).notNull(),
    /** For the inbox: why it is there, in plain words. */
    note: text("note").notNull().default(""),
    handled_at: text("handled_at"),
    handled_by: integer("handled_by").references(() => employees.id),
    /** The answer staff sent from the inbox (an outbox row). */
    reply_message_id: integer("reply_message_id").references(() => outgoingMessages.id),
    created_at: createdAt(),
  },
  (t) => [index("inbound_messages_inbox_idx").on(t.agent_id, t.handled_at, t.id), index("inbound_messages_customer_idx").on(t.customer_id, t.id)],
);
