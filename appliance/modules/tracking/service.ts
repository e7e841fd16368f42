import { and, asc, desc, eq, gte, inArray, isNotNull, lt, max, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { agents, customers, employees, itemLogStates, ticketStates, ticketSubCategories, tickets } from "../../../db/schema";
import { addDays } from "../../domain/dates";
import { parseScan, ScanCodeError } from "../../domain/scancodes";
import { DONE_STATES } from "../../domain/states";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import { agentScope } from "../auth/caller";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
import { loadItems } from "../tickets/repo";
import { DESC_SEARCH_LIMIT, type Journey, type ScanAnswer } from "./model";

/** Items past these states have left the shop: a description search leaves them out. */
/** A LIKE pattern that matches the text itself anywhere (its %, _ and \ taken literally: ESCAPE '\'). */
/**
 * The caller's shop's tickets (null scope: all). The '+' keeps SQLite off the tickets' agent
 * index: asked for a few items by id or by state, it would otherwise read the shop's every
 * ticket (a 50-item list took 570 ms on the reference set, 4 ms this way).
 */
const ticketInScope = (scope: number[] | null) =>
  scope
    ? sql`+${tickets.agent_id} IN (${sql.join(
        scope.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : undefined;
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createTrackingService({ db, clock }: { db: Db; clock: Clock }) {
  /** Items with their ticket's customer and agent, scoped to the caller's agent. */
  async function trackingItems(caller: EmployeeCaller, where: { ticketId?: number; itemIds?: number[] }) {
    const scope = agentScope(caller);
    const heads = await db
      .select({ id: ticketSubCategories.id, ticket_id: tickets.id, customer_name: customers.full_name, agent_name: agents.name })
      .from(ticketSubCategories)
      .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
      .innerJoin(customers, eq(customers.id, tickets.customer_id))
      .innerJoin(agents, eq(agents.id, tickets.agent_id))
      .where(and(where.ticketId !== undefined ? eq(tickets.id, where.ticketId) : inArray(ticketSubCategories.id, where.itemIds ?? []), ticketInScope(scope)))
      .orderBy(asc(ticketSubCategories.id));
    if (!heads.length) return [];
    const items = await loadItems(db, { itemIds: heads.map((h) => h.id) });
    const by = new Map(heads.map((h) => [h.id, h]));
    return items.map((i) => ({ ...i, customer_name: by.get(i.id)!.customer_name, agent_name: by.get(i.id)!.agent_name }));
  }

  return {
    /** Reads a scanned code (spec §9) and returns what it names, ready for the tracking list. */
    async scan(caller: EmployeeCaller, raw: string): Promise<ScanAnswer> {
      let scan;
      try {
        scan = parseScan(raw);
      } catch (e) {
        throw unprocessable(e instanceof ScanCodeError ? e.message : "Not an Ironbox code");
      }
      const items =
        scan.type === "ticket"
          ? await trackingItems(caller, { ticketId: scan.TicketID })
          : await trackingItems(caller, { itemIds: scan.type === "item" ? [scan.ItemID!] : scan.ItemIDS! });
      if (!items.length) throw notFound(scan.type === "ticket" ? "Ticket" : "Item");
      return { scan, items };
    },

    /**
     * `/tracking?type=desc`: items whose description holds the text (any case), of confirmed
     * tickets, not yet delivered or closed, the caller's shop's (HQ: all), newest first.
     */
    async byDescription(caller: EmployeeCaller, text: string) {
      const scope = agentScope(caller);
      // The open states by name, so the item state index finds the few thousand items still
      // in the shops (a shop's search read its every item: 150-250 ms on the reference set).
      const open = (await db.select({ name: ticketStates.name }).from(ticketStates)).map((s) => s.name).filter((n) => !DONE_STATES.includes(n));
      const found = await db
        .select({ id: ticketSubCategories.id })
        .from(ticketSubCategories)
        .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
        .where(
          and(
            inArray(ticketSubCategories.state, open),
            sql`${ticketSubCategories.description} LIKE ${containing(text)} ESCAPE '\\'`,
            isNotNull(tickets.confirmed_at),
            ticketInScope(scope),
          ),
        )
        .orderBy(desc(ticketSubCategories.id))
        .limit(DESC_SEARCH_LIMIT);
      return found.length ? (await trackingItems(caller, { itemIds: found.map((f) => f.id) })).sort((a, b) => b.id - a.id) : [];
    },

    /**
     * Spec §2 State Logs: item state changes between two days (Malta days, inclusive), by
     * ticket, employee and state. The grand total counts each garment once.
     */
    async journey(caller: EmployeeCaller, q: { tid?: number; eid?: number; df: string; dt: string; s?: string }): Promise<Journey> {
      const scope = agentScope(caller);
      const rows = await db
        .select({
          ticket_id: tickets.id,
          garment_id: ticketSubCategories.id,
          employee: employees.full_name,
          agent: agents.name,
          state: itemLogStates.state,
          date: itemLogStates.logged_at,
          description: ticketSubCategories.description,
          total: ticketSubCategories.total,
          total_override: ticketSubCategories.total_override,
        })
        .from(itemLogStates)
        .innerJoin(ticketSubCategories, eq(ticketSubCategories.id, itemLogStates.ticket_sub_category_id))
        .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
        .innerJoin(agents, eq(agents.id, tickets.agent_id))
        .leftJoin(employees, eq(employees.id, itemLogStates.employee_id))
        .where(
          and(
            gte(itemLogStates.logged_at, `${q.df}T00:00:00`),
            lt(itemLogStates.logged_at, `${addDays(q.dt, 1)}T00:00:00`),
            q.tid ? eq(tickets.id, q.tid) : undefined,
            q.eid ? eq(itemLogStates.employee_id, q.eid) : undefined,
            q.s !== undefined ? eq(itemLogStates.state, q.s) : undefined,
            scope ? inArray(tickets.agent_id, scope) : undefined,
          ),
        )
        .orderBy(desc(itemLogStates.logged_at), desc(itemLogStates.id))
        .limit(2000);
      const owed = new Map<number, number>();
      for (const r of rows) owed.set(r.garment_id, r.total_override ?? r.total);
      return {
        data: rows.map(({ total_override, ...r }) => ({ ...r, total: total_override ?? r.total })),
        grand_total: [...owed.values()].reduce((a, b) => a + b, 0),
        truncated: rows.length === 2000,
      };
    },

    /** Admins add delivery states named after localities (spec §4: B Kara, Mosta, San Gwann…). */
    async addState(caller: EmployeeCaller, name: string) {
      if (await db.query.ticketStates.findFirst({ where: eq(ticketStates.name, name) })) throw conflict("A state with this name exists");
      const [last] = await db
        .select({ p: max(ticketStates.position) })
        .from(ticketStates)
        .where(eq(ticketStates.is_locality_delivery, true));
      const after = last?.p ?? 0;
      const row = await db.transaction(async (tx) => {
        // Locality states sit together, before DELIVERED: make room after the last one.
        const all = await tx.select().from(ticketStates).orderBy(desc(ticketStates.position));
        for (const s of all)
          if (s.position > after)
            await tx
              .update(ticketStates)
              .set({ position: s.position + 1 })
              .where(eq(ticketStates.id, s.id));
        const [row] = await tx
          .insert(ticketStates)
          .values({ name, position: after + 1, is_locality_delivery: true, prices_on_receipt: true })
          .returning();
        await audit(tx, clock.now(), caller, "create", "ticket_state", row!.id, { name });
        return row!;
      });
      return row;
    },

    /** Only locality delivery states are renamed; tickets in that state move with the name. */
    async renameState(caller: EmployeeCaller, id: number, name: string) {
      const s = await db.query.ticketStates.findFirst({ where: eq(ticketStates.id, id) });
      if (!s) throw notFound("Ticket state");
      if (!s.is_locality_delivery) throw unprocessable("name: only locality delivery states can be renamed");
      if (await db.query.ticketStates.findFirst({ where: eq(ticketStates.name, name) })) throw conflict("A state with this name exists");
      await db.transaction(async (tx) => {
        await tx.update(ticketStates).set({ name }).where(eq(ticketStates.id, id));
        await tx.update(tickets).set({ state: name }).where(eq(tickets.state, s.name));
        await tx.update(ticketSubCategories).set({ state: name }).where(eq(ticketSubCategories.state, s.name));
        await audit(tx, clock.now(), caller, "rename", "ticket_state", id, { before: s.name, after: name });
      });
      return { ...s, name };
    },
  };
}
export type TrackingService = ReturnType<typeof createTrackingService>;
