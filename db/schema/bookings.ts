import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { tickets } from "./tickets";
import { localities } from "./places";
import { agents, customers } from "./people";

/**
 * Issue 35, second part: HQ's signed instructions to one shop box (an online booking today;
 * the deposit transfers later). HQ keeps each envelope it issued, in the order it issued them
 * (`id` is the shop's cursor); `body` is the signed envelope exactly as served.
 */
export const downlinks = sqliteTable(
  "downlinks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: text("uid").notNull().unique(),
    kind: text("kind").notNull(),
    /** The site name of the shop box it is addressed to (IRONBOX_SITE_NAME). */
    site: text("site").notNull(),
    body: text("body").notNull(),
    issued_at: text("issued_at").notNull(),
  },
  (t) => [index("downlinks_site_idx").on(t.site, t.id)],
);

/**
 * The shop's side: each online booking it received from HQ, once (`uid` unique). A replayed
 * envelope finds its row and changes nothing. `booked_day` is what the customer chose, `day`
 * where the pickup is now (moved when the counter filled the booked day meanwhile).
 */
export const shopBookings = sqliteTable(
  "shop_bookings",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    uid: text("uid").notNull().unique(),
    agent_id: integer("agent_id")
      .notNull()
      .references(() => agents.id),
    phone: text("phone").notNull(),
    locality_id: integer("locality_id")
      .notNull()
      .references(() => localities.id),
    street: text("street").notNull(),
    number: text("number").notNull(),
    note: text("note").notNull().default(""),
    booked_day: text("booked_day").notNull(),
    day: text("day").notNull(),
    status: text("status", { enum: ["received", "applied", "moved", "cancelled"] })
      .notNull()
      .default("received"),
    customer_id: integer("customer_id").references(() => customers.id),
    ticket_id: integer("ticket_id").references(() => tickets.id),
    reason: text("reason").notNull().default(""),
    issued_at: text("issued_at").notNull(),
    received_at: text("received_at").notNull(),
    applied_at: text("applied_at"),
  },
  (t) => [index("shop_bookings_agent_idx").on(t.agent_id, t.id)],
);
