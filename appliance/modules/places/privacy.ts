// A forgotten customer's addresses (issue 35, GDPR Art. 17): the house name and number go, the
// street and locality stay (reference data, and what a ticket's delivery charge was for).
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { addresses } from "../../../db/schema";

export async function blankAddresses(tx: Pick<Db, "update">, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await tx.update(addresses).set({ name: "", number: "" }).where(inArray(addresses.id, ids));
}
