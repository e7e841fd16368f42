// Issue 35, the shop's side: an online booking HQ signed and sent down is applied here once.
// Exactly once is the uid: the first delivery inserts the shop_bookings row, every later one
// (a replayed envelope, HQ serving it again until its copy of this box shows it applied) finds
// the row and changes nothing. The steps go through the owning modules' services (customers,
// places, tickets), each in its own transaction, and each records its result on the row, so a
// step that failed (or a box that stopped midway) is resumed at the next delivery, never redone.
// The ticket records its id on the row inside its own transaction (tickets.create's `within`).
import type { KeyObject } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { shopBookings } from "../../../db/schema";
import { displayDate } from "../../domain/format";
import type { Clock } from "../../platform/clock";
import type { EmployeeCaller } from "../auth/caller";
import type { CustomerService } from "../customers/service";
import type { CustomerReads } from "../customers/reads";
import type { MessagingService } from "../messaging/service";
import type { PlaceService } from "../places/service";
import { phoneSpellings } from "../public/otp";
import type { SchedulingService } from "../scheduling/service";
import type { TicketService } from "../tickets/service";
import { EnvelopeRefused, openEnvelope } from "./envelope";

export const BOOKING_KIND = "booking";

/** What HQ puts in a booking's envelope (public_bookings' fields). */
export const BookingPayload = z.object({
  phone: z.string().max(30),
  locality_id: z.number().int().positive(),
  street: z.string().max(120),
  number: z.string().max(20),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  note: z.string().max(500),
});
export type BookingPayload = z.infer<typeof BookingPayload>;

/** How far past the booked day the shop looks for room when the counter filled it meanwhile. */
export const MOVE_HORIZON_DAYS = 60;
const SYSTEM = { client: "booking" };

export type ApplyDeps = {
  db: Db;
  clock: Clock;
  /** This box's site name (IRONBOX_SITE_NAME): the only address it accepts. */
  site: string;
  /** HQ's key (IRONBOX_HQ_PUBLIC_KEY), or null on a box that is not enrolled (nothing is accepted). */
  hqKey: KeyObject | null;
  customers: Pick<CustomerService, "create">;
  customerReads: Pick<CustomerReads, "byMobiles">;
  places: Pick<PlaceService, "listStreets" | "createStreet" | "createAddress">;
  tickets: Pick<TicketService, "create" | "confirmBookedPickupIn">;
  scheduling: Pick<SchedulingService, "availability">;
  messaging: Pick<MessagingService, "queueTicketText">;
  /**
   * Other kinds of instruction riding the same signed channel (the deposit transfers, issue 34),
   * by kind: each gets the opened envelope's payload and applies it once itself.
   */
  kinds?: Record<string, (payload: unknown) => Promise<{ outcome: "applied" | "replay" | "refused"; reason?: string }>>;
};

export type Applied = { uid: string; outcome: "applied" | "moved" | "replay" | "refused"; reason?: string };

