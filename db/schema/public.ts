import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id } from "./_common";
import { localities } from "./places";
import { agents } from "./people";
import { tickets } from "./tickets";

/**
 * Issue 35, the public face: a ticket's status links. Only the SHA-256 of a token is kept, so a
 * copy of the database (HQ's site copies, a backup) holds no live link. A message mints a link
 * of its own (the plain token lives only in that message); revoking ends all of a ticket's.
 */
export const statusLinks = sqliteTable(
  "status_links",
  {
    id: id(),
    /** Hex SHA-256 of the token (the token itself is never stored). */
    token_hash: text("token_hash").notNull().unique(),
    ticket_id: integer("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    created_at: createdAt(),
    /** Set by a manager's revoke (every link of the ticket at once). */
    revoked_at: text("revoked_at"),
  },
  (t) => [index("status_links_ticket_idx").on(t.ticket_id)],
);

/** A one-time code sent to a phone before an online booking: hashed, 10 minutes, five tries. */
export const publicOtps = sqliteTable(
  "public_otps",
  {
    id: id(),
    /** The phone as dialled (digits with an optional leading +). */
    phone: text("phone").notNull(),
    /** Hex SHA-256 of the code salted with the row's salt. */
    code_hash: text("code_hash").notNull(),
    salt: text("salt").notNull(),
    created_at: createdAt(),
    expires_at: text("expires_at").notNull(),
    /** Wrong tries so far; at five the code is burnt (refused even when right). */
    tries: integer("tries").notNull().default(0),
    used_at: text("used_at"),
  },
  (t) => [index("public_otps_phone_idx").on(t.phone, t.id)],
);

/**
 * A pickup booked online. `uid` names it for exactly-once application on the shop box it goes
 * down to (another session): the shop records the uids it applied; `status` moves
 * received -> applied (or refused) as the shop answers.
 */
export const publicBookings = sqliteTable(
  "public_bookings",
  {
    id: id(),
    uid: text("uid").notNull().unique(),
    phone: text("phone").notNull(),
    locality_id: integer("locality_id")
      .notNull()
      .references(() => localities.id),
    street: text("street").notNull(),
    number: text("number").notNull(),
    /** The pickup day, YYYY-MM-DD in the shop's time zone. */
    day: text("day").notNull(),
    note: text("note").notNull().default(""),
    /** The shop of the customer the code went to (the phone's customer), when known. */
    agent_id: integer("agent_id").references(() => agents.id),
    status: text("status", { enum: ["received", "applied", "refused"] })
      .notNull()
      .default("received"),
    created_at: createdAt(),
    applied_at: text("applied_at"),
  },
  (t) => [index("public_bookings_day_idx").on(t.day, t.locality_id, t.status)],
);
