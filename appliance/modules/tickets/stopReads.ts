/**
 * What scheduling may read of tickets and their items (issue 23: a module's tables are its
 * own): the booked stops of some days, a day's stop tickets and processed items, and the
 * plant's load. Rows carry the ids of customers, shops and addresses; scheduling asks their
 * owners for names and localities.
 */
import { and, asc, eq, gte, inArray, lt, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ticketSubCategories, ticketSubCategoryActions, tickets } from "../../../db/schema";

/** Which booked stops: pickups, deliveries or both on the days [from, to], of some shops (absent or null: every shop). */
export interface StopQuery {
  from: string;
  to: string;
  kinds: readonly ("pickup" | "delivery")[];
  agentIds?: readonly number[] | null;
}

/** Booked stops of one kind on one day for one customer at one address (null: the customer's home). */
export type StopCount = { date: string; customer_id: number; address_id: number | null; n: number };

/** A ticket as a stop list shows it (money in cents). */
export type StopTicket = {
  id: number;
  customer_id: number;
  agent_id: number;
  state: string;
  pickup_date: string | null;
  delivery_date: string | null;
  pickup_from_client: boolean;
  delivery_to_client: boolean;
  pickup_comment: string;
  delivery_comment: string;
  pickup_address_id: number | null;
  delivery_address_id: number | null;
  total: number;
  total_paid: number;
};

export type StopItem = { id: number; description: string; quantity: number; pieces: string };

/**
 * Booked stops: confirmed tickets to collect from or deliver to the client (drafts hold no
 * room). The flags are written as literals, as in the partial indexes of migration 0007: a
 * bound parameter would keep SQLite from using them.
 */
const isPickupOn = (from: string, to: string) =>
  and(sql`${tickets.pickup_from_client} = 1 AND ${tickets.confirmed_at} IS NOT NULL`, gte(tickets.pickup_date, from), lte(tickets.pickup_date, to));
const isDeliveryOn = (from: string, to: string) =>
  and(sql`${tickets.delivery_to_client} = 1 AND ${tickets.confirmed_at} IS NOT NULL`, gte(tickets.delivery_date, from), lte(tickets.delivery_date, to));

function stopsWhere(q: StopQuery): SQL | undefined {
  const kinds = q.kinds.map((k) => (k === "pickup" ? isPickupOn(q.from, q.to) : isDeliveryOn(q.from, q.to)));
  return and(or(...kinds), q.agentIds ? inArray(tickets.agent_id, [...q.agentIds]) : undefined);
}

const stopColumns = {
  id: tickets.id,
  customer_id: tickets.customer_id,
  agent_id: tickets.agent_id,
  state: tickets.state,
  pickup_date: tickets.pickup_date,
  delivery_date: tickets.delivery_date,
  pickup_from_client: tickets.pickup_from_client,
  delivery_to_client: tickets.delivery_to_client,
  pickup_comment: tickets.pickup_comment,
  delivery_comment: tickets.delivery_comment,
  pickup_address_id: tickets.pickup_address_id,
  delivery_address_id: tickets.delivery_address_id,
  total: tickets.total,
  total_paid: tickets.total_paid,
};

export function ticketStopReads(db: Db) {
  return {
    /**
     * Booked pickups and deliveries over [from, to], every shop, counted per (day, customer,
     * address): the stop indexes of migration 0007 cover this grouping, so no ticket row is read.
     */
    /** `skipped`: `ticket_id|pickup_date` keys of pickups the customer called off (they are not counted). */
    async stopCounts(from: string, to: string, skipped: string[] = []): Promise<{ pickups: StopCount[]; deliveries: StopCount[] }> {
      const [pickups, deliveries] = await Promise.all([
        db
          .select({
            date: sql<string>`${tickets.pickup_date}`,
            customer_id: tickets.customer_id,
            address_id: tickets.pickup_address_id,
            n: sql<number>`count(*)`,
          })
          .from(tickets)
          .where(and(isPickupOn(from, to), skipped.length ? notInArray(sql<string>`${tickets.id} || '|' || ${tickets.pickup_date}`, skipped) : undefined))
          .groupBy(tickets.pickup_date, tickets.customer_id, tickets.pickup_address_id),
        db
          .select({
            date: sql<string>`${tickets.delivery_date}`,
            customer_id: tickets.customer_id,
            address_id: tickets.delivery_address_id,
            n: sql<number>`count(*)`,
          })
          .from(tickets)
          .where(isDeliveryOn(from, to))
          .groupBy(tickets.delivery_date, tickets.customer_id, tickets.delivery_address_id),
      ]);
      return { pickups, deliveries };
    },

    /** How many tickets have these stops. */
    async countStops(q: StopQuery): Promise<number> {
      const [r] = await db.select({ n: sql<number>`count(*)` }).from(tickets).where(stopsWhere(q));
      return Number(r?.n ?? 0);
    },

    /** The tickets with these stops, by id, at most `limit`. */
    async stops(q: StopQuery, limit: number): Promise<StopTicket[]> {
      return db.select(stopColumns).from(tickets).where(stopsWhere(q)).orderBy(asc(tickets.id)).limit(limit);
    },

    /** The items of these tickets, per ticket, in id order. */
    async itemsOf(ticketIds: number[]): Promise<Map<number, StopItem[]>> {
      const out = new Map<number, StopItem[]>();
      if (!ticketIds.length) return out;
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
      for (const { ticket_id, ...r } of rows) out.set(ticket_id, [...(out.get(ticket_id) ?? []), r]);
      return out;
    },

    /**
     * The plant's load per (action, UTC hour) of items whose process date lies in [fromUtc,
     * toUtc): Σ item quantity × action quantity, every shop.
     */
    async plantLoadByHour(fromUtc: string, toUtc: string, actionIds?: number[]): Promise<{ action_id: number; hour: string; n: number }[]> {
      const hour = sql<string>`substr(${ticketSubCategories.process_date}, 1, 13)`;
      return db
        .select({
          action_id: ticketSubCategoryActions.action_id,
          hour,
          n: sql<number>`sum(${ticketSubCategories.quantity} * ${ticketSubCategoryActions.quantity})`,
        })
        .from(ticketSubCategories)
        .innerJoin(ticketSubCategoryActions, eq(ticketSubCategoryActions.ticket_sub_category_id, ticketSubCategories.id))
        .where(
          and(
            gte(ticketSubCategories.process_date, fromUtc),
            lt(ticketSubCategories.process_date, toUtc),
            actionIds ? inArray(ticketSubCategoryActions.action_id, actionIds) : undefined,
          ),
        )
        .groupBy(ticketSubCategoryActions.action_id, hour);
    },

    /** Items processed in [fromUtc, toUtc) with their actions, of some shops (null: all), in process-date order, at most `limit`. */
    async itemsProcessed(fromUtc: string, toUtc: string, agentIds: readonly number[] | null, limit: number) {
      return (
        db
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
          .where(
            and(
              gte(ticketSubCategories.process_date, fromUtc),
              lt(ticketSubCategories.process_date, toUtc),
              agentIds ? inArray(tickets.agent_id, [...agentIds]) : undefined,
            ),
          )
          // In process-date order, which the index gives without sorting the day.
          .orderBy(asc(ticketSubCategories.process_date), asc(ticketSubCategories.id))
          .limit(limit)
      );
    },
  };
}
export type TicketStopReads = ReturnType<typeof ticketStopReads>;
