/**
 * The counts scheduling decides with, every shop: the vans' capacity settings, the stops
 * booked per (day, locality), and the plant's configured capacity and load per (action, day).
 * Numbers without personal data, so chain-wide (a shop booking a pickup sees the van's whole day).
 */
import { and, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { configurations, pickupDeliveries } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { type CapacitySetting, dayOfWeek, dayStartUtc, monthOf, parseAmounts, parseLocalityIds } from "../../domain/schedule";
import { actionNames } from "../catalogue/reads";
import { customerHomes } from "../customers/reads";
import { skippedPickups } from "../messaging/reads";
import { addressLocalities } from "../places/reads";
import { type StopCount, ticketStopReads } from "../tickets/stopReads";
import { notNull, stopAddress } from "./booked";

export function createScheduleCounts(db: Db) {
  const stops = ticketStopReads(db);
  // ------------------------------------------------------------ pickup/delivery settings

  async function settings(): Promise<CapacitySetting[]> {
    const rows = await db.select().from(pickupDeliveries);
    return rows.map((r) => ({ ...r, locality_ids: parseLocalityIds(r.localities) }));
  }

  // ------------------------------------------------------------ counts

  /**
   * Booked pickups and deliveries per (day, locality) over [from, to], every shop: tickets
   * counts them per (day, customer, address), customers names the homes of stops without an
   * address of their own, places the localities.
   */
  async function bookedStops(from: string, to: string, locality?: number) {
    // A pickup the customer skipped by SMS is off the driver's run (driverRun.ts): its room is free.
    const { pickups, deliveries } = await stops.stopCounts(from, to, await skippedPickups(db, from, to));
    const homeless = [...pickups, ...deliveries].filter((r) => r.address_id == null).map((r) => r.customer_id);
    const homes = await customerHomes(db, homeless);
    const addressIds = [...pickups, ...deliveries].map((r) => stopAddress(r.address_id, homes.get(r.customer_id)?.address_id));
    const localityOf = await addressLocalities(db, addressIds.filter(notNull));
    const perDay = (rows: StopCount[]) => {
      const out = new Map<string, { date: string; locality: number | null; n: number }>();
      for (const r of rows) {
        const address = stopAddress(r.address_id, homes.get(r.customer_id)?.address_id);
        const l = address == null ? null : (localityOf.get(address) ?? null);
        if (locality && l !== locality) continue;
        const key = `${r.date}|${l}`;
        const at = out.get(key) ?? (out.set(key, { date: r.date, locality: l, n: 0 }), out.get(key)!);
        at.n += Number(r.n);
      }
      return [...out.values()];
    };
    return { pickups: perDay(pickups), deliveries: perDay(deliveries) };
  }

  /**
   * The plant's load per (action, Malta day) over [from, to]: Σ item quantity × action
   * quantity of items whose process date falls in the day, every shop. Tickets groups it by
   * UTC hour (Malta's offset is whole hours, so an hour lies in one day), then by day here.
   */
  async function plantLoad(from: string, to: string, actionIds?: number[]) {
    const rows = await stops.plantLoadByHour(dayStartUtc(from), dayStartUtc(addDays(to, 1)), actionIds);
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
    const configured = await db
      .select({ month: configurations.month, action_id: configurations.action_id, amounts: configurations.amounts })
      .from(configurations)
      .where(and(inArray(configurations.month, months), actionIds ? inArray(configurations.action_id, actionIds) : undefined));
    // Named by the catalogue; a configuration of an action it no longer has counts for nothing.
    const name = new Map(
      (
        await actionNames(
          db,
          configured.map((c) => c.action_id),
        )
      ).map((a) => [a.id, a.name]),
    );
    const rows = configured.flatMap((c) => (name.has(c.action_id) ? [{ ...c, action: name.get(c.action_id)! }] : []));
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
