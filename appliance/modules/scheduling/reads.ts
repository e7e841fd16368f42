// What other modules may read of scheduling's tables (issue 23: a module's tables are its own).
import type { Db } from "../../../db/client";
import { pickupDeliveries } from "../../../db/schema";
import { parseLocalityIds } from "../../domain/schedule";

/** The localities some van capacity setting names (the ones online pickups are offered in). */
export async function servedLocalityIds(db: Pick<Db, "select">): Promise<Set<number>> {
  const rows = await db.select({ localities: pickupDeliveries.localities }).from(pickupDeliveries);
  return new Set(rows.flatMap((r) => parseLocalityIds(r.localities)));
}
