// The payment rows of some tickets, for a customer's data export (issue 35). Read only: the
// money stays as it is when a customer is forgotten (the tax years' retention duty).
import { asc, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { payments } from "../../../db/schema";

export async function paymentsOfTickets(db: Pick<Db, "select">, ticketIds: number[]) {
  if (!ticketIds.length) return [];
  return db.select().from(payments).where(inArray(payments.ticket_id, ticketIds)).orderBy(asc(payments.id));
}
