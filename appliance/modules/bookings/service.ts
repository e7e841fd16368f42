// Issue 35: the shop's online bookings, listed and settled. A booking is its shop's (HQ sees
// every shop's); settling changes the booking's ticket through the tickets service, so the
// scheduler and the driver's run follow.
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { shopBookings } from "../../../db/schema";
import { displayDate } from "../../domain/format";
import type { Clock } from "../../platform/clock";
import { conflict, notFound } from "../../platform/errors";
import { audit } from "../audit/audit";
import { agentScope, assertSameAgent, type EmployeeCaller } from "../auth/caller";
import type { CustomerReads } from "../customers/reads";
import type { MessagingService } from "../messaging/service";
import type { SchedulingService } from "../scheduling/service";
import type { TicketService } from "../tickets/service";
import type { SettleBody, ShopBooking } from "./model";

type Row = typeof shopBookings.$inferSelect;

export function createBookingService({
  db,
  clock,
  customers,
  tickets,
  scheduling,
  messaging,
}: {
  db: Db;
  clock: Clock;
  customers: Pick<CustomerReads, "contact">;
  tickets: Pick<TicketService, "setOptions">;
  scheduling: Pick<SchedulingService, "availability">;
  messaging: Pick<MessagingService, "queueTicketText">;
}) {
  /**
   * The customer hears of it by SMS, with the ticket's status link, in the settle's write (no
   * message without the change). Made of dates and numbers only: the staff's reason stays with
   * the shop (it may say more than the customer should read), so no typed text reaches the SMS.
   */
  const tell = (tx: Parameters<Parameters<Db["transaction"]>[0]>[0], b: Row, text: string) =>
    messaging.queueTicketText(tx, { agent_id: b.agent_id, customer_id: b.customer_id!, ticket_id: b.ticket_id!, mobile: b.phone, text });

  async function out(r: Row): Promise<ShopBooking> {
    const c = r.customer_id ? await customers.contact(r.customer_id) : undefined;
    return {
      id: r.id,
      uid: r.uid,
      agent_id: r.agent_id,
      status: r.status,
      booked_day: r.booked_day,
      day: r.day,
      customer_id: r.customer_id,
      customer_name: c?.full_name ?? null,
      phone: r.phone,
      address: `${r.number} ${r.street}`.trim(),
      note: r.note,
      ticket_id: r.ticket_id,
      reason: r.reason,
      received_at: r.received_at,
      applied_at: r.applied_at,
    };
  }

  async function load(caller: EmployeeCaller, id: number): Promise<Row> {
    const [r] = await db.select().from(shopBookings).where(eq(shopBookings.id, id));
    if (!r) throw notFound("Booking");
    assertSameAgent(caller, r.agent_id, "Booking");
    return r;
  }

  return {
    /** GET /bookings/: the caller's shop's bookings, newest first (HQ: every shop's). */
    async list(caller: EmployeeCaller, limit: number): Promise<ShopBooking[]> {
      const scope = agentScope(caller);
      const rows = await db
        .select()
        .from(shopBookings)
        .where(scope ? inArray(shopBookings.agent_id, scope) : undefined)
        .orderBy(desc(shopBookings.id))
        .limit(limit);
      return Promise.all(rows.map(out));
    },

    /** PUT /bookings/{id}: cancelled (the pickup leaves the run) or moved to another day with room. */
    async settle(caller: EmployeeCaller, id: number, body: SettleBody): Promise<ShopBooking> {
      const b = await load(caller, id);
      if (b.status === "cancelled") throw conflict("This booking is cancelled already");
      if (!b.ticket_id) throw conflict("This booking is not applied yet: settle it once it is on a ticket");
      const approval = { client: "booking" };
      if ("status" in body) {
        await tickets.setOptions(caller, b.ticket_id, { pickup_from_client: false }, approval);
        await db.transaction(async (tx) => {
          await tx.update(shopBookings).set({ status: "cancelled", reason: body.reason }).where(eq(shopBookings.id, id));
          await audit(tx, clock.now(), caller, "cancel", "booking", id, { reason: body.reason, ticket_id: b.ticket_id });
          await tell(tx, b, `Your pickup of ${displayDate(b.day)} is cancelled by the shop (ticket ${b.ticket_id}). Call the shop to book another day.`);
        });
      } else {
        if (body.day !== b.day) {
          const { days } = await scheduling.availability({ locality: b.locality_id, from: body.day, days: 14 });
          if (!(days[0]?.left ?? 0)) {
            const next = days.find((d) => d.left > 0);
            throw conflict(`${displayDate(body.day)} has no room in this locality${next ? `: the next day with room is ${displayDate(next.date)}` : ""}`);
          }
        }
        await tickets.setOptions(caller, b.ticket_id, { pickup_date: body.day }, approval);
        await db.transaction(async (tx) => {
          await tx
            .update(shopBookings)
            .set({ day: body.day, status: body.day === b.booked_day ? "applied" : "moved" })
            .where(and(eq(shopBookings.id, id)));
          await audit(tx, clock.now(), caller, "move", "booking", id, { from: b.day, to: body.day, ticket_id: b.ticket_id });
          if (body.day !== b.day)
            await tell(tx, b, `Your pickup of ${displayDate(b.day)} is moved by the shop to ${displayDate(body.day)} (ticket ${b.ticket_id}).`);
        });
      }
      return out((await db.select().from(shopBookings).where(eq(shopBookings.id, id)))[0]!);
    },
  };
}
export type BookingService = ReturnType<typeof createBookingService>;
