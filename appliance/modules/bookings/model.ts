// Issue 35: the shop's bookings screen's contract. Days are YYYY-MM-DD (the screen shows DD/MM/YYYY).
import { z } from "zod";
import { IsoDate, text } from "../../domain/schemas";

export const BOOKING_STATUSES = ["received", "applied", "moved", "cancelled"] as const;

export const ShopBooking = z.object({
  id: z.number().int(),
  uid: z.string(),
  agent_id: z.number().int(),
  status: z
    .enum(BOOKING_STATUSES)
    .describe("received: not applied yet; applied: on its day; moved: on a later day than booked; cancelled: settled by the shop"),
  booked_day: z.string().describe("The day the customer chose"),
  day: z.string().describe("The day of the pickup now"),
  customer_id: z.number().int().nullable(),
  customer_name: z.string().nullable(),
  phone: z.string(),
  address: z.string(),
  note: z.string(),
  ticket_id: z.number().int().nullable(),
  reason: z.string(),
  received_at: z.string(),
  applied_at: z.string().nullable(),
});
export type ShopBooking = z.infer<typeof ShopBooking>;

export const BookingListQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });

/** PUT /bookings/{id}: cancel it (the stop leaves the run), or move it to another day with room. */
export const SettleBody = z.union([z.object({ status: z.literal("cancelled"), reason: text(200).min(1) }).strict(), z.object({ day: IsoDate }).strict()]);
export type SettleBody = z.infer<typeof SettleBody>;

export const DownlinkQuery = z.object({
  site: z.string().regex(/^[a-z0-9-]{1,63}$/, "a site name"),
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
});
export const DownlinkRow = z.object({ id: z.number().int(), envelope: z.unknown() });

// Deposit transfers between boxes (issue 34), HQ's routes: the UI imports their types from here.
export * from "./transferModel";
