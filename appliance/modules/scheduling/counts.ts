/**
 * The counts scheduling decides with, every shop: the vans' capacity settings, the stops
 * booked per (day, locality), and the plant's configured capacity and load per (action, day).
 * Numbers without personal data, so chain-wide (a shop booking a pickup sees the van's whole day).
 */
import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { actions, configurations, customers, pickupDeliveries, ticketSubCategories, ticketSubCategoryActions, tickets } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { type CapacitySetting, dayOfWeek, dayStartUtc, monthOf, parseAmounts, parseLocalityIds } from "../../domain/schedule";
import { deliveryAddr, homeAddr, isDeliveryOn, isPickupOn, pickupAddr } from "./booked";

export function createScheduleCounts(db: Db) {
  // ------------------------------------------------------------ pickup/delivery settings

  async function settings(): Promise<CapacitySetting[]> {
    const rows = await db.select().from(pickupDeliveries);
    return rows.map((r) => ({ ...r, locality_ids: parseLocalityIds(r.localities) }));
  }

  // ------------------------------------------------------------ counts

  /** Booked pickups and deliveries per (day, locality) over [from, to], every shop. */
  async function bookedStops(from: string, to: string, locality?: number) {
    const pickupLocality = sql<number>`coalesce(${pickupAddr.locality_id}, ${homeAddr.locality_id})`;
    const deliveryLocality = sql<number>`coalesce(${deliveryAddr.locality_id}, ${homeAddr.locality_id})`;
    const [pickups, deliveries] = await Promise.all([
      db
        .select({ date: tickets.pickup_date, locality: pickupLocality, n: sql<number>`count(*)` })
        .from(tickets)
        .innerJoin(customers, eq(customers.id, tickets.customer_id))
        .leftJoin(pickupAddr, eq(pickupAddr.id, tickets.pickup_address_id))
        .leftJoin(homeAddr, eq(homeAddr.id, customers.address_id))
        .where(and(isPickupOn(from, to), locality ? sql`${pickupLocality} = ${locality}` : undefined))
        .groupBy(tickets.pickup_date, pickupLocality),
      db
        .select({ date: tickets.delivery_date, locality: deliveryLocality, n: sql<number>`count(*)` })
        .from(tickets)
        .innerJoin(customers, eq(customers.id, tickets.customer_id))
        .leftJoin(deliveryAddr, eq(deliveryAddr.id, tickets.delivery_address_id))
        .leftJoin(homeAddr, eq(homeAddr.id, customers.address_id))
        .where(and(isDeliveryOn(from, to), locality ? sql`${deliveryLocality} = ${locality}` : undefined))
        .groupBy(tickets.delivery_date, deliveryLocality),
    ]);
    return { pickups, deliveries };
  }

  /**
   * The plant's load per (action, Malta day) over [from, to]: Σ item quantity × action
   * quantity of items whose process date falls in the day, every shop. Grouped by UTC hour in
   * SQL (Malta's offset is whole hours, so an hour lies in one day), then by day here.
   */
  async function plantLoad(from: string, to: string, actionIds?: number[]) {
    const hour = sql<string>`substr(${ticketSubCategories.process_date}, 1, 13)`;
    const rows = await db
      .select({
        action_id: ticketSubCategoryActions.action_id,
        hour,
        n: sql<number>`sum(${ticketSubCategories.quantity} * ${ticketSubCategoryActions.quantity})`,
      })
      .from(ticketSubCategories)
      .innerJoin(ticketSubCategoryActions, eq(ticketSubCategoryActions.ticket_sub_category_id, ticketSubCategories.id))
      .where(
        and(
          gte(ticketSubCategories.process_date, dayStartUtc(from)),
          lt(ticketSubCategories.process_date, dayStartUtc(addDays(to, 1))),
          actionIds ? inArray(ticketSubCategoryActions.action_id, actionIds) : undefined,
        ),
      )
      .groupBy(ticketSubCategoryActions.action_id, hour);
    const load = new Map<string, number>(); // `${action}|${day}`
    for (const r of rows) {
      const key = `${r.action_id}|${businessDay(new Date(`${r.hour}:00:00Z`))}`;
      load.set(key, (load.get(key) ?? 0) + Number(r.n));
    }
    return { of: (action: number, day: string) => load.get(`${action}|${day}`) ?? 0, actions: new Set(rows.map((r) => r.action_id)) };
  }

  /** The configured plant capacity per (action, month), for the months of some days. */
  async function plantCapacity(days: string[], actionIds?: number[]) {
    const months = [...new Set(days.map(monthOf))];
    const rows = await db
      .select({ month: configurations.month, action_id: configurations.action_id, action: actions.name, amounts: configurations.amounts })
      .from(configurations)
      .innerJoin(actions, eq(actions.id, configurations.action_id))
      .where(and(inArray(configurations.month, months), actionIds ? inArray(configurations.action_id, actionIds) : undefined));
    const byKey = new Map(rows.map((r) => [`${r.action_id}|${r.month}`, parseAmounts(r.amounts)]));
    return {
      rows,
      /** null: no configuration for that month, so no limit known. */
      of: (action: number, day: string) => byKey.get(`${action}|${monthOf(day)}`)?.[dayOfWeek(day)] ?? null,
    };
  }

  return { settings, bookedStops, plantLoad, plantCapacity };
}

export type ScheduleCounts = ReturnType<typeof createScheduleCounts>;
