/**
 * Scheduling: the plant's monthly workload configurations, the vans' pickup/delivery
 * capacity per locality and season, the scheduler's week, the plant's load per action, the
 * counter's date proposal and a driver's run. Money is cents here.
 *
 * Who sees what: capacities and load counts are numbers without personal data and the vans
 * and the plant serve every shop, so they are counted chain-wide (a shop booking a pickup must
 * see the van's whole day). Lists of tickets, items and stops are the caller's shop's (HQ all).
 */
import { and, asc, eq, gte, inArray, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "../../../db/client";
import {
  actions,
  addresses,
  agents,
  configurations,
  customers,
  employees,
  localities,
  pickupDeliveries,
  streets,
  ticketSubCategories,
  ticketSubCategoryActions,
  tickets,
} from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import {
  type CapacitySetting,
  type DayRoom,
  MONTHS,
  type MonthName,
  capacityLeft,
  dayFits,
  dayOfWeek,
  dayStartUtc,
  formatAmounts,
  loadColour,
  localityCapacities,
  monthOf,
  parseAmounts,
  parseLocalityIds,
  proposeDate,
  weekDates,
  weekOf,
} from "../../domain/schedule";
import type { Clock } from "../../platform/clock";
import { conflict, forbidden, notFound, unprocessable } from "../../platform/errors";
import { audit, changes } from "../audit/audit";
import { type AgentCaller, type EmployeeCaller, agentScope, assertSameAgent } from "../auth/caller";

/** A driver's stops and ticket lists are at most this long, whatever `limit` asks (spec §9's 9999999999 means "all"). */
const LIST_CAP = 5000;
/** The date proposal looks this many days past the default date at most. */
const PROPOSAL_HORIZON = 366;
const PROPOSAL_CHUNK = 31;

export interface ConfigurationInput {
  month: MonthName;
  action_id: number;
  amounts: number[];
}
export interface PickupDeliveryRecord {
  season: "PEAK" | "OFFSEASON";
  from?: string | null;
  to?: string | null;
  day_of_week: number;
  quantity: number;
  localities: number[];
}

type Conf = { id: number; month: string; action_id: number; action: string; amounts: string };
const confOut = (c: Conf) => ({ ...c, month: c.month as MonthName, per_day: parseAmounts(c.amounts) });

/** A ticket's pickup happens at its pickup address, else the customer's; likewise its delivery. */
const pickupAddr = alias(addresses, "pickup_addr");
const deliveryAddr = alias(addresses, "delivery_addr");
const homeAddr = alias(addresses, "home_addr");
const pickupStreet = alias(streets, "pickup_street");
const deliveryStreet = alias(streets, "delivery_street");
const homeStreet = alias(streets, "home_street");
const pickupLoc = alias(localities, "pickup_loc");
const deliveryLoc = alias(localities, "delivery_loc");
const homeLoc = alias(localities, "home_loc");

/**
 * Booked stops: confirmed tickets to collect from or deliver to the client (drafts hold no
 * room). The flags are written as literals, as in the partial indexes of migration 0007: a
 * bound parameter would keep SQLite from using them.
 */
const isPickupOn = (from: string, to: string) =>
  and(sql`${tickets.pickup_from_client} = 1 AND ${tickets.confirmed_at} IS NOT NULL`, gte(tickets.pickup_date, from), lte(tickets.pickup_date, to));
const isDeliveryOn = (from: string, to: string) =>
  and(sql`${tickets.delivery_to_client} = 1 AND ${tickets.confirmed_at} IS NOT NULL`, gte(tickets.delivery_date, from), lte(tickets.delivery_date, to));
const scoped = (caller: AgentCaller): SQL | undefined => {
  const s = agentScope(caller);
  return s ? inArray(tickets.agent_id, s) : undefined;
};

export function createSchedulingService({ db, clock }: { db: Db; clock: Clock }) {
  const today = () => businessDay(clock.now());

  // ------------------------------------------------------------ configurations

  /** Configurations with their action's name: the one read both the list and a single one use. */
  const configurationRows = (q: Pick<Db, "select"> = db) =>
    q
      .select({
        id: configurations.id,
        month: configurations.month,
        action_id: configurations.action_id,
        action: actions.name,
        amounts: configurations.amounts,
      })
      .from(configurations)
      .innerJoin(actions, eq(actions.id, configurations.action_id));

  async function getConfiguration(id: number, q: Pick<Db, "select"> = db) {
    const [c] = await configurationRows(q).where(eq(configurations.id, id));
    if (!c) throw notFound("Configuration");
    return confOut(c);
  }

  /** One configuration per (month, action); the action must exist. */
  async function checkConfiguration(q: Pick<Db, "select">, c: { month: string; action_id: number }, except?: number) {
    const [a] = await q.select({ id: actions.id }).from(actions).where(eq(actions.id, c.action_id));
    if (!a) throw unprocessable("action_id: no such action");
    const [dup] = await q
      .select({ id: configurations.id })
      .from(configurations)
      .where(and(eq(configurations.month, c.month), eq(configurations.action_id, c.action_id), except ? ne(configurations.id, except) : undefined));
    if (dup) throw conflict(`${c.month} already has a configuration for this action (#${dup.id}); change that one`);
  }

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

  async function listPickupDeliveries() {
    const rows = await db.select().from(pickupDeliveries).orderBy(asc(pickupDeliveries.season), asc(pickupDeliveries.day_of_week), asc(pickupDeliveries.id));
    return rows.map((r) => ({ ...r, locality_ids: parseLocalityIds(r.localities) }));
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

  return {
    // -------------------------------------------------------- configurations
    async listConfigurations() {
      const rows = await configurationRows();
      const monthIndex = (m: string) => MONTHS.indexOf(m as MonthName);
      return rows.map(confOut).sort((a, b) => monthIndex(a.month) - monthIndex(b.month) || a.action.localeCompare(b.action) || a.id - b.id);
    },
    getConfiguration: (id: number) => getConfiguration(id),

    async createConfiguration(caller: EmployeeCaller, input: ConfigurationInput) {
      return db.transaction(async (tx) => {
        await checkConfiguration(tx, input);
        const amounts = formatAmounts(input.amounts);
        const [row] = await tx.insert(configurations).values({ month: input.month, action_id: input.action_id, amounts }).returning({ id: configurations.id });
        await audit(tx, clock.now(), caller, "create", "configuration", row!.id, { month: input.month, action_id: input.action_id, amounts });
        return getConfiguration(row!.id, tx);
      });
    },

    async updateConfiguration(caller: EmployeeCaller, id: number, input: Partial<ConfigurationInput>) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(configurations).where(eq(configurations.id, id));
        if (!before) throw notFound("Configuration");
        const next = {
          month: input.month ?? before.month,
          action_id: input.action_id ?? before.action_id,
          amounts: input.amounts ? formatAmounts(input.amounts) : before.amounts,
        };
        await checkConfiguration(tx, next, id);
        await tx.update(configurations).set(next).where(eq(configurations.id, id));
        await audit(tx, clock.now(), caller, "update", "configuration", id, { changes: changes(before, next) });
        return getConfiguration(id, tx);
      });
    },

    async removeConfiguration(caller: EmployeeCaller, id: number) {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(configurations).where(eq(configurations.id, id));
        if (!before) throw notFound("Configuration");
        await tx.delete(configurations).where(eq(configurations.id, id));
        await audit(tx, clock.now(), caller, "delete", "configuration", id, { before });
        return { id };
      });
    },

    // -------------------------------------------------------- pickup/delivery settings
    listPickupDeliveries,

    /** Replaces every setting with the list sent, in one transaction (spec §7: POST of the whole array). */
    async savePickupDeliveries(caller: EmployeeCaller, list: PickupDeliveryRecord[]) {
      const wanted = [...new Set(list.flatMap((s) => s.localities))];
      const found = wanted.length ? await db.select({ id: localities.id }).from(localities).where(inArray(localities.id, wanted)) : [];
      const known = new Set(found.map((l) => l.id));
      const missing = wanted.filter((id) => !known.has(id));
      if (missing.length) throw unprocessable(`localities: unknown locality id ${missing.slice(0, 5).join(", ")}`);
      await db.transaction(async (tx) => {
        const before = await tx.select().from(pickupDeliveries);
        await tx.delete(pickupDeliveries);
        if (list.length) {
          await tx.insert(pickupDeliveries).values(
            list.map((s) => ({
              season: s.season,
              from: s.from ?? null,
              to: s.to ?? null,
              day_of_week: s.day_of_week,
              quantity: s.quantity,
              localities: [...new Set(s.localities)].join(";"),
            })),
          );
        }
        await audit(tx, clock.now(), caller, "replace", "pickup_deliveries", null, { before: before.length, after: list.length });
      });
      return listPickupDeliveries();
    },

    // -------------------------------------------------------- scheduler
    /** Spec §3 Schedule statistics per day for a week; tickets at most `limit` a day (only `date`'s when given). */
    async scheduleWeek(caller: EmployeeCaller, year: number, week: number, opts: { limit: number; date?: string; type?: "pickups" | "deliveries" }) {
      const days = weekDates(year, week);
      const [all, booked, names] = await Promise.all([
        settings(),
        bookedStops(days[0]!, days[6]!),
        db.select({ id: localities.id, name: localities.name }).from(localities),
      ]);
      const nameOf = new Map(names.map((l) => [l.id, l.name]));
      return Promise.all(
        days.map(async (date) => {
          const caps = localityCapacities(all, date);
          const per = new Map<number, { p: number; d: number }>();
          const at = (l: number) => per.get(l) ?? (per.set(l, { p: 0, d: 0 }), per.get(l)!);
          for (const r of booked.pickups) if (r.date === date && r.locality != null) at(r.locality).p += Number(r.n);
          for (const r of booked.deliveries) if (r.date === date && r.locality != null) at(r.locality).d += Number(r.n);
          for (const l of caps.keys()) at(l);
          const locs = [...per.entries()]
            .map(([id, v]) => ({
              id,
              name: nameOf.get(id) ?? `#${id}`,
              capacity: caps.get(id) ?? 0,
              assigned_pickups: v.p,
              assigned_deliveries: v.d,
              colour: loadColour(v.p + v.d, caps.get(id) ?? 0),
            }))
            .sort((a, b) => a.name.localeCompare(b.name));
          const capacity = locs.reduce((s, l) => s + l.capacity, 0);
          const assigned_pickups = locs.reduce((s, l) => s + l.assigned_pickups, 0);
          const assigned_deliveries = locs.reduce((s, l) => s + l.assigned_deliveries, 0);
          const listed = !opts.date || opts.date === date ? await dayTickets(caller, date, opts.limit, opts.type) : { count: 0, tickets: [] };
          return {
            date,
            day_of_week: dayOfWeek(date),
            capacity,
            assigned_deliveries,
            assigned_pickups,
            colour: loadColour(assigned_pickups + assigned_deliveries, capacity),
            localities: locs,
            tickets: listed.tickets,
            ticket_count: listed.count,
          };
        }),
      );
    },

    // -------------------------------------------------------- plant workload
    /** Spec §3 Action workload for a week: each configured or loaded action's capacity and load per day. */
    async actionWorkload(caller: EmployeeCaller, year: number, week: number, limit: number) {
      const days = weekDates(year, week);
      const [cap, load] = await Promise.all([plantCapacity(days), plantLoad(days[0]!, days[6]!)]);
      const ids = [...new Set([...cap.rows.map((r) => r.action_id), ...load.actions])];
      const names = ids.length ? await db.select({ id: actions.id, name: actions.name }).from(actions).where(inArray(actions.id, ids)) : [];
      const lists = limit ? await Promise.all(days.map((d) => dayItems(caller, d, Math.min(limit, LIST_CAP)))) : days.map(() => []);
      return names
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((a) => ({
          action_id: a.id,
          action: a.name,
          days: days.map((date, i) => {
            const capacity = cap.of(a.id, date) ?? 0;
            const assigned = load.of(a.id, date);
            return {
              date,
              day_of_week: i,
              capacity,
              assigned,
              colour: loadColour(assigned, capacity),
              ticket_sub_categories: lists[i]!.filter((it) => it.action_id === a.id).map(({ action_id, ...it }) => it),
            };
          }),
        }));
    },

    /** Spec §3 Weekly statistics for the current Malta week (the ticket view's Process Feedback); optionally only some actions. */
    async thisWeek(actionIds?: number[]) {
      const { year, week } = weekOf(today());
      const days = weekDates(year, week);
      const [cap, load] = await Promise.all([plantCapacity(days, actionIds), plantLoad(days[0]!, days[6]!, actionIds)]);
      const names = new Map(cap.rows.map((r) => [r.action_id, r.action]));
      if (actionIds?.length) {
        for (const a of await db.select({ id: actions.id, name: actions.name }).from(actions).where(inArray(actions.id, actionIds))) names.set(a.id, a.name);
      }
      const out = [];
      for (const [action_id, action] of [...names].sort((a, b) => a[1].localeCompare(b[1]))) {
        for (const date of days) {
          const total_amount = cap.of(action_id, date) ?? 0;
          const amount_accepted = load.of(action_id, date);
          out.push({
            month: monthOf(date),
            action_id,
            action,
            date,
            day_of_week: dayOfWeek(date),
            amount_left: capacityLeft(total_amount, amount_accepted),
            amount_accepted,
            total_amount,
            colour: loadColour(amount_accepted, total_amount),
          });
        }
      }
      return out;
    },

    // -------------------------------------------------------- counter
    /**
     * A locality's room per day from `from` for `days` days, and the proposal: the first day
     * at or after `defaultDate` with a stop left and plant capacity for each action, looked
     * for up to a year ahead, a month at a time.
     */
    async availability(q: { locality: number; from?: string; days: number; default_date?: string; actions?: number[] }) {
      const [loc] = await db.select({ id: localities.id }).from(localities).where(eq(localities.id, q.locality));
      if (!loc) throw notFound("Locality");
      const all = await settings();
      const actionIds = q.actions ?? [];
      const roomFor = async (first: string, n: number) => {
        const days = Array.from({ length: n }, (_, i) => addDays(first, i));
        const last = days[n - 1]!;
        const [booked, cap, load] = await Promise.all([
          bookedStops(first, last, q.locality),
          actionIds.length ? plantCapacity(days, actionIds) : null,
          actionIds.length ? plantLoad(first, last, actionIds) : null,
        ]);
        return days.map((date) => {
          const capacity = localityCapacities(all, date).get(q.locality) ?? 0;
          const assigned = [...booked.pickups, ...booked.deliveries].filter((r) => r.date === date).reduce((s, r) => s + Number(r.n), 0);
          const plant = actionIds.map((action_id) => {
            const c = cap!.of(action_id, date);
            const used = load!.of(action_id, date);
            return { action_id, capacity: c, assigned: used, left: c === null ? null : capacityLeft(c, used) };
          });
          const room: DayRoom = { date, left: capacityLeft(capacity, assigned), plantLeft: plant.map((p) => p.left) };
          return {
            date,
            day_of_week: dayOfWeek(date),
            capacity,
            assigned,
            left: room.left,
            colour: loadColour(assigned, capacity),
            plant,
            ok: dayFits(room),
            room,
          };
        });
      };
      const from = q.from ?? today();
      const listed = await roomFor(from, q.days);
      const start = q.default_date ?? from;
      let proposed = proposeDate(
        listed.map((d) => d.room),
        start,
      );
      // Past the listed days, look further a month at a time (bounded).
      const listedEnd = addDays(from, q.days);
      let next = start > listedEnd ? start : listedEnd;
      while (!proposed && next <= addDays(start, PROPOSAL_HORIZON)) {
        proposed = proposeDate(
          (await roomFor(next, PROPOSAL_CHUNK)).map((d) => d.room),
          start,
        );
        next = addDays(next, PROPOSAL_CHUNK);
      }
      return { locality_id: q.locality, days: listed.map(({ room, ...d }) => d), proposed };
    },

    // -------------------------------------------------------- driver's run
    /**
     * One driver's stops for a day: the confirmed tickets to collect from or deliver to the
     * client in the driver's localities, ordered by locality, street and number. A driver sees
     * only their own run; admins and managers their shop's drivers (HQ any).
     */
    async run(caller: EmployeeCaller, date: string, driverId?: number) {
      const id = driverId ?? caller.employee.id;
      if (caller.employee.role === "driver" && id !== caller.employee.id) throw forbidden("A driver sees only their own run");
      const [driver] = await db
        .select({ id: employees.id, full_name: employees.full_name, agent_id: employees.agent_id, role: employees.role, localities: employees.localities })
        .from(employees)
        .where(eq(employees.id, id));
      if (!driver) throw notFound("Driver");
      assertSameAgent(caller, driver.agent_id, "Driver");
      const locality_ids = parseLocalityIds(driver.localities);
      const [driverAgent] = await db.select({ is_hq: agents.is_hq }).from(agents).where(eq(agents.id, driver.agent_id));
      // A shop's driver carries that shop's tickets; head quarters' vans carry every shop's.
      const shop = driverAgent?.is_hq ? undefined : eq(tickets.agent_id, driver.agent_id);
      const rows = locality_ids.length ? await ticketQuery(and(or(isPickupOn(date, date), isDeliveryOn(date, date)), shop)).limit(LIST_CAP) : [];
      const items = await itemsOf(rows.map((r) => r.id));
      const stops = [];
      for (const t of rows) {
        const s = simpleTicket(t, items.get(t.id) ?? []);
        const contact = {
          ticket_id: t.id,
          state: t.state,
          customer_id: t.customer_id,
          customer_full_name: t.customer_full_name,
          mobile: t.mobile,
          landline: t.landline,
          amount_due: Math.max(0, t.total - t.total_paid),
          items: items.get(t.id) ?? [],
        };
        const legs = [
          { kind: "pickup" as const, on: t.pickup_from_client && t.pickup_date === date, a: s.pickup_address, comments: t.pickup_comment },
          { kind: "delivery" as const, on: t.delivery_to_client && t.delivery_date === date, a: s.delivery_address, comments: t.delivery_comment },
        ];
        for (const l of legs) {
          if (!l.on || !l.a || !locality_ids.includes(l.a.locality_id)) continue;
          stops.push({
            kind: l.kind,
            ...contact,
            address: [l.a.number, l.a.name, l.a.street, l.a.locality].filter(Boolean).join(", "),
            locality: l.a.locality,
            street: l.a.street,
            number: l.a.number,
            comments: l.comments,
          });
        }
      }
      const num = (s: string) => Number.parseInt(s, 10) || 0;
      stops.sort(
        (a, b) => a.locality.localeCompare(b.locality) || a.street.localeCompare(b.street) || num(a.number) - num(b.number) || a.ticket_id - b.ticket_id,
      );
      return { date, driver: { id: driver.id, full_name: driver.full_name, locality_ids }, stops: stops.map(({ number, ...s }) => s) };
    },
  };
}

export type SchedulingService = ReturnType<typeof createSchedulingService>;
