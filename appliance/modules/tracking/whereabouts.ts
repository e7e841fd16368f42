import { and, asc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { customers, itemLogStates, ticketSubCategories, tickets } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { READY_STATE } from "../../domain/racks";
import type { Clock } from "../../platform/clock";
import { notFound } from "../../platform/errors";
import { agentScope, type EmployeeCaller } from "../auth/caller";
import { type LocationBody, type LocationResult, type TicketLocations, type Unclaimed, UNCLAIMED_LIMIT } from "./model";
import { balanceDue } from "../../domain/money";

/**
 * "Where is it?" (issue 25): which rack or slot an item waits on, and the ready items nobody
 * has collected. Part of tracking, which already reads and moves items by scan; a location is
 * free text bounded by the schema (no list of racks to keep: a rack exists once its label is
 * printed, and renaming one is reprinting it).
 */
export function createWhereaboutsService({ db, clock }: { db: Db; clock: Clock }) {
  /** The caller's shop's tickets (null scope: HQ, all). */
  const inScope = (caller: EmployeeCaller) => {
    const scope = agentScope(caller);
    return scope ? inArray(tickets.agent_id, scope) : undefined;
  };

  return {
    /**
     * Puts items, and every item of whole tickets, on one location ("" takes them off). Every
     * id must be the caller's shop's (another shop's answers 404, as if it did not exist) and
     * nothing is written unless all are.
     */
    async setLocation(caller: EmployeeCaller, body: LocationBody): Promise<LocationResult> {
      const found = await db
        .select({ id: ticketSubCategories.id, ticket_id: ticketSubCategories.ticket_id })
        .from(ticketSubCategories)
        .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
        .where(
          and(
            sql`(${body.Ids.length ? inArray(ticketSubCategories.id, body.Ids) : sql`0`} OR ${body.ticket_ids.length ? inArray(ticketSubCategories.ticket_id, body.ticket_ids) : sql`0`})`,
            inScope(caller),
          ),
        );
      const ids = new Set(found.map((f) => f.id));
      if (body.Ids.some((id) => !ids.has(id))) throw notFound("Item");
      const ticketIds = new Set(found.map((f) => f.ticket_id));
      if (body.ticket_ids.some((id) => !ticketIds.has(id))) throw notFound("Ticket");
      await db
        .update(ticketSubCategories)
        .set({ location: body.location })
        .where(inArray(ticketSubCategories.id, [...ids]));
      return { items: found.map((f) => ({ ...f, location: body.location })).sort((a, b) => a.id - b.id) };
    },

    /** Each ticket's distinct item locations, for the caller's shop's tickets among `ids` (others are left out). */
    async ticketLocations(caller: EmployeeCaller, ids: number[]): Promise<TicketLocations[]> {
      const rows = await db
        .selectDistinct({ ticket_id: ticketSubCategories.ticket_id, location: ticketSubCategories.location })
        .from(ticketSubCategories)
        .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
        .where(and(inArray(ticketSubCategories.ticket_id, ids), sql`${ticketSubCategories.location} <> ''`, inScope(caller)))
        .orderBy(asc(ticketSubCategories.ticket_id), asc(ticketSubCategories.location));
      const by = new Map<number, string[]>();
      for (const r of rows) by.set(r.ticket_id, [...(by.get(r.ticket_id) ?? []), r.location]);
      return [...by].map(([ticket_id, locations]) => ({ ticket_id, locations }));
    },

    /**
     * Items ready (READY_STATE) and not collected for more than `days` days, oldest first, with
     * the customer's contact. Ready since: the last time the item was logged into that state;
     * an item with no such log (imported) counts from its process date, else its ticket's
     * confirmation. The state index finds the few thousand ready items; a log lookup each.
     */
    async unclaimed(caller: EmployeeCaller, days: number): Promise<Unclaimed> {
      const cutoff = `${addDays(businessDay(clock.now()), -days)}T00:00:00.000Z`;
      const readySince = sql<string>`coalesce((SELECT max(${itemLogStates.logged_at}) FROM ${itemLogStates} WHERE ${itemLogStates.ticket_sub_category_id} = ${ticketSubCategories.id} AND ${itemLogStates.state} = ${READY_STATE}), ${ticketSubCategories.process_date}, ${tickets.confirmed_at}, ${tickets.created_at})`;
      const rows = await db
        .select({
          id: ticketSubCategories.id,
          ticket_id: ticketSubCategories.ticket_id,
          description: ticketSubCategories.description,
          location: ticketSubCategories.location,
          ready_since: readySince,
          total: ticketSubCategories.total,
          total_override: ticketSubCategories.total_override,
          total_paid: ticketSubCategories.total_paid,
          customer_id: customers.id,
          customer_name: customers.full_name,
          mobile: customers.mobile,
          landline: customers.landline,
          email_address: customers.email_address,
          no_messages: customers.no_messages,
        })
        .from(ticketSubCategories)
        .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
        .innerJoin(customers, eq(customers.id, tickets.customer_id))
        .where(and(eq(ticketSubCategories.state, READY_STATE), inScope(caller), lt(readySince, cutoff)))
        .orderBy(asc(readySince), asc(ticketSubCategories.id))
        .limit(UNCLAIMED_LIMIT + 1);
      const now = clock.now().getTime();
      return {
        days,
        truncated: rows.length > UNCLAIMED_LIMIT,
        items: rows.slice(0, UNCLAIMED_LIMIT).map(({ total, total_override, total_paid, ...r }) => ({
          ...r,
          days: Math.floor((now - Date.parse(r.ready_since)) / 86_400_000),
          balance: balanceDue(total_override ?? total, total_paid),
        })),
      };
    },
  };
}
export type WhereaboutsService = ReturnType<typeof createWhereaboutsService>;
