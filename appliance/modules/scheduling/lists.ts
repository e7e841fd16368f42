/**
 * The lists behind the scheduling screens: a day's booked tickets as spec §3 Simple tickets
 * (with their items and addresses) and a day's processed items. The caller's shop's (HQ all).
 */
import { and, asc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { agents, customers, ticketSubCategories, ticketSubCategoryActions, tickets } from "../../../db/schema";
import { addDays } from "../../domain/dates";
import { dayStartUtc } from "../../domain/schedule";
import type { EmployeeCaller } from "../auth/caller";
import {
  LIST_CAP,
  deliveryAddr,
  deliveryLoc,
  deliveryStreet,
  homeAddr,
  homeLoc,
  homeStreet,
  isDeliveryOn,
  isPickupOn,
  pickupAddr,
  pickupLoc,
  pickupStreet,
  scoped,
} from "./booked";

export function createScheduleLists(db: Db) {
  // ------------------------------------------------------------ simple tickets

  const ticketColumns = {
    id: tickets.id,
    customer_id: tickets.customer_id,
    customer_full_name: customers.full_name,
    mobile: customers.mobile,
    landline: customers.landline,
    state: tickets.state,
    pickup_date: tickets.pickup_date,
    delivery_date: tickets.delivery_date,
    pickup_from_client: tickets.pickup_from_client,
    delivery_to_client: tickets.delivery_to_client,
    pickup_comment: tickets.pickup_comment,
    delivery_comment: tickets.delivery_comment,
    agent_name: agents.name,
    total: tickets.total,
    total_paid: tickets.total_paid,
    p: { name: pickupAddr.name, number: pickupAddr.number, locality_id: pickupAddr.locality_id, street: pickupStreet.name, locality: pickupLoc.name },
    d: { name: deliveryAddr.name, number: deliveryAddr.number, locality_id: deliveryAddr.locality_id, street: deliveryStreet.name, locality: deliveryLoc.name },
    h: { name: homeAddr.name, number: homeAddr.number, locality_id: homeAddr.locality_id, street: homeStreet.name, locality: homeLoc.name },
  };

  function ticketQuery(where: SQL | undefined) {
    return db
      .select(ticketColumns)
      .from(tickets)
      .innerJoin(customers, eq(customers.id, tickets.customer_id))
      .innerJoin(agents, eq(agents.id, tickets.agent_id))
      .leftJoin(pickupAddr, eq(pickupAddr.id, tickets.pickup_address_id))
      .leftJoin(pickupStreet, eq(pickupStreet.id, pickupAddr.street_id))
      .leftJoin(pickupLoc, eq(pickupLoc.id, pickupAddr.locality_id))
      .leftJoin(deliveryAddr, eq(deliveryAddr.id, tickets.delivery_address_id))
      .leftJoin(deliveryStreet, eq(deliveryStreet.id, deliveryAddr.street_id))
      .leftJoin(deliveryLoc, eq(deliveryLoc.id, deliveryAddr.locality_id))
      .leftJoin(homeAddr, eq(homeAddr.id, customers.address_id))
      .leftJoin(homeStreet, eq(homeStreet.id, homeAddr.street_id))
      .leftJoin(homeLoc, eq(homeLoc.id, homeAddr.locality_id))
      .where(where);
  }
  type TicketRow = Awaited<ReturnType<typeof ticketQuery>>[number];
  type AddrCols = TicketRow["p"];
  const addr = (a: AddrCols) =>
    a.locality_id == null
      ? null
      : { name: a.name ?? "", number: a.number ?? "", street: a.street ?? "", locality: a.locality ?? "", locality_id: a.locality_id };

  async function itemsOf(ticketIds: number[]) {
    if (!ticketIds.length) return new Map<number, { id: number; description: string; quantity: number; pieces: string }[]>();
    const rows = await db
      .select({
        id: ticketSubCategories.id,
        ticket_id: ticketSubCategories.ticket_id,
        description: ticketSubCategories.description,
        quantity: ticketSubCategories.quantity,
        pieces: ticketSubCategories.pieces,
      })
      .from(ticketSubCategories)
      .where(inArray(ticketSubCategories.ticket_id, ticketIds))
      .orderBy(asc(ticketSubCategories.id));
    const out = new Map<number, { id: number; description: string; quantity: number; pieces: string }[]>();
    for (const { ticket_id, ...r } of rows) out.set(ticket_id, [...(out.get(ticket_id) ?? []), r]);
    return out;
  }

  /** Spec §3 Simple ticket (money in cents; the route turns it into euros). */
  function simpleTicket(t: TicketRow, items: { id: number; description: string; quantity: number }[]) {
    const home = addr(t.h);
    return {
      id: t.id,
      customer_id: t.customer_id,
      customer_full_name: t.customer_full_name,
      customer_contact: [t.mobile, t.landline].filter(Boolean).join(" / "),
      state: t.state,
      pickup_date: t.pickup_date,
      delivery_date: t.delivery_date,
      pickup_from_client: t.pickup_from_client,
      delivery_to_client: t.delivery_to_client,
      pickup_address: addr(t.p) ?? home,
      delivery_address: addr(t.d) ?? home,
      pickup_comment: t.pickup_comment,
      delivery_comment: t.delivery_comment,
      agent_name: t.agent_name,
      detail: items.map((i) => (i.quantity > 1 ? `${i.quantity} × ${i.description}` : i.description)).join(", "),
      sub_category_ids: items.map((i) => i.id),
      total: t.total,
      total_paid: t.total_paid,
    };
  }

  async function dayTickets(caller: EmployeeCaller, day: string, limit: number, type?: "pickups" | "deliveries") {
    const kinds = [type !== "deliveries" ? isPickupOn(day, day) : undefined, type !== "pickups" ? isDeliveryOn(day, day) : undefined].filter(Boolean) as SQL[];
    const where = and(or(...kinds), scoped(caller));
    const [{ n }] = (await db.select({ n: sql<number>`count(*)` }).from(tickets).where(where)) as [{ n: number }];
    const rows = limit ? await ticketQuery(where).orderBy(asc(tickets.id)).limit(Math.min(limit, LIST_CAP)) : [];
    const items = await itemsOf(rows.map((r) => r.id));
    return { count: Number(n), tickets: rows.map((r) => simpleTicket(r, items.get(r.id) ?? [])) };
  }

  /** The caller's shop's items processed on a day, with their actions (for the workload lists). */
  async function dayItems(caller: EmployeeCaller, day: string, limit: number) {
    const rows = await db
      .select({
        TicketID: ticketSubCategories.ticket_id,
        ItemID: ticketSubCategories.id,
        Detail: sql<string>`coalesce(${ticketSubCategories.detail}, '')`,
        Description: ticketSubCategories.description,
        action_id: ticketSubCategoryActions.action_id,
      })
      .from(ticketSubCategories)
      .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
      .innerJoin(ticketSubCategoryActions, eq(ticketSubCategoryActions.ticket_sub_category_id, ticketSubCategories.id))
      .where(and(gte(ticketSubCategories.process_date, dayStartUtc(day)), lt(ticketSubCategories.process_date, dayStartUtc(addDays(day, 1))), scoped(caller)))
      // In process-date order, which the index gives without sorting the day.
      .orderBy(asc(ticketSubCategories.process_date), asc(ticketSubCategories.id))
      .limit(limit);
    return rows;
  }

  return { ticketQuery, itemsOf, simpleTicket, dayTickets, dayItems };
}

export type ScheduleLists = ReturnType<typeof createScheduleLists>;
