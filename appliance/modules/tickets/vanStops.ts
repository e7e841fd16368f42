/**
 * The van's side of a ticket: the stops it books (each leg to or from the client, in a
 * locality), the stops a change adds on days already full (they need a manager), and the
 * default pickup/delivery day. The scheduling module counts the room; this asks it.
 */
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { addresses, customers, localities, type tickets } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { displayDate } from "../../domain/format";
import type { Clock } from "../../platform/clock";
import type { ApprovalInput, ApprovalService } from "../approval/service";
import type { EmployeeCaller } from "../auth/caller";
import type { SchedulingService } from "../scheduling/service";

/** Spec §9: a new ticket's pickup and delivery default to 7 days from today. */
export const DEFAULT_DAYS_AHEAD = 7;

/** What the counter asks the scheduling module: the vans' settings and a locality's room per day. */
export type VanCapacity = Pick<SchedulingService, "listPickupDeliveries" | "availability">;

type TicketRow = typeof tickets.$inferSelect;
export type StopFields = Pick<
  TicketRow,
  "customer_id" | "pickup_from_client" | "delivery_to_client" | "pickup_date" | "delivery_date" | "pickup_address_id" | "delivery_address_id"
>;
const LEGS = ["pickup", "delivery"] as const;
type Leg = (typeof LEGS)[number];
/** A van stop: a leg to or from the client on a day, in a locality. */
export interface Stop {
  leg: Leg;
  date: string;
  locality_id: number;
}

export function createVanStops({
  db,
  clock,
  approvals,
  scheduling,
}: {
  db: Db;
  clock: Clock;
  approvals: Pick<ApprovalService, "approve">;
  scheduling: VanCapacity;
}) {
  /** The van stops a ticket books: each leg to or from the client with a day, in its address's locality (else the customer's home's). */
  async function stopsOf(t: StopFields): Promise<Stop[]> {
    const wanted = LEGS.filter((leg) => (leg === "pickup" ? t.pickup_from_client : t.delivery_to_client) && t[`${leg}_date`]);
    if (!wanted.length) return [];
    const customer = await db.query.customers.findFirst({ where: eq(customers.id, t.customer_id), columns: { address_id: true } });
    const addressOf = (leg: Leg) => t[`${leg}_address_id`] ?? customer?.address_id ?? null;
    const ids = [...new Set(wanted.map(addressOf).filter((a): a is number => a != null))];
    const rows = ids.length ? await db.select({ id: addresses.id, locality_id: addresses.locality_id }).from(addresses).where(inArray(addresses.id, ids)) : [];
    const locality = new Map(rows.map((r) => [r.id, r.locality_id]));
    return wanted.flatMap((leg) => {
      const l = locality.get(addressOf(leg) ?? 0);
      return l ? [{ leg, date: t[`${leg}_date`]!, locality_id: l }] : [];
    });
  }

  /**
   * Stops a change adds (a leg turned on, or moved to another day or locality) on days their
   * locality has no room left for them. The scheduling module counts what is booked; a
   * locality that no pickup/delivery setting names has no known limit, so it is never full.
   */
  async function fullStopsAdded(before: Stop[], after: Stop[]) {
    const added = after.filter((s) => !before.some((b) => b.leg === s.leg && b.date === s.date && b.locality_id === s.locality_id));
    if (!added.length) return [];
    const settings = await scheduling.listPickupDeliveries();
    const full: (Stop & { locality: string })[] = [];
    for (const s of added) {
      if (!settings.some((x) => x.locality_ids.includes(s.locality_id))) continue;
      const { days } = await scheduling.availability({ locality: s.locality_id, from: s.date, days: 1 });
      const sameDay = added.filter((o) => o.date === s.date && o.locality_id === s.locality_id).length;
      if ((days[0]?.left ?? 0) < sameDay) {
        const [l] = await db.select({ name: localities.name }).from(localities).where(eq(localities.id, s.locality_id));
        full.push({ ...s, locality: l?.name ?? `#${s.locality_id}` });
      }
    }
    return full;
  }

  /** A manager's approval for booking full days (managers and admins act alone); null when none is needed or they acted alone. */
  async function approveFullDays(caller: EmployeeCaller, full: (Stop & { locality: string })[], approval: ApprovalInput) {
    if (!full.length) return null;
    const what = full.map((s) => `a ${s.leg} in ${s.locality} on ${displayDate(s.date)}`).join(" and ");
    return approvals.approve(caller, approval, `${what}, a full day`);
  }

  /** The default pickup and delivery day: 7 days out (spec §9), moved to the first day with room in the customer's locality. */
  async function defaultDay(addressId: number | null): Promise<string> {
    const inAWeek = addDays(businessDay(clock.now()), DEFAULT_DAYS_AHEAD);
    if (!addressId) return inAWeek;
    const [a] = await db.select({ locality_id: addresses.locality_id }).from(addresses).where(eq(addresses.id, addressId));
    if (!a || !(await scheduling.listPickupDeliveries()).some((s) => s.locality_ids.includes(a.locality_id))) return inAWeek;
    return (await scheduling.availability({ locality: a.locality_id, from: inAWeek, days: 7, default_date: inAWeek })).proposed ?? inAWeek;
  }

  return { stopsOf, fullStopsAdded, approveFullDays, defaultDay };
}
