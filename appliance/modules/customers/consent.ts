// A customer's "no messages" consent set from outside the customer screen (issue 35): a STOP
// texted back. Customers owns the column; messaging calls this in its own transaction, so the
// reply, the consent and the audit row are written together or not at all.
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { customers } from "../../../db/schema";
import { audit } from "../audit/audit";

export async function stopMessages(tx: Pick<Db, "update" | "insert">, at: Date, customerIds: number[], detail: Record<string, unknown>): Promise<void> {
  if (!customerIds.length) return;
  await tx.update(customers).set({ no_messages: true }).where(inArray(customers.id, customerIds));
  for (const id of customerIds) await audit(tx, at, { kind: "none" }, "no_messages", "customer", id, detail);
}
