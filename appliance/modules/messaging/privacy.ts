// A customer's messages for their data export, and wiped when they are forgotten (issue 35,
// GDPR Art. 15/17). Customers calls these; messaging keeps its tables its own.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { inboundMessages, outgoingMessages, reminders } from "../../../db/schema";

/** What the chain sent the customer, what they sent back, and their pickup reminders. */
export async function customerMessages(db: Pick<Db, "select">, customerId: number) {
  const sent = await db.select().from(outgoingMessages).where(eq(outgoingMessages.customer_id, customerId)).orderBy(asc(outgoingMessages.id));
  const received = await db.select().from(inboundMessages).where(eq(inboundMessages.customer_id, customerId)).orderBy(asc(inboundMessages.id));
  const reminded = await db.select().from(reminders).where(eq(reminders.customer_id, customerId)).orderBy(asc(reminders.id));
  return {
    sent: sent.map(({ key: _k, claimed_at: _c, gateway_id: _g, ...r }) => r),
    received,
    reminders: reminded,
  };
}

export const REMOVED = "[removed]";

/**
 * Forgets the customer's messages: the numbers, addresses and texts go (a text may say anything
 * about them); the rows stay so counts and the outbox's history still add up. One still waiting
 * to go is failed, never sent to a number that is gone.
 */
export async function forgetCustomerMessages(tx: Pick<Db, "update">, customerId: number, at: string): Promise<void> {
  await tx
    .update(outgoingMessages)
    .set({ status: "failed", last_error: "The customer's data was erased before it went", updated_at: at })
    .where(and(eq(outgoingMessages.customer_id, customerId), inArray(outgoingMessages.status, ["queued", "unknown"])));
  await tx.update(outgoingMessages).set({ recipient: "", subject: "", text: REMOVED }).where(eq(outgoingMessages.customer_id, customerId));
  await tx.update(inboundMessages).set({ phone: "", text: REMOVED, note: "" }).where(eq(inboundMessages.customer_id, customerId));
}
