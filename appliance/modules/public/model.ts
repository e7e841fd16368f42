// Issue 35, the public face's shapes: what a customer's phone sends and is answered. The
// status answer carries nothing about the customer (no name, address, phone or history).
import { z } from "zod";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date YYYY-MM-DD");

/** A day of a stop: the API date and the same day as the shop writes it (DD/MM/YYYY). */
export const StopDay = z.object({ day, shown: z.string() });

export const PublicStatus = z.object({
  ticket: z.number().int(),
  /** The ticket's state in words ("ready for collection"). */
  state: z.string(),
  garments: z.array(z.object({ name: z.string(), quantity: z.number().int() })),
  /** The van's pickup from the client, when there is one; tickets carry no time window yet. */
  pickup: StopDay.nullable(),
  delivery: StopDay.nullable(),
  /** Euros still due (0 when paid). */
  balance: z.number(),
  shop: z.object({ name: z.string(), phone: z.string() }),
});
export type PublicStatus = z.infer<typeof PublicStatus>;

export const TokenParams = z.object({ token: z.string().max(200) });

export const PickupDaysQuery = z.object({
  locality: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31),
});
export const PickupDays = z.object({
  locality_id: z.number().int(),
  /** Days with room for one more pickup, soonest first (at most the next 14 days from tomorrow). */
  days: z.array(z.object({ day, shown: z.string(), left: z.number().int() })),
});

/** A mobile as people type it: digits, spaces, an optional leading +. */
const phone = z
  .string()
  .trim()
  .max(30)
  .regex(/^\+?[\d ]{6,24}$/, "a mobile number (digits, optionally starting with +)");

export const OtpBody = z.object({ phone }).strict();
export const OtpAnswer = z.object({ message: z.string() });

export const BookingBody = z
  .object({
    phone,
    code: z.string().regex(/^\d{6}$/, "the 6-digit code"),
    locality: z
      .number()
      .int()
      .positive()
      .max(2 ** 31),
    street: z.string().trim().min(1).max(120),
    number: z.string().trim().min(1).max(20),
    day,
    note: z.string().max(500).default(""),
  })
  .strict();
export type BookingInput = z.infer<typeof BookingBody>;
export const Booking = z.object({ id: z.string(), day, shown: z.string(), status: z.literal("received") });

export const RevokeParams = z.object({
  id: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31),
});
export const Revoked = z.object({ ticket_id: z.number().int(), revoked: z.number().int() });
