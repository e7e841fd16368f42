// Customers' links to preferences are the customers module's rows (issue 23): places, which
// keeps the list of preferences, drops a removed preference's links through this.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { customerPreferences } from "../../../db/schema";

/** Drops every customer's link to this preference, inside the caller's transaction. */
export async function dropPreferenceLinks(tx: Pick<Db, "delete">, preferenceId: number): Promise<void> {
  await tx.delete(customerPreferences).where(eq(customerPreferences.preference_id, preferenceId));
}
