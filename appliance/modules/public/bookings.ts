// Issue 35: pickups booked online, on the vans' real capacity. The days offered are the
// counter's own (scheduling's availability: season, weekday, locality, stops booked) less the
// online bookings not yet applied at the shop, so the web never promises a day the counter
// would not. A booking is a row with a uid, so the shop box it goes down to applies it once.
import { and, count, eq, gte, inArray, lte } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { publicBookings } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { displayDate } from "../../domain/format";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, unprocessable } from "../../platform/errors";
import { unknownLocalityIds } from "../places/reads";
import type { SchedulingService } from "../scheduling/service";
import type { BookingInput } from "./model";
import { CODE_REFUSED, type Otps } from "./otp";

/** Online pickups are offered from tomorrow for this many days. */
export const BOOKING_DAYS = 14;

/** Text from the web reaches run sheets, labels and SMS: one line, no control characters. */
const line = (s: string) => s.replace(/[\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g, " ").trim();

type Room = { day: string; shown: string; left: number };

export function createBookings({
  db,
  clock,
  scheduling,
  otps,
  agentOfPhone,
}: {
  db: Db;
  clock: Clock;
  scheduling: Pick<SchedulingService, "availability">;
  otps: Otps;
  /** The shop of the customer with this mobile (the booking goes down to it), or null. */
  agentOfPhone: (dial: string) => Promise<number | null>;
}) {
  /** Online bookings not yet applied at the shop, per day, in a locality. */
  async function pending(locality: number, from: string, to: string): Promise<Map<string, number>> {
    const rows = await db
      .select({ day: publicBookings.day, n: count() })
      .from(publicBookings)
      .where(and(eq(publicBookings.locality_id, locality), eq(publicBookings.status, "received"), gte(publicBookings.day, from), lte(publicBookings.day, to)))
      .groupBy(publicBookings.day);
    return new Map(rows.map((r) => [r.day, r.n]));
  }

  /** Every offered day with its room (full days included, left 0); [] for a locality nobody knows. */
  async function room(locality: number): Promise<Room[]> {
    const from = addDays(businessDay(clock.now()), 1);
    let days: { date: string; left: number }[];
    try {
      ({ days } = await scheduling.availability({ locality, from, days: BOOKING_DAYS }));
    } catch (e) {
      // Localities are public: an unknown one has no days, in the same shape.
      if (e instanceof AppError && e.kind === "not_found") return [];
      throw e;
    }
    const online = await pending(locality, from, addDays(from, BOOKING_DAYS - 1));
    return days.map((d) => ({ day: d.date, shown: displayDate(d.date), left: Math.max(0, d.left - (online.get(d.date) ?? 0)) }));
  }

  return {
    /** GET /pickupDays: the days with room for one more pickup in the locality, soonest first. */
    async pickupDays(locality: number) {
      return { locality_id: locality, days: (await room(locality)).filter((d) => d.left > 0) };
    },

    /** POST /bookings: the code checked, the day's room checked, the booking stored (status received). */
    async book(b: BookingInput) {
      if ((await unknownLocalityIds(db, [b.locality])).length) throw unprocessable("locality: no such locality");
      const offered = await room(b.locality);
      const chosen = offered.find((d) => d.day === b.day);
      if (!chosen)
        throw unprocessable(`day: choose a day from ${offered[0]?.shown ?? "tomorrow"} to ${displayDate(addDays(businessDay(clock.now()), BOOKING_DAYS))}`);
      // The code first: a wrong one is counted whatever the day.
      const { dial, otpId } = await otps.check(b.phone, b.code);
      const full = () => {
        const n = offered.find((d) => d.day > b.day && d.left > 0);
        return conflict(
          n
            ? `That day has no room any more: the next day with room is ${n.shown} (${n.day})`
            : "That day has no room any more, nor any of the next two weeks: call the shop",
        );
      };
      if (chosen.left <= 0) throw full();
      const agent = await agentOfPhone(dial);
      const uid = crypto.randomUUID();
      const at = clock.now().toISOString();
      // The room is counted again inside the write (BEGIN IMMEDIATE; this process's writes take
      // one lock in db/client.ts), so two requests for the last room cannot both pass the check
      // above and both insert: the second sees the first's committed row and gets the 409.
      // The reads go through the pool's other connections: in WAL they see every commit made
      // before this transaction took the lock.
      await db.transaction(
        async (tx) => {
          const now = (await room(b.locality)).find((d) => d.day === b.day);
          if (!now || now.left <= 0) throw full();
          if (!(await otps.use(tx, otpId))) throw unprocessable(CODE_REFUSED);
          await tx.insert(publicBookings).values({
            uid,
            phone: dial,
            locality_id: b.locality,
            street: line(b.street),
            number: line(b.number),
            day: b.day,
            note: line(b.note),
            agent_id: agent,
            status: "received",
            created_at: at,
          });
        },
        { behavior: "immediate" },
      );
      return { id: uid, day: b.day, shown: displayDate(b.day), status: "received" as const };
    },
  };
}

/** Issue 35, the downlink's read: bookings not yet applied at a shop, oldest first. */
export function receivedBookings(db: Db) {
  return db.select().from(publicBookings).where(eq(publicBookings.status, "received")).orderBy(publicBookings.id);
}

/** Issue 35: HQ saw these bookings applied in the shops' copies; they stop counting against the days' room. */
export async function markBookingsApplied(db: Db, uids: string[], at: string): Promise<number> {
  if (!uids.length) return 0;
  const done = await db
    .update(publicBookings)
    .set({ status: "applied", applied_at: at })
    .where(and(inArray(publicBookings.uid, uids), eq(publicBookings.status, "received")))
    .returning({ id: publicBookings.id });
  return done.length;
}
