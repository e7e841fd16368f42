// What other modules may read of tickets and their states (issue 23: a module's tables are its
// own). Messaging reads a ticket for its status message and follows the state log for
// automatic messages through these, never the tables.
import { and, asc, count, desc, eq, gt, inArray, max } from "drizzle-orm";
import type { Db } from "../../../db/client";
import {
  itemLogStates,
  ticketLogStates,
  tickets,
  ticketStates,
  ticketSubCategories,
  ticketSubCategoryActions,
  ticketSubCategoryModifiers,
} from "../../../db/schema";

export type TicketForMessage = Pick<typeof tickets.$inferSelect, "id" | "agent_id" | "customer_id" | "state" | "total" | "total_paid" | "delivery_date">;
export type TicketState = typeof ticketStates.$inferSelect;
/** One row of the ticket state log: the ticket was set to `state` at `logged_at`. */
export type StateChange = { id: number; ticket_id: number; state: string; logged_at: string };

/** A ticket as its public status page shows it (issue 35): nothing about the customer. */
export type TicketForStatus = Pick<
  typeof tickets.$inferSelect,
  "id" | "agent_id" | "state" | "total" | "total_paid" | "pickup_date" | "delivery_date" | "pickup_from_client" | "delivery_to_client"
> & { items: { garment_sub_category_id: number; quantity: number; state: string }[] };

/** The ticket with its garment lines, for the public status page; undefined when there is none. */
export async function ticketForStatus(db: Db, id: number): Promise<TicketForStatus | undefined> {
  const t = await db.query.tickets.findFirst({
    columns: {
      id: true,
      agent_id: true,
      state: true,
      total: true,
      total_paid: true,
      pickup_date: true,
      delivery_date: true,
      pickup_from_client: true,
      delivery_to_client: true,
    },
    where: eq(tickets.id, id),
  });
  if (!t) return undefined;
  const items = await db
    .select({ garment_sub_category_id: ticketSubCategories.garment_sub_category_id, quantity: ticketSubCategories.quantity, state: ticketSubCategories.state })
    .from(ticketSubCategories)
    .where(eq(ticketSubCategories.ticket_id, id))
    .orderBy(asc(ticketSubCategories.id));
  return { ...t, items };
}

/** When the ticket last reached one of these states (the state log), or null. */
export async function lastReached(db: Pick<Db, "select">, ticketId: number, states: readonly string[]): Promise<string | null> {
  const [r] = await db
    .select({ at: ticketLogStates.logged_at })
    .from(ticketLogStates)
    .where(and(eq(ticketLogStates.ticket_id, ticketId), inArray(ticketLogStates.state, [...states])))
    .orderBy(desc(ticketLogStates.id))
    .limit(1);
  return r?.at ?? null;
}

export function ticketReads(db: Db) {
  return {
    async ticket(id: number): Promise<TicketForMessage | undefined> {
      return db.query.tickets.findFirst({
        columns: { id: true, agent_id: true, customer_id: true, state: true, total: true, total_paid: true, delivery_date: true },
        where: eq(tickets.id, id),
      });
    },
    async state(name: string): Promise<TicketState | undefined> {
      return db.query.ticketStates.findFirst({ where: eq(ticketStates.name, name) });
    },
    async stateById(id: number): Promise<TicketState | undefined> {
      return db.query.ticketStates.findFirst({ where: eq(ticketStates.id, id) });
    },
    /** Every state in the order the spec lists them. */
    async states(): Promise<TicketState[]> {
      return db.select().from(ticketStates).orderBy(asc(ticketStates.position), asc(ticketStates.id));
    },
    /** The state log's newest id (0 when empty): where a follower of the log starts. */
    async lastStateChangeId(): Promise<number> {
      const [r] = await db.select({ id: max(ticketLogStates.id) }).from(ticketLogStates);
      return r?.id ?? 0;
    },
    /** State log rows after `afterId`, oldest first, at most `limit`. */
    async stateChangesAfter(afterId: number, limit: number): Promise<StateChange[]> {
      return db
        .select({ id: ticketLogStates.id, ticket_id: ticketLogStates.ticket_id, state: ticketLogStates.state, logged_at: ticketLogStates.logged_at })
        .from(ticketLogStates)
        .where(gt(ticketLogStates.id, afterId))
        .orderBy(asc(ticketLogStates.id))
        .limit(limit);
    },
  };
}
export type TicketReads = ReturnType<typeof ticketReads>;

/** Whether a ticket, or a state change of a ticket or an item, names this employee: employees keeps their record then (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const checks = [
    () => db.select({ one: tickets.employee_id }).from(tickets).where(eq(tickets.employee_id, employeeId)).limit(1),
    () => db.select({ one: itemLogStates.employee_id }).from(itemLogStates).where(eq(itemLogStates.employee_id, employeeId)).limit(1),
    () => db.select({ one: ticketLogStates.employee_id }).from(ticketLogStates).where(eq(ticketLogStates.employee_id, employeeId)).limit(1),
  ];
  for (const check of checks) if ((await check()).length) return true;
  return false;
}

// The catalogue keeps an action, garment or modifier that any ticket item carries (hide it
// instead), so old tickets still read right: these count the items that do.

/** How many ticket items carry this action. */
export async function itemsWithAction(db: Pick<Db, "select">, actionId: number): Promise<number> {
  const [r] = await db.select({ n: count() }).from(ticketSubCategoryActions).where(eq(ticketSubCategoryActions.action_id, actionId));
  return r?.n ?? 0;
}

/** How many ticket items are of this garment. */
export async function itemsWithGarment(db: Pick<Db, "select">, garmentSubCategoryId: number): Promise<number> {
  const [r] = await db.select({ n: count() }).from(ticketSubCategories).where(eq(ticketSubCategories.garment_sub_category_id, garmentSubCategoryId));
  return r?.n ?? 0;
}

/** How many ticket item modifiers are one of these modifiers. */
export async function itemsWithModifiers(db: Pick<Db, "select">, modifierIds: number[]): Promise<number> {
  const [r] = await db.select({ n: count() }).from(ticketSubCategoryModifiers).where(inArray(ticketSubCategoryModifiers.modifier_id, modifierIds));
  return r?.n ?? 0;
}

/** Whether any ticket belongs to this agent: agents archives it then instead of removing it. */
export async function namesAgent(q: Pick<Db, "select">, agentId: number): Promise<boolean> {
  const [r] = await q.select({ one: tickets.agent_id }).from(tickets).where(eq(tickets.agent_id, agentId)).limit(1);
  return r !== undefined;
}

/** Items' descriptions (an invoice's lines name each item charged); unknown ids are absent. */
export async function itemDescriptions(q: Pick<Db, "select">, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await q
    .select({ id: ticketSubCategories.id, d: ticketSubCategories.description })
    .from(ticketSubCategories)
    .where(inArray(ticketSubCategories.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.d]));
}

/** A ticket's customer (payments: a payment by the customer's deposit balance spends theirs). */
export async function ticketCustomer(q: Pick<Db, "select">, ticketId: number): Promise<number | undefined> {
  const [r] = await q.select({ c: tickets.customer_id }).from(tickets).where(eq(tickets.id, ticketId));
  return r?.c;
}