export function createBookingApply(d: ApplyDeps) {
  const { db, clock } = d;

  /**
   * Whom the box acts as for a shop: its first admin, else its first manager (they act alone:
   * no PIN is asked of a booking). Raw SQL as the import's caller: no table objects of another module.
   */
  async function actingFor(agentId: number): Promise<EmployeeCaller> {
    const [e] = await db.all<{ id: number; full_name: string; role: "admin" | "manager"; hq: number; name: string; is_hq: number }>(
      sql`SELECT e.id, e.full_name, e.role, e.hq, a.name, a.is_hq FROM employees e JOIN agents a ON a.id = e.agent_id
          WHERE e.agent_id = ${agentId} AND e.role IN ('admin', 'manager') AND e.archived_at IS NULL
          ORDER BY e.role = 'admin' DESC, e.id LIMIT 1`,
    );
    if (!e) throw new Error(`shop ${agentId} has no admin or manager for the box to act as`);
    return {
      kind: "employee",
      jti: "booking",
      agent: { id: agentId, name: e.name, is_hq: Boolean(e.is_hq) },
      employee: { id: e.id, full_name: e.full_name, role: e.role, hq: Boolean(e.hq) },
    };
  }

  /** A new customer's shop on this box: the box's first shop (a shop box runs one). */
  async function firstShop(): Promise<number> {
    const [a] = await db.all<{ id: number }>(sql`SELECT id FROM agents WHERE is_hq = 0 AND enabled = 1 AND archived_at IS NULL ORDER BY id LIMIT 1`);
    if (!a) throw new Error("this box has no shop");
    return a.id;
  }

  /** The first day at or after `day` with room in the locality (the counter's own availability), or `day`. */
  async function dayWithRoom(locality: number, day: string): Promise<string> {
    const { days } = await d.scheduling.availability({ locality, from: day, days: MOVE_HORIZON_DAYS });
    return days.find((x) => x.left > 0)?.date ?? day;
  }

  async function streetId(caller: EmployeeCaller, locality: number, name: string): Promise<number> {
    const known = (await d.places.listStreets(locality)).find((s) => s.name.toLowerCase() === name.toLowerCase());
    return known ? known.id : (await d.places.createStreet(caller, locality, name)).id;
  }

  const row = async (uid: string) => (await db.select().from(shopBookings).where(eq(shopBookings.uid, uid)))[0];

  /** The steps not done yet, each recorded as it completes. */
  async function finish(uid: string): Promise<Applied> {
    let b = (await row(uid))!;
    if (b.status !== "received") return { uid, outcome: "replay" };
    const spellings = phoneSpellings(b.phone)?.spellings ?? [b.phone];
    let caller: EmployeeCaller;
    if (!b.customer_id) {
      const match = (await d.customerReads.byMobiles(spellings))[0];
      const agent = match?.agent_id ?? (await firstShop());
      caller = await actingFor(agent);
      const street = await streetId(caller, b.locality_id, b.street);
      const customer = match
        ? match.id
        : (
            await d.customers.create(
              caller,
              { full_name: `Online ${b.phone}`, mobile: b.phone, address: { locality_id: b.locality_id, street_id: street, number: b.number } },
              SYSTEM,
            )
          ).id;
      await db.update(shopBookings).set({ customer_id: customer, agent_id: agent }).where(eq(shopBookings.uid, uid));
      b = (await row(uid))!;
    } else caller = await actingFor(b.agent_id);

    if (!b.ticket_id) {
      // The shop's box is the authority on its vans: the counter may have filled the day since HQ offered it.
      const day = await dayWithRoom(b.locality_id, b.booked_day);
      const address = await d.places.createAddress(caller, {
        name: "",
        number: b.number,
        locality_id: b.locality_id,
        street_id: await streetId(caller, b.locality_id, b.street),
      });
      await d.tickets.create(
        caller,
        {
          customer_id: b.customer_id!,
          pickup_from_client: true,
          pickup_date: day,
          delivery_date: null,
          pickup_address_id: address.id,
          pickup_comment: b.note || undefined,
        },
        SYSTEM,
        // The ticket, its confirmation and its id on the booking commit together: a stop
        // anywhere before leaves no ticket, so the resume makes exactly one.
        async (tx, id) => {
          await d.tickets.confirmBookedPickupIn(tx, caller, id);
          await tx.update(shopBookings).set({ ticket_id: id, day }).where(eq(shopBookings.uid, uid));
        },
      );
      b = (await row(uid))!;
    }

    const moved = b.day !== b.booked_day;
    const text = moved
      ? `Your pickup of ${displayDate(b.booked_day)} could not be kept: the van is full that day. It is booked for ${displayDate(b.day)} instead (ticket ${b.ticket_id}).`
      : `Your pickup is booked for ${displayDate(b.day)} (ticket ${b.ticket_id}).`;
    const at = clock.now().toISOString();
    // The confirmation and the outcome commit together: a message exists only for an applied booking.
    await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(shopBookings)
        .set({ status: moved ? "moved" : "applied", applied_at: at })
        .where(sql`${shopBookings.uid} = ${uid} AND ${shopBookings.status} = 'received'`)
        .returning({ id: shopBookings.id });
      if (!claimed) return;
      await d.messaging.queueTicketText(tx, { agent_id: b.agent_id, customer_id: b.customer_id!, ticket_id: b.ticket_id!, mobile: b.phone, text });
    });
    return { uid, outcome: moved ? "moved" : "applied" };
  }

  // One envelope at a time: a replay arriving while the first delivery is midway waits for it.
  let queue: Promise<unknown> = Promise.resolve();

  return {
    /**
     * A customer HQ signed for but the box does not know (a deposit transfer's destination, issue
     * 34), made as an online booking's is: through the customers service, as the shop's admin or manager.
     */
    async newCustomer(agentId: number, fullName: string, mobile: string): Promise<number> {
      return (await d.customers.create(await actingFor(agentId), { full_name: fullName.trim() || `Transfer ${mobile}`, mobile }, { client: "transfer" })).id;
    },
    /** Verifies one envelope and applies it once; a refusal is answered, never thrown. */
    receive(raw: unknown): Promise<Applied> {
      const next = queue.then(() => receiveOne(raw));
      queue = next.catch(() => {});
      return next;
    },
    /** The box's shop for a booking of a phone nobody knows. */
    firstShop,
  };

  async function receiveOne(raw: unknown): Promise<Applied> {
    {
      const uid = String((raw as { uid?: unknown })?.uid ?? "");
      try {
        if (!d.hqKey) throw new EnvelopeRefused("This box is not enrolled with head quarters");
        const e = openEnvelope(raw, d.hqKey, d.site);
        const other = d.kinds?.[e.kind];
        if (other) return { uid: e.uid, ...(await other(e.payload)) };
        if (e.kind !== BOOKING_KIND) throw new EnvelopeRefused(`This box does not know instructions of kind ${e.kind}: refused`);
        const p = BookingPayload.safeParse(e.payload);
        if (!p.success) throw new EnvelopeRefused("The booking in the envelope is malformed: refused");
        const at = clock.now().toISOString();
        // The shop of a phone nobody knows is settled in finish(); the first shop holds the row till then.
        const inserted = await db
          .insert(shopBookings)
          .values({
            uid: e.uid,
            agent_id: await firstShop(),
            phone: p.data.phone,
            locality_id: p.data.locality_id,
            street: p.data.street,
            number: p.data.number,
            note: p.data.note,
            booked_day: p.data.day,
            day: p.data.day,
            issued_at: e.issued_at,
            received_at: at,
          })
          .onConflictDoNothing({ target: shopBookings.uid })
          .returning({ id: shopBookings.id });
        const r = await finish(e.uid);
        return inserted.length || r.outcome !== "replay" ? r : { uid: e.uid, outcome: "replay" };
      } catch (err) {
        if (err instanceof EnvelopeRefused) return { uid, outcome: "refused", reason: err.message };
        throw err;
      }
    }
  }
}
export type BookingApply = ReturnType<typeof createBookingApply>;
