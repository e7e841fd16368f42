// A customer's tickets as their data export shows them (issue 35, GDPR Art. 15/20), read by
// customers through here: tickets keeps its tables its own.
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { ticketSubCategories, tickets } from "../../../db/schema";

/** A page of the customer's tickets after `afterId`, each with its items (money in cents, as stored). */
export async function customerTicketsPage(db: Pick<Db, "select">, customerId: number, afterId: number, limit: number) {
  const ts = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.customer_id, customerId), gt(tickets.id, afterId)))
    .orderBy(asc(tickets.id))
    .limit(limit);
  const items = ts.length
    ? await db
        .select()
        .from(ticketSubCategories)
        .where(
          inArray(
            ticketSubCategories.ticket_id,
            ts.map((t) => t.id),
          ),
        )
        .orderBy(asc(ticketSubCategories.id))
    : [];
  return ts.map((t) => ({ ...t, items: items.filter((i) => i.ticket_id === t.id) }));
}

/** The addresses the customer's tickets name for pickup and delivery. */
export async function customerTicketAddressIds(db: Pick<Db, "select">, customerId: number): Promise<number[]> {
  const rows = await db.select({ p: tickets.pickup_address_id, d: tickets.delivery_address_id }).from(tickets).where(eq(tickets.customer_id, customerId));
  return [...new Set(rows.flatMap((r) => [r.p, r.d]).filter((x): x is number => x !== null))];
}
